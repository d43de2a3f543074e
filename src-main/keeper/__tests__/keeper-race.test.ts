/**
 * Several crankers on the same wagers, as on a real cluster: two keepers (two keys, two SQLite files)
 * race for every step of a dozen wagers; each wager is requested and settled exactly once on chain and
 * both keepers end with the winner's outcome. And a keeper whose parked payout someone else delivered
 * records the original settlement, not the delivery.
 */
import { generateKeyPairSigner, type Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { getClaimPayoutForWager, getWagerDecoder, WagerStatus } from '../../protocol/wager';
import type { Keeper } from '../keeper';
import {
  ALWAYS_PAYS_MULTIPLIER_BPS,
  keeperTestbed,
  openParkedPayoutWager,
  openWager,
  sendInstructions,
  thawUsdc,
  waitFor,
  wagerHistory,
} from './keeper-test-helpers';

const SOL = 1_000_000_000n;
const WAGERS = 12;

const bed = keeperTestbed({ pumpMs: 80 });

const sum = (keepers: Keeper[], step: 'request' | 'settle', outcome: 'landed' | 'lost' | 'failed') =>
  keepers.reduce((total, keeper) => total + (keeper.counters()[step]?.[outcome] ?? 0), 0);

describe('keepers racing for the same wagers', () => {
  it('two keepers on the same dozen wagers: each wager is requested and settled once, and both keepers show the same settlement', async () => {
    const a = await bed.keeper('race-a');
    const b = await bed.keeper('race-b');
    const crashes: string[] = [];
    for (const keeper of [a.keeper, b.keeper]) {
      keeper.events.on('step', (step) => {
        if (step.outcome === 'failed') crashes.push(`${step.step} ${step.wager}: ${step.error}`);
      });
    }

    const wagers: Address[] = [];
    for (let i = 0; i < WAGERS; i++) {
      const { wager } = await openWager(bed.rpc, bed.localnet, bed.parts.app, { paytable: i % 2 ? 'wheel' : 'dice', stake: 1_000_000n + BigInt(i) });
      wagers.push(wager);
      // Both are told about every wager (as an app posting to two public keepers would).
      await Promise.all([a.keeper.submitWager(wager), b.keeper.submitWager(wager)]);
    }

    await waitFor(
      () => (wagers.every((w) => a.keeper.records.get(w)?.state === 'settled' && b.keeper.records.get(w)?.state === 'settled') ? true : undefined),
      40_000,
      'both keepers to record every wager settled',
    );

    for (const wager of wagers) {
      const history = wagerHistory(bed.localnet, wager, bed.parts.program);
      const names = history.flatMap((h) => h.events.map((e) => e.name));
      expect(names).toEqual(['WagerOpened', 'WagerRandomnessRequested', 'WagerSettled']);
      const settle = history.find((h) => h.events.some((e) => e.name === 'WagerSettled'))!;
      const event = settle.events[0]!.data as { bucket: number; payout: bigint };
      const fromA = a.keeper.records.get(wager)!;
      const fromB = b.keeper.records.get(wager)!;
      const request = history.find((h) => h.events.some((e) => e.name === 'WagerRandomnessRequested'))!;
      for (const record of [fromA, fromB]) {
        expect(record).toMatchObject({ state: 'settled', settleSignature: settle.signature, bucket: event.bucket, payout: event.payout.toString(), payoutPending: false });
      }
      // Also the keeper that lost the request race shows the winner's request transaction.
      await waitFor(
        () => ([a, b].every((k) => k.keeper.records.get(wager)?.requestSignature === request.signature) ? true : undefined),
        10_000,
        'both records to show the request transaction',
      );
      // The settlement was sent by one of the two keepers.
      expect([a.key.address, b.key.address]).toContain(settle.feePayer);
    }

    // Every step landed once overall; the other keeper's attempts were counted as lost, not as failures.
    expect(sum([a.keeper, b.keeper], 'request', 'landed')).toBe(WAGERS);
    expect(sum([a.keeper, b.keeper], 'settle', 'landed')).toBe(WAGERS);
    expect(sum([a.keeper, b.keeper], 'request', 'lost') + sum([a.keeper, b.keeper], 'settle', 'lost')).toBeGreaterThan(0);
    expect(crashes).toEqual([]);
    expect((await a.keeper.health()).rpcError).toBeUndefined();
    expect((await b.keeper.health()).rpcError).toBeUndefined();
    expect((await a.keeper.health()).queue).toBe(0);
    expect((await b.keeper.health()).queue).toBe(0);
  });

  it('a keeper waiting to deliver a parked payout that someone else delivered first records the original settlement and the delivery', async () => {
    const opened = await openParkedPayoutWager(bed, 2_000_000n);

    const { keeper } = await bed.keeper('parked');
    await keeper.submitWager(opened.wager);
    const parked = await waitFor(() => {
      const r = keeper.records.get(opened.wager);
      return r?.state === 'settled' && r.attempts > 0 ? r : undefined;
    }, 20_000, 'the payout to be parked and a claim refused');
    expect(parked.payoutPending).toBe(true);

    // Another cranker delivers the payout while this keeper is backing off.
    await thawUsdc(bed, opened.beneficiary);
    const { value } = await bed.rpc.getAccountInfo(opened.wager, { encoding: 'base64', commitment: 'confirmed' }).send();
    const onChain = getWagerDecoder().decode(Buffer.from(value!.data[0], 'base64'));
    expect(onChain.status).toBe(WagerStatus.PayoutPending);
    const other = await generateKeyPairSigner();
    bed.localnet.chain.airdrop(other.address, SOL);
    const claimSignature = await sendInstructions(bed.rpc, other, [
      await getClaimPayoutForWager({ caller: other, wagerAddress: opened.wager, wager: onChain, programAddress: bed.parts.program }),
    ]);

    const resolved = await waitFor(() => {
      const r = keeper.records.get(opened.wager);
      return r && !r.payoutPending ? r : undefined;
    }, 10_000, 'the keeper to notice the delivery');
    expect(resolved).toMatchObject({
      state: 'settled',
      settleSignature: parked.settleSignature,
      bucket: 0,
      payout: ((2_000_000n * ALWAYS_PAYS_MULTIPLIER_BPS) / 10_000n).toString(),
      claimSignature,
    });
  });
});
