/**
 * Liquidity as an LP drives it from the console: a deposit request waits in the live epoch, the epoch is
 * struck from the screen once it may be (showing the fee and the transaction), then the deposit is claimed.
 * Its own `serve` with 100 ms slots, so the 750-slot epoch closes in about 75 s; the keeper is paused so its
 * loop does not strike and claim first, and the demo app is off so no wager holds the strike back.
 */
import { address, createSolanaRpc, getBase64Encoder } from '@solana/kit';
import { operatorApi, sendInstructions } from './chain-actions';
import { TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstructionAsync } from '@solana-program/token';
import { findDepositRequestPda, findEpochRecordPda, findPoolPda, findShareMintPda, getPoolDecoder, getRequestDepositInstructionAsync } from '../src-main/protocol/wager';
import { keypairFromBytes } from '../src-main/secrets/keypair-bytes';
import { attachScreenshot, expect, startCommand, test, type ServeReady } from './console-fixture';

type Ready = ServeReady & { manifest: { programs: { wager: string }; usdcMint: string; devKeys: { app: { keypair: number[] } } } };

/** The dev app key asks to deposit `amount` USDC into the live epoch (and makes sure it can receive shares). */
async function requestDeposit(ready: Ready, amount: bigint): Promise<string> {
  const rpc = createSolanaRpc(ready.rpcUrl);
  const programAddress = address(ready.manifest.programs.wager);
  const owner = await keypairFromBytes(ready.manifest.devKeys.app.keypair);
  const [pool] = await findPoolPda({ programAddress });
  const { value } = await rpc.getAccountInfo(pool, { encoding: 'base64', commitment: 'confirmed' }).send();
  const { epoch } = getPoolDecoder().decode(getBase64Encoder().encode(value!.data[0]));
  const [request] = await findDepositRequestPda({ owner: owner.address, epoch }, { programAddress });
  const [epochRecord] = await findEpochRecordPda({ epoch }, { programAddress });
  const [source] = await findAssociatedTokenPda({ mint: address(ready.manifest.usdcMint), owner: owner.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const [shareMint] = await findShareMintPda({ programAddress });
  await sendInstructions(ready.rpcUrl, owner, [
    await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: owner, mint: shareMint, owner: owner.address }),
    await getRequestDepositInstructionAsync({ owner, request, epochRecord, source, amount }, { programAddress }),
  ]);
  return request;
}

test('strikes an epoch and claims a deposit from the Liquidity screen', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const serve = await startCommand<Ready>(['serve', '--port', '0', '--rpc-port', '0', '--gateway-port', '0', '--slot-ms', '100']);
  try {
    const call = operatorApi(serve.ready.console);
    await call('saveSettings', { changes: { demoEnabled: false } });
    await page.goto(serve.ready.console);
    // Wait until the demo's first wager (if any) is finished, then pause: the loop must not strike first.
    await expect.poll(async () => (await call<{ queue: number }>('health')).queue, { timeout: 60_000 }).toBe(0);
    await page.getByRole('button', { name: 'Pause keeper' }).click();
    await page.getByRole('link', { name: 'Liquidity' }).click();
    await expect(page.getByText(/Live epoch \d+/)).toBeVisible();

    // A live epoch whose close already passed takes no requests: strike it first.
    if (await page.getByText('It can be struck now.').isVisible()) {
      await page.getByRole('button', { name: 'Strike epoch' }).click();
      await expect(page.getByRole('status').filter({ hasText: /Strike landed/ })).toBeVisible();
    }
    const request = await requestDeposit(serve.ready, 25_000_000n);
    const row = page.getByRole('row').filter({ hasText: request });
    await expect(row).toContainText('waiting for the epoch to be struck');
    await expect(page.getByText(/It cannot be struck yet: the epoch closes at slot/)).toBeVisible();
    // When, in time, at the pace the console measures (100 ms slots here: well under the 400 ms default).
    await expect(page.getByText(/Closes at slot [\d,]+ \(now [\d,]+\), in about \d+(\.\d)? (s|min)\./)).toBeVisible();
    await attachScreenshot(page, testInfo, 'liquidity-waiting');

    await expect(page.getByText('It can be struck now.')).toBeVisible({ timeout: 120_000 });
    await page.getByRole('button', { name: 'Strike epoch' }).click();
    await expect(page.getByRole('status').filter({ hasText: /Strike landed: earned [\d,]+ lamports/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copy Strike transaction' })).toBeVisible();
    await expect(row).toContainText('struck: claimable');
    await row.getByRole('button', { name: 'Claim' }).click();
    await expect(page.getByRole('status').filter({ hasText: /Claim landed: earned [\d,]+ lamports/ })).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(page.getByRole('img', { name: /Share price over [1-9]\d* struck epochs?/ })).toBeVisible();
    await attachScreenshot(page, testInfo, 'liquidity-claimed');
  } finally {
    await serve.stop();
  }
});
