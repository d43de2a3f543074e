/**
 * The Overview's earnings report on one `serve` whose demo app opens a wager every 5 s: once the keeper has
 * landed a few cranks it is paused (so the ledger stops moving), then a range of UTC dates is chosen, the
 * CSV downloaded per crank and per day, and its rows add up to the console's all-time totals (a fresh file,
 * so all time is this run).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EarningsTotals } from '../src-shared/contract/activity';
import { attachScreenshot, expect, test } from './console-fixture';

const DOCS_SCREENSHOTS = join(import.meta.dirname, '..', 'docs', 'screenshots');
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF records). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += char;
  }
  return records;
}

const lamports = (sol: string) => {
  const [whole, fraction] = sol.replace('-', '').split('.');
  return (sol.startsWith('-') ? -1 : 1) * (Number(whole) * 1e9 + Number(fraction));
};

test('the earnings report: a range, Download CSV per crank and per day, rows that add up to the console totals', async ({
  consolePage: page,
  serve,
}, testInfo) => {
  test.setTimeout(150_000);
  const consoleUrl = new URL(serve.ready.console);
  const token = new URLSearchParams(consoleUrl.hash.slice(1)).get('token')!;
  const operator = async <T>(method: string, body: object): Promise<T> => {
    const response = await fetch(`${consoleUrl.origin}/operator/api/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as T;
  };
  const allTime = async () =>
    (await operator<{ earnings: { all: EarningsTotals } }>('overview', { dayStartMs: 0 })).earnings.all;

  // The demo app's wagers get cranked; then the keeper is paused and the ledger settles.
  await expect.poll(async () => (await allTime()).cranks, { timeout: 90_000 }).toBeGreaterThanOrEqual(4);
  // Paused so the ledger stops moving; the worker's serve is shared with other specs: resumed at the end.
  await operator('setPaused', { paused: true });
  try {
    let previous = await allTime();
    await expect
      .poll(
        async () => {
          const now = await allTime();
          const same = now.cranks === previous.cranks;
          previous = now;
          return same;
        },
        { timeout: 30_000, intervals: [1_000] },
      )
      .toBe(true);
    const totals = previous;

    const report = page.getByRole('form', { name: 'Earnings report' });
    await report.scrollIntoViewIfNeeded();
    // From yesterday (UTC) so a run across midnight still covers every crank, to today.
    await report.getByLabel('From (UTC)').fill(utcDate(Date.now() - 86_400_000));
    await report.getByLabel('To (UTC)').fill(utcDate(Date.now()));

    const download = async () => {
      const downloading = page.waitForEvent('download', { timeout: 20_000 });
      await report.getByRole('button', { name: 'Download CSV' }).click();
      const file = await downloading;
      return { name: file.suggestedFilename(), rows: parseCsv(readFileSync((await file.path())!, 'utf8')) };
    };

    const perCrank = await download();
    expect(perCrank.name).toMatch(/^earnings-per-crank-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/);
    const [header, ...rows] = perCrank.rows;
    expect(header).toEqual([
      'time_utc',
      'kind',
      'step',
      'wager',
      'signature',
      'fee_earned_sol',
      'fee_spent_sol',
      'net_sol',
      'sent_to_wallet_sol',
    ]);
    const cranks = rows.filter((row) => row[1] === 'crank');
    expect(cranks).toHaveLength(totals.cranks);
    for (const row of cranks) {
      expect(row[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(['request', 'settle', 'expire', 'claim_payout']).toContain(row[2]);
      expect(row[4]).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
      for (const cell of row.slice(5)) expect(cell).toMatch(/^-?\d+\.\d{9}$/);
    }
    expect(cranks.reduce((sum, row) => sum + lamports(row[5]!), 0)).toBe(totals.receivedLamports);
    expect(cranks.reduce((sum, row) => sum + lamports(row[6]!), 0)).toBe(totals.feeLamports);
    expect(cranks.reduce((sum, row) => sum + lamports(row[7]!), 0)).toBe(totals.netLamports);
    await expect(page.getByRole('status').filter({ hasText: 'Downloaded earnings-per-crank' })).toContainText(
      `${totals.cranks} cranks`,
    );

    const section = page.locator('section').filter({ has: report });
    await attachScreenshot(page, testInfo, 'earnings-report');
    if (process.env.DOCS_SCREENSHOTS === '1') {
      mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
      await section.screenshot({ path: join(DOCS_SCREENSHOTS, 'earnings-report.png') });
    }

    await report.getByLabel('Rows').selectOption('day');
    const perDay = await download();
    const [dayHeader, ...days] = perDay.rows;
    expect(dayHeader).toEqual([
      'date_utc',
      'cranks',
      'fee_earned_sol',
      'fee_spent_sol',
      'net_sol',
      'sweeps',
      'sent_to_wallet_sol',
    ]);
    expect(days.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(totals.cranks);
    expect(days.reduce((sum, row) => sum + lamports(row[4]!), 0)).toBe(totals.netLamports);

    // A range that ends before it starts is refused in words, nothing downloaded.
    await report.getByLabel('To (UTC)').fill(utcDate(Date.now() - 3 * 86_400_000));
    await report.getByRole('button', { name: 'Download CSV' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'before the "from" date' })).toBeVisible();
  } finally {
    await operator('setPaused', { paused: false });
  }
});
