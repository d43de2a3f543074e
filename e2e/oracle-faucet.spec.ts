/** The oracle monitor and its stall banner, and the faucet, as a tester drives them on the embedded localnet. */
import { address, createSolanaRpc, generateKeyPairSigner, lamports } from '@solana/kit';
import { operatorApi } from './chain-actions';
import { attachScreenshot, expect, openWager, startLocalServe, test } from './console-fixture';

test('stalling the local oracle raises the banner, a waiting wager expires on screen, and resuming clears it', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  // Its own serve with 100 ms slots (the demo app off): the 150 slots to the expiry pass in 15 s, not 60.
  const serve = await startLocalServe(['--slot-ms', '100']);
  try {
    await operatorApi(serve.ready.console)('saveSettings', { changes: { demoEnabled: false } });
    await page.goto(serve.ready.console);
    const banner = page.getByRole('alert', { name: 'Oracle stall' });
    await page.getByRole('link', { name: 'Oracle' }).click();
    await page.getByRole('button', { name: 'Stall local oracle' }).click();
    await expect(page.getByRole('button', { name: 'Resume local oracle' })).toBeVisible();
    const wager = await openWager(serve.ready.rpcUrl);
    // Past 20 slots of waiting (2 s at 100 ms a slot) the banner says so, on every screen.
    await expect(banner).toContainText(/Oracle slow|Oracle stalled/, { timeout: 60_000 });
    await expect(banner).toContainText(/forfeits its stake to the pool/);
    await page.getByRole('link', { name: 'Queue' }).click();
    await expect(banner).toBeVisible();
    await attachScreenshot(page, testInfo, 'oracle-stall-banner');
    // At open + 150 the keeper expires it: the row says so without a reload.
    await expect(page.getByRole('row').filter({ hasText: wager })).toContainText(/expired/, {
      timeout: 120_000,
    });
    // The Inspector says what the expiry meant.
    // A `?wager=` link (same page: the token stays in memory).
    await page.evaluate(`window.location.hash = '#/inspector?wager=${wager}'`);
    await expect(
      page.getByText(
        /^Expired: the randomness never came within 150 slots\. The stake was forfeited to the pool/,
      ),
    ).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('list', { name: 'Slot timeline' })).toContainText(
      'expired (window closed at open + 150)',
    );
    await attachScreenshot(page, testInfo, 'inspector-expired');
    await page.getByRole('link', { name: 'Oracle' }).click();
    await page.getByRole('button', { name: 'Resume local oracle' }).click();
    await expect(banner).toHaveCount(0, { timeout: 60_000 });
    await attachScreenshot(page, testInfo, 'oracle-resumed');
  } finally {
    await serve.stop();
  }
});

test('a faucet claim succeeds and a second one shows the countdown to the next', async ({
  consolePage: page,
  serve,
}, testInfo) => {
  // The faucet pauses while the keeper's SOL is under its balance warning (issue 33), and another spec of
  // this worker's serve (earnings-sweep) may have swept the keeper down to its reserve: top it up first,
  // as an operator would, and wait until the chain shows it.
  const { keeper } = await operatorApi(serve.ready.console)<{ keeper: { address: string } }>('status');
  const rpc = createSolanaRpc(serve.ready.rpcUrl);
  const keeperAddress = address(keeper.address);
  const before = (await rpc.getBalance(keeperAddress, { commitment: 'confirmed' }).send()).value;
  await rpc.requestAirdrop(keeperAddress, lamports(5_000_000_000n)).send();
  await expect
    .poll(
      async () => (await rpc.getBalance(keeperAddress, { commitment: 'confirmed' }).send()).value > before,
      { timeout: 30_000 },
    )
    .toBe(true);

  const wallet = (await generateKeyPairSigner()).address;
  await page.getByRole('link', { name: 'Faucet' }).click();
  await expect(page.getByText(/per claim; \d+ of \d+ claims left today/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Wallet address' }).fill(wallet);
  await page.getByRole('button', { name: 'Claim test USDC' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Sent [\d,]+\.\d+ USDC/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy faucet transaction' })).toBeVisible();
  await page.getByRole('button', { name: 'Claim test USDC' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: /Refused: .*claim again in \d+ min \d+ s/ }),
  ).toBeVisible();
  await attachScreenshot(page, testInfo, 'faucet-countdown');
});
