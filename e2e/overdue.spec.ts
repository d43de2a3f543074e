/**
 * The early warning of a stake at risk, as a cranker sees it: a wager still without a randomness request
 * 10 slots after it could be sent is listed on the Overview with its address and marked "overdue" in the
 * Queue; once the request lands, the warning clears by itself. Made real by pausing the keeper (nothing
 * is sent while paused) on its own `serve` with 100 ms slots, the demo app off.
 */
import { operatorApi } from './chain-actions';
import { attachScreenshot, expect, openWager, startLocalServe, test } from './console-fixture';

test('an overdue randomness request is listed on the Overview and marked in the Queue, and clears once requested', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const serve = await startLocalServe(['--slot-ms', '100']);
  try {
    const call = operatorApi(serve.ready.console);
    await call('saveSettings', { changes: { demoEnabled: false } });
    await page.goto(serve.ready.console);
    await page.getByRole('button', { name: 'Pause keeper' }).click();
    await expect(page.getByRole('button', { name: 'Resume keeper' })).toBeVisible();

    const wager = await openWager(serve.ready.rpcUrl);
    const panel = page.getByRole('region', { name: 'Overdue randomness requests' });
    await expect(panel, 'the Overview lists the overdue wager').toBeVisible({ timeout: 60_000 });
    await expect(panel.getByText(wager)).toBeVisible();
    await expect(panel.getByText(/\d+ slots late; expires at slot [\d,]+ \(in [\d,]+ slots\)/)).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Copy overdue wager address' })).toBeVisible();
    await expect(panel.getByText(/The keeper is paused, so nothing is sent/)).toBeVisible();
    await attachScreenshot(page, testInfo, 'overview-overdue');

    await page.getByRole('link', { name: 'Queue' }).click();
    await expect(page.getByRole('alert').filter({ hasText: /1 wager is overdue for its randomness request/ })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: wager });
    await expect(row.getByText('overdue', { exact: true })).toBeVisible();
    await attachScreenshot(page, testInfo, 'queue-overdue');

    // Resumed, the keeper requests it: the mark and the Overview's list go away by themselves.
    await page.getByRole('button', { name: 'Resume keeper' }).click();
    await expect(row.getByText('overdue', { exact: true })).toHaveCount(0, { timeout: 60_000 });
    await page.getByRole('link', { name: 'Overview' }).click();
    await expect(page.getByRole('region', { name: 'Overdue randomness requests' })).toHaveCount(0);
  } finally {
    await serve.stop();
  }
});
