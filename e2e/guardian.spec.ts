/**
 * The guardian from the console, on the embedded localnet (its own `serve` with 100 ms slots, so 60 slots
 * are 6 s; the demo app off, so only the wagers the spec opens wait on the oracle): "Pause new wagers" on
 * the Oracle screen after a confirmation (and the chain refuses a new wager), then "Resume new wagers";
 * then, with "Pause new wagers automatically when the oracle stalls" on, the local oracle stalled under a
 * waiting wager: the guardian pauses with its reason, and resumes by itself once the oracle is back.
 */
import { operatorApi } from './chain-actions';
import { attachScreenshot, expect, openWager, startLocalServe, test } from './console-fixture';

test('pauses and resumes new wagers from the Oracle screen, and automatically through an oracle stall', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const serve = await startLocalServe(['--slot-ms', '100']);
  try {
    const call = operatorApi(serve.ready.console);
    await call('saveSettings', { changes: { demoEnabled: false } });
    await page.goto(serve.ready.console);
    await page.getByRole('link', { name: 'Oracle' }).click();
    const panel = page.getByRole('region', { name: 'New wagers' });
    const actions = panel.getByRole('table', { name: 'Guardian actions' });
    await expect(panel).toContainText('New wagers are open');
    await expect(panel).toContainText("held by this console: the localnet's dev guardian key");
    await expect(panel.getByRole('button', { name: 'Copy guardian address' })).toBeVisible();

    // By hand, with a confirmation.
    await panel.getByRole('button', { name: 'Pause new wagers' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Pause new wagers?');
    await dialog.getByRole('button', { name: 'Confirm pause' }).click();
    await expect(panel).toContainText('New wagers are paused: open_wager is refused');
    await expect(actions.getByRole('row').nth(1)).toContainText(/Paused.*a person, from this console.*paused by a person from the console/);
    // The chain agrees: a new wager is refused by name.
    await expect(openWager(serve.ready.rpcUrl)).rejects.toThrow(/the wager was not opened: paused/);
    await attachScreenshot(page, testInfo, 'guardian-paused-by-hand');
    await panel.getByRole('button', { name: 'Resume new wagers' }).click();
    await dialog.getByRole('button', { name: 'Confirm resume' }).click();
    await expect(panel).toContainText('New wagers are open');
    await expect(actions.getByRole('row').nth(1)).toContainText(/Resumed.*a person, from this console/);

    // Automatically: switched on in Settings, then the local oracle stalls under a waiting wager.
    await page.getByRole('link', { name: 'Settings' }).click();
    const automatic = page.getByRole('checkbox', { name: 'Pause new wagers automatically when the oracle stalls' });
    await automatic.click();
    await expect(automatic).toBeChecked();
    await attachScreenshot(page, testInfo, 'guardian-settings');
    await page.getByRole('link', { name: 'Oracle' }).click();
    await expect(panel).toContainText('on: pauses new wagers once a randomness request has waited 60 slots');
    await page.getByRole('button', { name: 'Stall local oracle' }).click();
    await expect(page.getByRole('button', { name: 'Resume local oracle' })).toBeVisible();
    const wager = await openWager(serve.ready.rpcUrl);
    await expect(panel).toContainText('New wagers are paused by the guardian (automatically)', { timeout: 60_000 });
    await expect(actions.getByRole('row').nth(1)).toContainText(new RegExp(`Paused.*the guardian, automatically.*oracle stalled: request of wager ${wager} waited \\d+ slots`));
    await expect(page.getByRole('alert', { name: 'Oracle stall' })).toContainText('The guardian paused new wagers; it resumes them once the oracle fulfils again');
    await attachScreenshot(page, testInfo, 'guardian-paused-automatically');

    await page.getByRole('button', { name: 'Resume local oracle' }).click();
    await expect(panel).toContainText('New wagers are open', { timeout: 60_000 });
    await expect(actions.getByRole('row').nth(1)).toContainText(/Resumed.*the guardian, automatically.*oracle fulfilling again/);
    await expect(page.getByRole('alert', { name: 'Oracle stall' })).toHaveCount(0);
    await attachScreenshot(page, testInfo, 'guardian-resumed-automatically');
  } finally {
    await serve.stop();
  }
});
