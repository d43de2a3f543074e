/**
 * "Did this wager pay what it should have?" answered in the Inspector, in the real browser: a settled
 * (closed) wager opened from a support link shows the verdict on its randomness, the randomness itself
 * (the same `inspect` prints), the stake, paytable and beneficiary it was opened with, the paytable's
 * drawn row, and labels in words; "Copy link" gives the `#/inspector?wager=` link, which opens it too.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { QueueRow } from '../src-shared/contract/activity';
import { operatorApi } from './chain-actions';
import { BIN, attachScreenshot, expect, test } from './console-fixture';

const run = promisify(execFile);
const cli = async (...args: string[]) => JSON.parse((await run(process.execPath, [BIN, ...args])).stdout) as Record<string, unknown>;

test('proves a settled wager from a support link: verdict, randomness, what it was opened with, both link forms', async ({ page, serve }, testInfo) => {
  test.setTimeout(120_000);
  const { rpcUrl } = serve.ready;
  const opened = (await cli('open', '--rpc', rpcUrl, '--paytable', 'dice', '--amount', '2.50')) as { wager: string; beneficiary: string };
  const call = operatorApi(serve.ready.console);
  await expect.poll(async () => (await call<QueueRow | null>('wager', { address: opened.wager }))?.state, { timeout: 60_000 }).toBe('settled');
  const inspected = await cli('inspect', opened.wager, '--rpc', rpcUrl);
  expect(inspected).toMatchObject({ ended: 'settled', randomnessVerified: true });

  // Link form 1: ?wager=ADDRESS#token=T opens the Inspector on the wager.
  const consoleUrl = new URL(serve.ready.console);
  const token = new URLSearchParams(consoleUrl.hash.slice(1)).get('token')!;
  const base = `${consoleUrl.origin}${consoleUrl.pathname}`;
  await page.goto(`${base}?wager=${opened.wager}#token=${token}`);
  await expect(page.getByRole('heading', { name: 'Inspector' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Wager address' })).toHaveValue(opened.wager);

  await expect(page.getByText(/^Verified: signed by the oracle's fulfilment authority [1-9A-HJ-NP-Za-km-z]{32,44}$/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(String(inspected.randomnessHex), { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy randomness (hex)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy verify-randomness command' })).toBeVisible();
  await expect(page.getByText(`so bucket ${String(inspected.bucket)} is drawn`, { exact: false })).toBeVisible();

  // What it was opened with, rebuilt from its transactions (its account is closed).
  const fact = (label: string) => page.locator('.kv-row').filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) }) }).locator('dd');
  await expect(fact('Stake')).toHaveText('2.50 USDC');
  await expect(fact('Paytable')).toHaveText('dice');
  await expect(fact('Beneficiary (USDC account)')).toContainText(opened.beneficiary);
  const drawn = page.getByRole('table', { name: 'Paytable dice' }).locator('tr[aria-current="true"]');
  await expect(drawn).toHaveCount(1);
  await expect(drawn.locator('td').first()).toHaveText(String(inspected.bucket));
  await expect(page.getByRole('table', { name: 'Steps' })).toContainText('Settled');

  // Labels are words, never field names.
  const labels = await page.locator('.grid dt, .grid th').allInnerTexts();
  expect(labels.length).toBeGreaterThan(10);
  expect(labels.filter((label) => /\b[a-z]+[A-Z][a-zA-Z]*\b/.test(label))).toEqual([]);
  await attachScreenshot(page, testInfo, 'inspector-proof');
  await page.getByRole('table', { name: 'Steps' }).scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, 'inspector-proof-steps');
  await page.getByRole('heading', { name: 'The wager, rebuilt from its transactions' }).scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, 'inspector-proof-wager');

  // "Copy link" gives the #/inspector?wager= form, and that form (with this run's token) opens the wager too.
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
  const link = `${base}#/inspector?wager=${opened.wager}`;
  await expect(page.getByText(link, { exact: true })).toBeVisible();
  await page.goto('about:blank');
  await page.goto(`${link}&token=${token}`);
  await expect(page.getByRole('textbox', { name: 'Wager address' })).toHaveValue(opened.wager);
  await expect(page.getByText(/^Verified: signed by the oracle's fulfilment authority /)).toBeVisible({ timeout: 30_000 });
});
