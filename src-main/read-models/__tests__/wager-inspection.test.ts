/**
 * The shared inspection (the console's Inspector and `wager-keeper inspect`) on closed wagers, against the
 * real localnet: a settled wager is rebuilt from its transactions alone (stake, paytable, parties, every
 * step with its cranker and fee, the payout and where it went) and its randomness is proved (the
 * authority that signed it, the draw in words matching the settlement); an expired one names its
 * cranker and fee and that the randomness never came. The inspection reads only the chain, so these are
 * also what it says about a wager no keeper of this console ever saw.
 */
import { address, getBase64Encoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import {
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstructionAsync,
} from '@solana-program/token';
import {
  alwaysPaysPaytable,
  freshBeneficiary,
  keeperTestbed,
  openWager,
  sendInstructions,
  waitFor,
} from '../../keeper/__tests__/keeper-test-helpers';
import { findNetworkStatePda, getNetworkStateDecoder } from '../../protocol/oracle';
import {
  findConfigPda,
  getClaimPayoutForWager,
  getConfigDecoder,
  getWagerDecoder,
  WagerStatus,
} from '../../protocol/wager';
import { proveRandomness } from '../randomness-proof';
import { inspectWager } from '../wager-inspection';

const bed = keeperTestbed({ prefix: 'inspection-test-' });

const deployment = () => ({
  programs: { wager: bed.parts.program, oracle: address(bed.localnet.manifest.programs.oracle) },
});
const inspect = (wager: string) => inspectWager(bed.rpc, bed.localnet.rpcUrl, address(wager), deployment());
const closed = async (wager: string) =>
  (await bed.rpc.getAccountInfo(address(wager), { encoding: 'base64', commitment: 'confirmed' }).send())
    .value === null || undefined;

async function readAccount<T>(key: string, decode: (bytes: Uint8Array) => T): Promise<T> {
  const { value } = await bed.rpc.getAccountInfo(address(key), { encoding: 'base64' }).send();
  return decode(Uint8Array.from(getBase64Encoder().encode(value!.data[0])));
}

describe('inspecting a closed wager', () => {
  it('rebuilds a settled wager from its transactions and proves its randomness', async () => {
    const beneficiary = await freshBeneficiary(bed.rpc, bed.parts.mint, bed.parts.app);
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app, {
      paytable: 'dice',
      stake: 2_500_000n,
      beneficiary: beneficiary.usdc,
    });
    const { key } = await bed.keeper('settles');
    await waitFor(() => closed(opened.wager), 30_000, 'the settlement');

    const { report, paytable, notAWager, slots } = await inspect(opened.wager);
    expect(notAWager).toBeNull();
    expect(slots).toBeNull();
    const app = bed.parts.app.address;
    expect(report).toMatchObject({
      ended: 'settled',
      paytable: 'dice',
      stake: '2.50',
      beneficiary: beneficiary.usdc,
      stakeOwner: app,
      app,
      payer: app,
      openSignature: opened.signature,
      requestCranker: key.address,
      settleCranker: key.address,
      payoutTo: beneficiary.usdc,
      payoutRoute: "paid straight to the beneficiary's USDC account at settlement",
      randomness: 'fulfilled',
      randomnessVerified: true,
      seed: expect.stringMatching(/^[0-9a-f]{64}$/),
      randomnessHex: expect.stringMatching(/^[0-9a-f]{128}$/),
    });
    // The fees are the config's, the slots in order.
    const config = await readAccount((await findConfigPda({ programAddress: bed.parts.program }))[0], (b) =>
      getConfigDecoder().decode(b),
    );
    expect(report).toMatchObject({
      requestFeeLamports: Number(config.requestFee),
      settleFeeLamports: Number(config.settleFee),
    });
    const slotsInOrder = ['openSlot', 'requestSlot', 'fulfilSlot', 'settleSlot'].map(
      (k) => report[k] as number,
    );
    expect(slotsInOrder).toEqual([...slotsInOrder].sort((a, b) => a - b));
    // The authority that signed is one of the oracle's, and the verdict names it.
    const network = await readAccount(
      (await findNetworkStatePda({ programAddress: config.oracleProgram }))[0],
      (b) => getNetworkStateDecoder().decode(b),
    );
    expect(network.fulfillmentAuthorities).toContain(report.fulfilmentAuthority);
    expect(report.verdict).toBe(
      `Verified: signed by the oracle's fulfilment authority ${String(report.fulfilmentAuthority)}`,
    );
    // The draw worked out here is the one the program settled with.
    expect(report.drawnBucket).toBe(report.bucket);
    expect(report.draw).toMatch(
      new RegExp(
        `so bucket ${String(report.bucket)} is drawn; .* pays ${String(report.payout).replace('.', '\\.')} USDC\\.$`,
      ),
    );
    expect(report.verifyWith).toBe(
      `npx wager-keeper verify-randomness --rpc ${bed.localnet.rpcUrl} --seed ${String(report.seed)} --randomness ${String(report.randomnessHex)}`,
    );
    expect(paytable).toMatchObject({ name: 'dice', drawn: report.bucket });
    expect(paytable!.rows.length).toBeGreaterThan(1);

    // Randomness that is not the authority's signature over the seed claimed (here: one byte of the seed changed) does not verify.
    const tampered = Uint8Array.from(Buffer.from(String(report.seed), 'hex'));
    tampered[0] = tampered[0]! ^ 1;
    const proof = await proveRandomness(bed.rpc, {
      seed: tampered,
      oracleRequest: address(String(report.oracleRequest)),
      oracleProgram: config.oracleProgram,
      paytable: null,
      stake: 2_500_000n,
      verifyFlags: '',
    });
    expect(proof).toMatchObject({
      randomnessVerified: false,
      fulfilmentAuthority: null,
      verdict: expect.stringMatching(/^Does not verify: /),
      draw: null,
    });
  });

  it('rebuilds an expired wager: the cranker and fee of its expiry, and randomness that never came', async () => {
    bed.localnet.fulfiller.stall();
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app, {
      paytable: 'coin-flip',
      stake: 1_000_000n,
    });
    const { key } = await bed.keeper('expires');
    await waitFor(() => closed(opened.wager), 60_000, 'the expiry');

    const { report, paytable } = await inspect(opened.wager);
    expect(report).toMatchObject({
      ended: expect.stringMatching(/^expired/),
      paytable: 'coin-flip',
      stake: '1.00',
      requestCranker: key.address,
      expireCranker: key.address,
      randomness: 'never came',
    });
    expect(report).not.toHaveProperty('verdict');
    expect(report.expireFeeLamports).toBeGreaterThan(0);
    expect(paytable).toMatchObject({ name: 'coin-flip', drawn: null });
  }, 90_000);

  it('rebuilds a payout parked in the escrow at settlement and delivered later by claim_payout', async () => {
    const app = bed.parts.app;
    const paytable = await alwaysPaysPaytable(bed.rpc, bed.localnet);
    const beneficiary = await freshBeneficiary(bed.rpc, bed.parts.mint, app);
    const opened = await openWager(bed.rpc, bed.localnet, app, {
      paytableAddress: paytable,
      stake: 1_000_000n,
      beneficiary: beneficiary.usdc,
    });
    // The beneficiary's account is closed before the keeper settles: the payout is parked.
    await sendInstructions(bed.rpc, app, [
      getCloseAccountInstruction({
        account: beneficiary.usdc,
        destination: app.address,
        owner: beneficiary.owner,
      }),
    ]);
    const { keeper } = await bed.keeper('parks');
    const parked = await waitFor(
      async () => {
        const wager = await readAccount(opened.wager, (b) => getWagerDecoder().decode(b)).catch(() => null);
        return wager?.status === WagerStatus.PayoutPending ? wager : undefined;
      },
      30_000,
      'the parked payout',
    );
    await bed.stopKeeper(keeper);
    // Someone else delivers it once the account can receive again.
    await sendInstructions(bed.rpc, app, [
      await getCreateAssociatedTokenIdempotentInstructionAsync({
        payer: app,
        mint: bed.parts.mint,
        owner: beneficiary.owner.address,
      }),
      await getClaimPayoutForWager({
        caller: app,
        wagerAddress: opened.wager,
        wager: parked,
        programAddress: bed.parts.program,
      }),
    ]);
    await waitFor(() => closed(opened.wager), 10_000, 'the claim');

    const { report } = await inspect(opened.wager);
    expect(report).toMatchObject({
      ended: 'settled',
      bucket: 0,
      payoutTo: beneficiary.usdc,
      payoutRoute: expect.stringMatching(
        /^parked in the payout escrow at settlement .* then delivered by claim_payout$/,
      ),
      claimSignature: expect.any(String),
      randomnessVerified: true,
      drawnBucket: 0,
    });
    expect(report.claimSlot).toBeGreaterThanOrEqual(report.settleSlot as number);
  });
});
