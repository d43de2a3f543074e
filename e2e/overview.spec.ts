/** Overview, as a cranker sees it on the first start: the funded keeper, the localnet, earnings that grow. */
import { startTcpProxy } from '../src-main/keeper/__tests__/network-faults';
import { attachScreenshot, expect, openWager, test } from './console-fixture';

test('the overview shows the funded keeper and the localnet cluster', async ({ consolePage: page, serve }, testInfo) => {
  await expect(page.getByRole('link', { name: 'Overview' })).toBeVisible();
  await expect(page.getByText(serve.ready.keeper).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy keeper address' })).toBeVisible();
  // The status line names the cluster; the dev keeper key is funded, so no low-balance warning.
  await expect(page.getByRole('banner').getByText(/localnet/i).first()).toBeVisible();
  await expect(page.getByText(/[1-9][\d,.]* SOL/).first()).toBeVisible();
  await expect(page.getByText(/low balance/i)).toHaveCount(0);
  await attachScreenshot(page, testInfo, 'overview');
});

test('the earnings chart grows after cranks', async ({ consolePage: page, serve }, testInfo) => {
  const chart = page.getByRole('img', { name: /net earnings/i });
  await expect(chart).toBeVisible();
  const cranksShown = async () => Number(/(\d+) cranks?/.exec((await chart.getAttribute('aria-label')) ?? '')?.[1] ?? NaN);
  const before = await cranksShown();
  expect(before).not.toBeNaN();
  await openWager(serve.ready.rpcUrl);
  // A wager is two cranks (request, settle): the chart's figures grow without a reload.
  await expect.poll(cranksShown, { timeout: 60_000 }).toBeGreaterThanOrEqual(before + 2);
  await attachScreenshot(page, testInfo, 'earnings-chart');
});

test('a dropped event stream is shown, and the console reconnects and catches up by itself', async ({ page, serve }, testInfo) => {
  // The console reached through a TCP proxy the test can cut, as a flaky link or a sleeping laptop would.
  const api = new URL(serve.ready.console);
  const proxy = await startTcpProxy(Number(api.port));
  try {
    await page.goto(`${proxy.url}${api.pathname}${api.hash}`);
    await expect(page.getByRole('banner').getByText('live')).toBeVisible();
    proxy.down();
    const disconnected = page.getByRole('alert').filter({ hasText: /disconnected from the keeper/i });
    await expect(disconnected).toBeVisible();
    await attachScreenshot(page, testInfo, 'disconnected');
    // Opened while the stream is down: after reconnecting, the console refetches and shows it.
    const wager = await openWager(serve.ready.rpcUrl);
    proxy.up();
    await expect(disconnected).toHaveCount(0, { timeout: 90_000 });
    await expect(page.getByRole('banner').getByText('live')).toBeVisible();
    await page.getByRole('link', { name: 'Queue' }).click();
    // Narrowed to its address: by now the file's keeper has listed many wagers, more than the table draws at once.
    await page.getByRole('searchbox', { name: 'Search by address' }).fill(wager);
    await expect(page.getByRole('row').filter({ hasText: wager })).toBeVisible();
  } finally {
    await proxy.close();
  }
});
