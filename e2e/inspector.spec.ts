/** The Inspector as support staff use it: a settled wager's timeline and outcome, and clear answers for bad addresses. */
import { generateKeyPairSigner } from '@solana/kit';
import { attachScreenshot, expect, openWager, test } from './console-fixture';

test("shows a settled wager's timeline, outcome and transactions, opened from the queue", async ({ consolePage: page, serve }, testInfo) => {
  const wager = await openWager(serve.ready.rpcUrl);
  await page.getByRole('link', { name: 'Queue' }).click();
  const row = page.getByRole('row').filter({ hasText: wager });
  await expect(row).toContainText(/settled/, { timeout: 60_000 });
  await row.click();
  await page.getByRole('link', { name: 'Open in Inspector' }).click();
  await expect(page.getByRole('textbox', { name: 'Wager address' })).toHaveValue(wager);
  await expect(page.getByText(/^Settled: bucket \d+, payout [\d.]+ USDC/)).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Slot timeline' });
  await expect(timeline).toContainText('opened');
  await expect(timeline).toContainText('randomness requested');
  await expect(timeline).toContainText('randomness fulfilled');
  await expect(timeline).toContainText('settled');
  await expect(page.getByRole('button', { name: 'Copy settle transaction' })).toBeVisible();
  await attachScreenshot(page, testInfo, 'inspector-settled');
});

test('says clearly what a bad address is', async ({ consolePage: page, serve }, testInfo) => {
  await page.getByRole('link', { name: 'Inspector' }).click();
  const box = page.getByRole('textbox', { name: 'Wager address' });
  const inspect = async (text: string) => {
    await box.fill(text);
    await page.getByRole('button', { name: 'Inspect' }).click();
  };
  await inspect('not-an-address');
  await expect(page.getByRole('alert')).toContainText('is not a Solana address');
  await inspect((await generateKeyPairSigner()).address);
  await expect(page.getByRole('alert')).toContainText('no account at this address, and no wager of this service in its history');
  await inspect(serve.ready.keeper);
  await expect(page.getByRole('alert')).toContainText('that is not a wager of this service');
  await attachScreenshot(page, testInfo, 'inspector-not-a-wager');
});
