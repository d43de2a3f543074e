/** Overview, as a cranker sees it on the first start: the funded keeper, the localnet, earnings that grow. */
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
