/**
 * Support staff and a parked payout: a wager whose beneficiary's USDC account was closed before settlement
 * settles into the escrow (PayoutPending); the Inspector says what the beneficiary must do, and once the
 * account exists again "Claim payout now" delivers it.
 * A coin flip pays one time in two, so the spec opens wagers until one wins (at most 24: a 1 in 16 million
 * chance of never winning). The keeper is paused while each is prepared, and again once one is parked, so
 * that only the button delivers it.
 */
import { address, createSolanaRpc, generateKeyPairSigner } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS, getCloseAccountInstruction, getCreateAssociatedTokenIdempotentInstructionAsync } from '@solana-program/token';
import { openLocalnetWager } from '../src-main/localnet/dev-app-wager';
import { fetchLocalnetManifest } from '../src-main/localnet/localnet-admin-client';
import type { QueueRow } from '../src-shared/contract/activity';
import { keypairFromBytes } from '../src-main/secrets/keypair-bytes';
import { operatorApi, sendInstructions } from './chain-actions';
import { attachScreenshot, expect, test } from './console-fixture';

const MAX_ATTEMPTS = 24;

test("shows a PayoutPending wager's escrow, then delivers it with Claim payout now", async ({ consolePage: page, serve }, testInfo) => {
  test.setTimeout(240_000);
  const { rpcUrl } = serve.ready;
  const manifest = await fetchLocalnetManifest(rpcUrl);
  if (manifest.bare) throw new Error('serve runs a full localnet, not a bare one');
  const rpc = createSolanaRpc(rpcUrl);
  const call = operatorApi(serve.ready.console);
  const app = await keypairFromBytes(manifest.devKeys.app.keypair);

  let parked: { wager: string; owner: Awaited<ReturnType<typeof generateKeyPairSigner>>; usdc: string } | undefined;
  try {
    for (let attempt = 0; attempt < MAX_ATTEMPTS && !parked; attempt++) {
      await call('setPaused', { paused: true });
      const owner = await generateKeyPairSigner();
      const opened = await openLocalnetWager({ rpc, manifest, paytable: 'coin-flip', stake: 1_000_000n, beneficiary: owner.address });
      // The beneficiary's USDC account (created empty by the open) is closed before the keeper settles.
      await sendInstructions(rpcUrl, app, [getCloseAccountInstruction({ account: opened.beneficiary, destination: app.address, owner })]);
      await call('setPaused', { paused: false });
      let row: QueueRow | null = null;
      await expect
        .poll(async () => (row = await call<QueueRow | null>('wager', { address: opened.wager }))?.state, { timeout: 60_000 })
        .toMatch(/^(settled|expired)$/);
      if (row!.payoutPending) {
        await call('setPaused', { paused: true });
        parked = { wager: opened.wager, owner, usdc: opened.beneficiary };
      }
    }
    expect(parked, `no coin flip won in ${MAX_ATTEMPTS} tries`).toBeDefined();
    const { wager, owner, usdc } = parked!;

    await page.getByRole('link', { name: 'Inspector' }).click();
    await page.getByRole('textbox', { name: 'Wager address' }).fill(wager);
    await page.getByRole('button', { name: 'Inspect' }).click();
    await expect(page.getByText(/^Settled, payout parked in escrow: 1\.96\d* USDC waiting in the escrow/)).toBeVisible();
    await expect(page.getByText(/must be made able to receive \(reopened or thawed\)/)).toBeVisible();
    await attachScreenshot(page, testInfo, 'inspector-payout-pending');

    // The beneficiary opens its USDC account again; support delivers the payout without waiting for the keeper's retry.
    await sendInstructions(rpcUrl, app, [
      await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: app, mint: address(manifest.usdcMint), owner: owner.address, tokenProgram: TOKEN_PROGRAM_ADDRESS }),
    ]);
    await page.getByRole('button', { name: 'Claim payout now' }).click();
    await expect(page.getByRole('status').filter({ hasText: /Claim payout landed: no keeper fee for this step/ })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/^Settled: bucket 1, payout 1\.96 USDC/)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('button', { name: 'Copy claim transaction' })).toBeVisible();
    const { value } = await rpc.getTokenAccountBalance(address(usdc), { commitment: 'confirmed' }).send();
    expect(value.amount).toBe('1960000');
    await attachScreenshot(page, testInfo, 'inspector-payout-delivered');
  } finally {
    await call('setPaused', { paused: false });
  }
});
