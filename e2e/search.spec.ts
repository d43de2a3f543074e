/**
 * Support's search box (in the shell, "/" focuses it): a user's wallet lists its wagers, newest first, with
 * status and payout, each opening in the Inspector; a wager address opens the Inspector; the pool opens
 * Liquidity; a mint is "not something of this service", saying it is a mint.
 */
import { generateKeyPairSigner } from '@solana/kit';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { operatorApi } from './chain-actions';
import { attachScreenshot, BIN, expect, openWager, test } from './console-fixture';

const run = promisify(execFile);

/** `wager-keeper open` paying `beneficiary` (a wallet: its USDC account is made): the wager's address. */
async function openFor(rpcUrl: string, beneficiary: string): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, 'open', '--rpc', rpcUrl, '--paytable', 'coin-flip', '--amount', '1.00', '--beneficiary', beneficiary]);
  return (JSON.parse(stdout) as { wager: string }).wager;
}

/** Searches from the shell's box, focused by its shortcut ("/" from the page itself, Ctrl+K from anywhere, also inside a field). */
const search = async (page: import('@playwright/test').Page, text: string, shortcut: '/' | 'Control+K' = 'Control+K') => {
  if (shortcut === '/') await page.locator('body').press('/');
  else await page.keyboard.press('Control+K');
  const box = page.getByRole('searchbox', { name: 'Search an address' });
  await expect(box).toBeFocused();
  await box.fill(text);
  await box.press('Enter');
};

test("a user's wallet lists its wagers with status and payout, newest first, each opening in the Inspector", async ({ consolePage: page, serve }, testInfo) => {
  const user = (await generateKeyPairSigner()).address;
  const first = await openFor(serve.ready.rpcUrl, user);
  const second = await openFor(serve.ready.rpcUrl, user);
  await expect(page.getByRole('searchbox', { name: 'Search an address' })).toHaveAttribute('placeholder', /\//);
  await search(page, user, '/');
  const list = page.getByRole('table', { name: 'Wagers found' });
  await expect(list.getByRole('row')).toHaveCount(3); // header + 2
  // Newest first: the second opening is the first row.
  await expect(list.getByRole('row').nth(1).getByRole('link', { name: 'Open in Inspector' })).toHaveAttribute('href', `#/inspector?wager=${second}`);
  await expect(list.getByRole('row').nth(2).getByRole('link', { name: 'Open in Inspector' })).toHaveAttribute('href', `#/inspector?wager=${first}`);
  await expect(list.getByRole('row').nth(1)).toContainText('beneficiary');
  // The keeper settles them: searching again shows each outcome with its payout.
  await expect
    .poll(async () => {
      const view = await operatorApi(serve.ready.console)<{ wagers: { status: string }[] }>('searchAddress', { address: user });
      return view.wagers.map((w) => w.status);
    }, { timeout: 60_000 })
    .toEqual(['settled', 'settled']);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(list.getByRole('row').nth(1)).toContainText(/settled: bucket \d+, payout [\d.,]+ USDC/);
  await attachScreenshot(page, testInfo, 'search-wallet');
  await list.getByRole('row').nth(2).getByRole('link', { name: 'Open in Inspector' }).click();
  await expect(page).toHaveURL(new RegExp(`#/inspector\\?wager=${first}`));
  await expect(page.getByRole('main')).toContainText(first);
});

test('a wager address opens the Inspector, the pool opens Liquidity, a mint is not something of this service', async ({ consolePage: page, serve }, testInfo) => {
  const wager = await openWager(serve.ready.rpcUrl);
  await search(page, wager);
  await expect(page).toHaveURL(new RegExp(`#/inspector\\?wager=${wager}`));
  await expect(page.getByRole('main')).toContainText(wager);

  const status = await operatorApi(serve.ready.console)<{ cluster: { deployment: { pool: string; usdcMint: string } } }>('status');
  await search(page, status.cluster.deployment.pool);
  await expect(page).toHaveURL(/#\/liquidity$/);
  await expect(page.getByRole('link', { name: 'Liquidity' })).toHaveAttribute('aria-current', 'page');

  await search(page, status.cluster.deployment.usdcMint);
  await expect(page.getByRole('alert').filter({ hasText: 'Not something of this service' })).toContainText('mint');
  await attachScreenshot(page, testInfo, 'search-mint');
  await search(page, 'not an address');
  await expect(page.getByRole('alert').filter({ hasText: 'not a Solana address' })).toBeVisible();
});
