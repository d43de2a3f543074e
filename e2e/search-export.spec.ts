/**
 * Support's wallet search with times, and the console's time zone (issue 29): a user's wallet lists its
 * wagers with when they opened and ended, the outcome in a word and the payout, and "Export CSV" downloads
 * them (UTC times, USDC with 6 decimals, signatures in full). Settings → Console → Times switches every
 * time on screen between local and UTC at once, the other zone on hover, and the choice stays after a reload.
 *
 * The browser runs in New York's zone so "local" and UTC read differently (EST is UTC-5 in winter, EDT -4).
 */
import { generateKeyPairSigner } from '@solana/kit';
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { operatorApi } from './chain-actions';
import { attachScreenshot, BIN, expect, test } from './console-fixture';

const run = promisify(execFile);
test.use({ timezoneId: 'America/New_York' });

const LOCAL_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d E[SD]T$/;
const UTC_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;

interface FoundWager {
  address: string;
  status: string;
  payout: string | null;
  openSignature: string | null;
  finalSignature: string | null;
  openedAt: number | null;
  finalAt: number | null;
}

/** `wager-keeper open` paying `beneficiary` (a wallet: its USDC account is made): the wager's address. */
async function openFor(rpcUrl: string, beneficiary: string): Promise<string> {
  const { stdout } = await run(process.execPath, [
    BIN,
    'open',
    '--rpc',
    rpcUrl,
    '--paytable',
    'coin-flip',
    '--amount',
    '1.00',
    '--beneficiary',
    beneficiary,
  ]);
  return (JSON.parse(stdout) as { wager: string }).wager;
}

async function searchFromBox(page: Page, text: string) {
  await page.keyboard.press('Control+K');
  const box = page.getByRole('searchbox', { name: 'Search an address' });
  await box.fill(text);
  await box.press('Enter');
}

const isoUtc = (ms: number | null) =>
  ms === null ? '' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const usdc = (base: string | null) =>
  base === null
    ? ''
    : `${BigInt(base) / 1_000_000n}.${(BigInt(base) % 1_000_000n).toString().padStart(6, '0')}`;

test("a wallet's wagers with their times and outcomes, exported as CSV", async ({
  consolePage: page,
  serve,
}, testInfo) => {
  const user = (await generateKeyPairSigner()).address;
  const wagers = [await openFor(serve.ready.rpcUrl, user), await openFor(serve.ready.rpcUrl, user)];
  // The keeper settles both: the operator API says so, with each end's transaction and time.
  let found: FoundWager[] = [];
  await expect
    .poll(
      async () => {
        found = (
          await operatorApi(serve.ready.console)<{ wagers: FoundWager[] }>('searchAddress', { address: user })
        ).wagers;
        return found.map((w) => (w.finalAt !== null ? w.status : 'open'));
      },
      { timeout: 60_000 },
    )
    .toEqual(['settled', 'settled']);
  expect(found.map((w) => w.address).sort()).toEqual([...wagers].sort());

  await searchFromBox(page, user);
  const list = page.getByRole('table', { name: 'Wagers found' });
  await expect(list.getByRole('row')).toHaveCount(3); // header + 2
  for (const [index, wager] of found.entries()) {
    const row = list.getByRole('row').nth(index + 1);
    await expect(row.getByRole('link', { name: 'Open in Inspector' })).toHaveAttribute(
      'href',
      `#/inspector?wager=${wager.address}`,
    );
    // Opened and ended in the local zone (the default), UTC on hover.
    const [opened, ended] = [
      row.getByRole('cell').nth(1).locator('time'),
      row.getByRole('cell').nth(2).locator('time'),
    ];
    await expect(opened).toHaveText(LOCAL_TIME);
    await expect(opened).toHaveAttribute('title', UTC_TIME);
    await expect(opened).toHaveAttribute('datetime', new Date(wager.openedAt!).toISOString());
    await expect(ended).toHaveAttribute('datetime', new Date(wager.finalAt!).toISOString());
    const won = BigInt(wager.payout ?? '0') > 0n;
    await expect(row.getByRole('cell').nth(4)).toContainText(won ? 'won' : 'lost');
  }
  await attachScreenshot(page, testInfo, 'search-wallet');
  if (process.env.DOCS_SCREENSHOTS === '1') {
    mkdirSync(join(import.meta.dirname, '..', 'docs', 'screenshots'), { recursive: true });
    await page
      .getByRole('region', { name: 'Search result' })
      .screenshot({ path: join(import.meta.dirname, '..', 'docs', 'screenshots', 'search-wallet.png') });
  }

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^wagers-${user}-.*\\.csv$`));
  let csv = '';
  for await (const chunk of await download.createReadStream()) csv += chunk.toString();
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe(
    'wager,outcome,opened_at_utc,final_at_utc,stake_usdc,payout_usdc,bucket,open_slot,roles,open_signature,final_signature',
  );
  expect(lines).toHaveLength(4); // header, 2 rows, the final CRLF
  for (const [index, wager] of found.entries()) {
    const cells = lines[index + 1]!.split(',');
    expect(cells.slice(0, 6)).toEqual([
      wager.address,
      BigInt(wager.payout ?? '0') > 0n ? 'won' : 'lost',
      isoUtc(wager.openedAt),
      isoUtc(wager.finalAt),
      '1.000000',
      usdc(wager.payout),
    ]);
    expect(cells.slice(-2)).toEqual([wager.openSignature, wager.finalSignature]);
  }
  await expect(page.getByRole('status').filter({ hasText: 'exported' })).toHaveText('2 wagers exported.');
});

test('Settings → Console → Times: local or UTC on every screen at once, the other on hover, kept after a reload', async ({
  consolePage: page,
  serve,
}) => {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const logTime = page.getByRole('log', { name: 'Log lines' }).locator('.log-line time').first();
  await nav.getByRole('link', { name: 'Logs' }).click();
  await expect(logTime).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} E[SD]T$/, { timeout: 15_000 });
  await expect(logTime).toHaveAttribute('title', /\.\d{3} UTC$/);

  await nav.getByRole('link', { name: 'Settings' }).click();
  const times = page.getByRole('group', { name: 'Times' });
  await expect(times.getByRole('radio', { name: /^Local \(E[SD]T/ })).toBeChecked();
  await times.getByRole('radio', { name: 'UTC' }).check();
  // This screen's own example changes at once.
  await expect(page.getByRole('region', { name: 'Console' }).locator('time')).toHaveText(UTC_TIME);

  await nav.getByRole('link', { name: 'Logs' }).click();
  await expect(logTime).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC$/);
  await expect(logTime).toHaveAttribute('title', /\.\d{3} E[SD]T$/);

  // Another screen: a wallet's wagers in the search.
  const user = (await generateKeyPairSigner()).address;
  await openFor(serve.ready.rpcUrl, user);
  await searchFromBox(page, user);
  const opened = page
    .getByRole('table', { name: 'Wagers found' })
    .getByRole('row')
    .nth(1)
    .getByRole('cell')
    .nth(1)
    .locator('time');
  await expect(opened).toHaveText(UTC_TIME);
  await expect(opened).toHaveAttribute('title', LOCAL_TIME);

  // Kept by this browser: a new load of the console still shows UTC; back to local, and the search follows.
  await page.goto(serve.ready.console);
  await nav.getByRole('link', { name: 'Settings' }).click();
  await expect(times.getByRole('radio', { name: 'UTC' })).toBeChecked();
  await times.getByRole('radio', { name: /^Local/ }).check();
  await searchFromBox(page, user);
  await expect(opened).toHaveText(LOCAL_TIME);
});
