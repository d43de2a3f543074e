import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src-shared/units';
import { openDatabase, transaction, type Database } from '../../store/database';
import { createEarningsLedger } from '../../store/earnings-ledger';
import { pruneHistory } from '../../store/history-retention';
import { CRANK_COLUMNS, DAY_COLUMNS, earningsReport, earningsReportYielding, sol } from '../earnings-report';

const DAY = Date.parse('2026-11-20T00:00:00.000Z');

let dir: string;
let db: Database;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wk-report-'));
  db = openDatabase(join(dir, 'keeper.db'));
});
afterEach(async () => {
  if (db.isOpen) db.close();
  await rm(dir, { recursive: true, force: true });
});

/** Parses the CSV this module writes (RFC 4180: quoted fields with doubled quotes, CRLF records). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  const endField = () => {
    record.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') endField();
    else if (char === '\r' && text[i + 1] === '\n') {
      endField();
      records.push(record);
      record = [];
      i++;
    } else field += char;
  }
  return records;
}

/** Two days of cranks (one every 20 minutes, the first at 00:05 UTC) and one sweep on the second day. */
function bookTwoDays(): void {
  const ledger = createEarningsLedger(db);
  transaction(db, () => {
    for (let i = 0; i < 144; i++)
      ledger.record({
        at: new Date(DAY + 300_000 + i * 1_200_000).toISOString(),
        wager: i === 7 ? 'Wager,with "odd" text' : `W${i}`,
        step: i % 2 ? 'settle' : 'request',
        signature: `sig${i}`,
        receivedLamports: 50_000 + i,
        feeLamports: 5_000,
      });
    db.prepare(
      'INSERT INTO sweeps (at_ms, destination, sent_lamports, fee_lamports, kept_lamports, signature, trigger) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(DAY + 36 * HOUR_MS + 1, 'Dest', 1_234_567_890, 5_000, 50_000_000, 'sweepsig', 'manual');
  });
}

describe('the earnings report', () => {
  it('per crank: the columns, RFC 4180 quoting, 9 decimals, the sweep as its own row, and totals equal to the console summary', () => {
    bookTwoDays();
    const report = earningsReport(db, { sinceMs: DAY, untilMs: DAY + 2 * 86_400_000, per: 'crank' });
    const [header, ...rows] = parseCsv(report.csv);
    expect(header).toEqual([...CRANK_COLUMNS]);
    expect(rows).toHaveLength(145);
    expect(rows[0]).toEqual([
      '2026-11-20T00:05:00.000Z',
      'crank',
      'request',
      'W0',
      'sig0',
      '0.000050000',
      '0.000005000',
      '0.000045000',
      '0.000000000',
    ]);
    expect(rows[7]![3]).toBe('Wager,with "odd" text');
    expect(report.csv).toContain('"Wager,with ""odd"" text"');
    const sweep = rows.find((row) => row[1] === 'sweep')!;
    expect(sweep).toEqual([
      '2026-11-21T12:00:00.001Z',
      'sweep',
      'sweep',
      '',
      'sweepsig',
      '0.000000000',
      '0.000005000',
      '-0.000005000',
      '1.234567890',
    ]);
    // The sweep sits between the cranks of its time (108 cranks, 00:05 to 35:45, come before 36:00).
    expect(rows.indexOf(sweep)).toBe(108);
    for (const row of rows) for (const cell of row.slice(5)) expect(cell).toMatch(/^-?\d+\.\d{9}$/);

    const crankRows = rows.filter((row) => row[1] === 'crank');
    const lamports = (cell: string) => Math.round(Number(cell) * 1e9);
    const summary = createEarningsLedger(db).summary(DAY);
    expect(crankRows.length).toBe(summary.cranks);
    expect(crankRows.reduce((sum, row) => sum + lamports(row[5]!), 0)).toBe(summary.receivedLamports);
    expect(crankRows.reduce((sum, row) => sum + lamports(row[6]!), 0)).toBe(summary.feeLamports);
    expect(report.totals).toMatchObject({
      cranks: 144,
      earnedLamports: summary.receivedLamports,
      spentLamports: summary.feeLamports + 5_000,
      sweeps: 1,
      sentToWalletLamports: 1_234_567_890,
    });
    expect(report.notice).toBeNull();
  });

  it('per day: one row per UTC day with the day sums (the sweep on its day), also when the range starts mid-hour', () => {
    bookTwoDays();
    const report = earningsReport(db, { sinceMs: DAY, untilMs: DAY + 2 * 86_400_000, per: 'day' });
    const [header, ...rows] = parseCsv(report.csv);
    expect(header).toEqual([...DAY_COLUMNS]);
    const firstDay = Array.from({ length: 72 }, (_, i) => 50_000 + i).reduce((a, b) => a + b, 0);
    expect(rows[0]).toEqual([
      '2026-11-20',
      '72',
      sol(firstDay),
      sol(72 * 5_000),
      sol(firstDay - 72 * 5_000),
      '0',
      '0.000000000',
    ]);
    expect(rows[1]![0]).toBe('2026-11-21');
    expect(rows[1]![5]).toBe('1');
    expect(rows[1]![6]).toBe('1.234567890');
    // From 00:30 to 23:50 of the first day: rows for the part hours, the rollup for the rest.
    const partial = earningsReport(db, {
      sinceMs: DAY + 1_800_000,
      untilMs: DAY + 23 * HOUR_MS + 3_000_000,
      per: 'day',
    });
    const perCrank = earningsReport(db, {
      sinceMs: DAY + 1_800_000,
      untilMs: DAY + 23 * HOUR_MS + 3_000_000,
      per: 'crank',
    });
    expect(partial.totals).toEqual(perCrank.totals);
  });

  it('for the console, read in pages with the loop let go between them: the same CSV, also across equal times at page ends', async () => {
    const ledger = createEarningsLedger(db);
    transaction(db, () => {
      // 12 000 cranks, three per millisecond, so page ends (every 5 000 rows) fall between cranks of one time.
      for (let i = 0; i < 12_000; i++)
        ledger.record({
          at: new Date(DAY + 1_000 + Math.floor(i / 3)).toISOString(),
          wager: `W${i}`,
          step: 'settle',
          signature: `s${i}`,
          receivedLamports: i,
          feeLamports: 1,
        });
    });
    const range = { sinceMs: DAY + 1_000, untilMs: DAY + 5_000, per: 'crank' as const };
    let turns = 0;
    const counting = setInterval(() => (turns += 1), 0);
    const paged = await earningsReportYielding(db, range);
    clearInterval(counting);
    const once = earningsReport(db, range);
    expect(paged.rows).toBe(12_000);
    expect(paged.csv).toBe(once.csv);
    expect(paged.totals).toEqual(once.totals);
    expect(turns).toBeGreaterThan(0);
    await expect(earningsReportYielding(db, { ...range, maxCrankRows: 10_000 })).rejects.toThrow(
      /^12000 cranks in this range, more than the 10000 .*download per day/,
    );
  });

  it('over pruned rows: per crank says how many cranks it lacks, per day still has every day', async () => {
    bookTwoDays();
    await pruneHistory(db, 86_400_000, DAY + 2 * 86_400_000);
    const range = { sinceMs: DAY, untilMs: DAY + 2 * 86_400_000 };
    const perCrank = earningsReport(db, { ...range, per: 'crank' });
    expect(perCrank.notice).toMatch(/^72 crank\(s\) of this range were pruned by --keep-history .*per day/);
    const perDay = earningsReport(db, { ...range, per: 'day' });
    expect(perDay.totals.cranks).toBe(144);
    expect(perDay.notice).toBeNull();
  });
});
