import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeLocalOracle, stallLocalOracle } from '../../localnet/localnet-admin-client';
import { startLocalnet, type Localnet } from '../../localnet/localnet';

const bin = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'bin', 'wager-keeper.js');
const run = promisify(execFile);
const cli = async (...args: string[]) => JSON.parse((await run(process.execPath, [bin, ...args])).stdout) as Record<string, unknown>;

let localnet: Localnet;
beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, slotMs: 100 });
});
afterAll(async () => {
  await localnet.stop();
});

const waitFor = async (check: () => Promise<boolean>, what: string) => {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('wager-keeper inspect', () => {
  it('explains an open wager in words, and refuses an address that is not a wager', async () => {
    const { wager } = (await cli('open', '--rpc', localnet.rpcUrl, '--paytable', 'dice', '--amount', '2.50')) as { wager: string };
    const report = await cli('inspect', wager, '--rpc', localnet.rpcUrl);
    expect(report).toMatchObject({ wager, status: 'Open', paytable: 'dice', stake: '2.50', maxPayout: '14.70', stakeOwner: localnet.manifest.devKeys.app.address, app: localnet.manifest.devKeys.app.address });
    // The paytable's rows beside the report, as the Inspector shows them.
    expect(report.paytableBuckets).toEqual(expect.arrayContaining([expect.objectContaining({ bucket: 0, weight: expect.any(Number), multiplierBps: expect.any(Number) })]));
    expect(Number(report.expirySlot) - Number(report.openSlot)).toBe(150);

    await expect(run(process.execPath, [bin, 'inspect', localnet.manifest.usdcMint, '--rpc', localnet.rpcUrl])).rejects.toMatchObject({
      stdout: expect.stringContaining('not a wager of this service'),
    });
  });

  it('shows a fulfilled request with its drawn bucket and whether the randomness verifies', async () => {
    await stallLocalOracle(localnet.rpcUrl); // nobody settles here: the wager stays Requested
    const { wager } = (await cli('open', '--rpc', localnet.rpcUrl, '--paytable', 'coin-flip', '--amount', '1.00')) as { wager: string };
    await requestByHand(wager);
    expect(await cli('inspect', wager, '--rpc', localnet.rpcUrl)).toMatchObject({ status: 'Requested', randomness: 'pending' });

    await resumeLocalOracle(localnet.rpcUrl);
    await waitFor(async () => (await cli('inspect', wager, '--rpc', localnet.rpcUrl)).randomness === 'fulfilled', 'fulfilment');
    const report = await cli('inspect', wager, '--rpc', localnet.rpcUrl);
    expect(report).toMatchObject({ status: 'Requested', randomness: 'fulfilled', randomnessVerified: true, verdict: `Verified: signed by the oracle's fulfilment authority ${String(report.fulfilmentAuthority)}` });
    expect(report.draw).toMatch(new RegExp(`so bucket ${String(report.drawnBucket)} is drawn`));
    expect([0, 1]).toContain(report.drawnBucket);
    expect(report.payoutDue).toBe(report.drawnBucket === 1 ? '1.96' : '0.00');
    // The seed and randomness it prints are what verify-randomness takes.
    expect(report).toMatchObject({ seed: expect.stringMatching(/^[0-9a-f]{64}$/), randomnessHex: expect.stringMatching(/^[0-9a-f]{128}$/) });
    expect(await cli('verify-randomness', '--rpc', localnet.rpcUrl, '--seed', String(report.seed), '--randomness', String(report.randomnessHex))).toMatchObject({ valid: true });
  });

  it('shows a Requested wager\'s seed before the randomness comes', async () => {
    await stallLocalOracle(localnet.rpcUrl);
    try {
      const { wager } = (await cli('open', '--rpc', localnet.rpcUrl, '--paytable', 'coin-flip', '--amount', '1.00')) as { wager: string };
      await requestByHand(wager);
      const report = await cli('inspect', wager, '--rpc', localnet.rpcUrl);
      expect(report).toMatchObject({ status: 'Requested', randomness: 'pending', oracleRequest: expect.any(String), seed: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(report).not.toHaveProperty('randomnessHex');
    } finally {
      await resumeLocalOracle(localnet.rpcUrl);
    }
  });

  it('shows a PayoutPending wager\'s oracle request, seed and randomness, which verify-randomness accepts', async () => {
    const { alwaysPaysPaytable, freshBeneficiary, openWager, sendInstructions } = await import('../../keeper/__tests__/keeper-test-helpers');
    const { getCloseAccountInstruction } = await import('@solana-program/token');
    const { getSettleForWager } = await import('../../protocol/wager');
    const { keypairFromBytes } = await import('../../secrets/keypair-bytes');
    const { createSolanaRpc, address } = await import('@solana/kit');
    const rpc = createSolanaRpc(localnet.rpcUrl);
    const app = await keypairFromBytes(localnet.manifest.devKeys.app.keypair);
    const keeper = await keypairFromBytes(localnet.manifest.devKeys.keeper.keypair);

    // A wager that always pays, to a beneficiary whose USDC account is closed before settlement: the payout is parked.
    const paytable = await alwaysPaysPaytable(rpc, localnet);
    const beneficiary = await freshBeneficiary(rpc, address(localnet.manifest.usdcMint), app);
    const { wager } = await openWager(rpc, localnet, app, { paytableAddress: paytable, stake: 1_000_000n, beneficiary: beneficiary.usdc });
    await sendInstructions(rpc, app, [getCloseAccountInstruction({ account: beneficiary.usdc, destination: app.address, owner: beneficiary.owner })]);
    await requestByHand(wager);
    await waitFor(async () => (await cli('inspect', wager, '--rpc', localnet.rpcUrl)).randomness === 'fulfilled', 'fulfilment');
    await sendInstructions(rpc, keeper, [await getSettleForWager({ caller: keeper, wagerAddress: wager, wager: await readWager(wager) })]);

    const report = await cli('inspect', wager, '--rpc', localnet.rpcUrl);
    expect(report).toMatchObject({
      status: 'PayoutPending',
      oracleRequest: expect.any(String),
      seed: expect.stringMatching(/^[0-9a-f]{64}$/),
      randomness: 'fulfilled',
      randomnessHex: expect.stringMatching(/^[0-9a-f]{128}$/),
      randomnessVerified: true,
      drawnBucket: 0,
      parkedPayout: expect.stringMatching(/^0\.97\d* waiting in the escrow/),
    });
    expect(report.verifyWith).toBe(`npx wager-keeper verify-randomness --rpc ${localnet.rpcUrl} --seed ${String(report.seed)} --randomness ${String(report.randomnessHex)}`);
    const verified = await run(process.execPath, [bin, 'verify-randomness', '--rpc', localnet.rpcUrl, '--seed', String(report.seed), '--randomness', String(report.randomnessHex)]);
    expect(JSON.parse(verified.stdout)).toMatchObject({ valid: true });
  });
});

/** The wager's on-chain record. */
async function readWager(wager: string) {
  const { address, createSolanaRpc, getBase64Encoder } = await import('@solana/kit');
  const { getWagerDecoder } = await import('../../protocol/wager');
  const { value } = await createSolanaRpc(localnet.rpcUrl).getAccountInfo(address(wager), { encoding: 'base64' }).send();
  return getWagerDecoder().decode(getBase64Encoder().encode(value!.data[0]));
}

/** Cranks the randomness request of an Open `wager` by hand through the keeper's own builder, as a keeper would. */
async function requestByHand(wager: string) {
  const { connectToChain } = await import('../../chain/rpc-connection');
  const { createSignatureConfirmer } = await import('../../chain/signature-confirmer');
  const { createTransactionSender } = await import('../../chain/transaction-sender');
  const { fetchSlotHashes } = await import('../../keeper/chain-view');
  const { getRequestRandomnessForWager } = await import('../../protocol/wager');
  const { keypairFromBytes } = await import('../../secrets/keypair-bytes');
  const { address } = await import('@solana/kit');
  const { rpc } = connectToChain(localnet.rpcUrl, localnet.wsUrl);
  const keeper = await keypairFromBytes(localnet.manifest.devKeys.keeper.keypair);
  const opened = await readWager(wager);
  await waitFor(async () => (await rpc.getSlot().send()) >= opened.openSlot + 2n, 'open+2');
  const { instruction } = await getRequestRandomnessForWager({
    caller: keeper,
    wagerAddress: address(wager),
    wager: opened,
    oracle: { programAddress: address(localnet.manifest.programs.oracle), networkState: address(localnet.manifest.oracle.networkState), treasury: address(localnet.manifest.oracle.treasury) },
    slotHashes: await fetchSlotHashes(rpc),
  });
  const confirmer = createSignatureConfirmer(rpc, 50);
  await createTransactionSender({ rpc, confirmer, payer: keeper, resendIntervalMs: 500 }).send([instruction]);
  confirmer.stop();
}
