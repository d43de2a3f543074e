/** The queue, live: a wager appears and settles without a reload; pause holds new wagers, resume settles them. */
import { attachScreenshot, expect, openWager, test, type ServeReady } from './console-fixture';

const rowOf = (page: import('@playwright/test').Page, wager: string) => page.getByRole('row').filter({ hasText: wager });

/** The current slot, from the operator API (the same the status line shows). */
async function currentSlot(ready: ServeReady): Promise<number> {
  const url = new URL(ready.console);
  const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
  const response = await fetch(`${url.origin}/operator/api/health`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as { slot: number }).slot;
}

test('a wager opened with `wager-keeper open` appears in the queue and turns settled without a reload', async ({ consolePage: page, serve }, testInfo) => {
  await page.getByRole('link', { name: 'Queue' }).click();
  const wager = await openWager(serve.ready.rpcUrl);
  await expect(rowOf(page, wager)).toBeVisible();
  await expect(rowOf(page, wager)).toContainText(/settled/i, { timeout: 60_000 });
  // A row opens its detail: the keeper's record with its transactions.
  await rowOf(page, wager).click();
  const detail = page.getByRole('complementary', { name: 'Wager detail' });
  await expect(detail).toContainText(wager);
  await expect(detail).toContainText(/settle transaction/);
  await expect(detail.getByRole('button', { name: 'Copy settle transaction' })).toBeVisible();
  await attachScreenshot(page, testInfo, 'queue-settled');
});

test('pause keeps a new wager queued and resume settles it', async ({ consolePage: page, serve }, testInfo) => {
  await page.getByRole('button', { name: 'Pause keeper' }).click();
  await expect(page.getByRole('button', { name: 'Resume keeper' })).toBeVisible();
  await page.getByRole('link', { name: 'Queue' }).click();
  const wager = await openWager(serve.ready.rpcUrl);
  await expect(rowOf(page, wager)).toContainText(/queued/i);
  // Well past open + 2, when an unpaused keeper would have requested: still queued.
  const openedAt = await currentSlot(serve.ready);
  await expect.poll(() => currentSlot(serve.ready), { timeout: 60_000 }).toBeGreaterThan(openedAt + 12);
  await expect(rowOf(page, wager)).toContainText(/queued/i);
  await attachScreenshot(page, testInfo, 'queue-paused');

  await page.getByRole('button', { name: 'Resume keeper' }).click();
  await expect(page.getByRole('button', { name: 'Pause keeper' })).toBeVisible();
  await expect(rowOf(page, wager)).toContainText(/settled/i, { timeout: 60_000 });
  await attachScreenshot(page, testInfo, 'queue-resumed');
});

test('finished wagers show their outcome and time to settle; the address search narrows the rows; Export CSV downloads what is shown', async ({ consolePage: page, serve }, testInfo) => {
  await page.getByRole('link', { name: 'Queue' }).click();
  const wager = await openWager(serve.ready.rpcUrl);
  await expect(rowOf(page, wager)).toContainText(/settled/i, { timeout: 60_000 });
  await expect(rowOf(page, wager)).toContainText(/bucket \d+ · [\d.,]+ USDC/);
  await expect(rowOf(page, wager)).toContainText(/\d+ slots? · [\d.]+ s/);
  // The address search: part of the wager's address leaves only its row.
  await page.getByRole('searchbox', { name: 'Search by address' }).fill(wager.slice(2, 14));
  await expect(page.getByRole('table', { name: 'Wagers' }).getByRole('row')).toHaveCount(2);
  await expect(rowOf(page, wager)).toBeVisible();
  await attachScreenshot(page, testInfo, 'queue-outcome-search');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^wager-queue-.*\.csv$/);
  const csv = await download.createReadStream().then(async (stream) => {
    let text = '';
    for await (const chunk of stream) text += chunk.toString();
    return text;
  });
  const lines = csv.trim().split('\r\n');
  expect(lines[0]).toMatch(/^wager,state,paytable,stake_usdc,/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(new RegExp(`^${wager},settled,coin-flip,1.000000,`));
  await page.getByRole('searchbox', { name: 'Search by address' }).fill('');
});
