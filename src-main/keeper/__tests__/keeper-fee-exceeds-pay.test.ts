/**
 * A keeper never pays more for a crank than the crank pays it (issue 19). With a priority fee so high that
 * a request (50 000 lamports by rule) would cost more than that, the request is not sent: the keeper says
 * why once (a warning, a `skipped` step event with reason `fee exceeds pay`, the wager's lastError, the
 * counters), pays nothing, and sends it only once the wager is urgent, when the priority fee is capped
 * within the pay. Every crank it booked cost less than it paid.
 */
import { generateKeyPairSigner } from '@solana/kit';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { LAMPORTS_PER_SIGNATURE, priorityFeeLamports } from '../../chain/fees';
import type { EarningsEntry } from '../../store/earnings-ledger';
import { createKeeper } from '../keeper';
import type { StepEvent } from '../keeper-events';
import { FEE_EXCEEDS_PAY, UNIT_LIMITS } from '../send-path';
import { freshDatabase, keeperTestbed, openWager, waitFor } from './keeper-test-helpers';

const bed = keeperTestbed({ prefix: 'keeper-fee-pay-' });

/** micro-lamports per CU: the request's fixed limit makes its fee 5 000 + 60 000 = 65 000 lamports > 50 000. */
const PRIORITY = 1_000_000n;
const REQUEST_PAY = 50_000n;

describe('a crank whose fee exceeds its pay', () => {
  it('is not sent, is reported once with its reason, and goes out capped once the wager is urgent', async () => {
    expect(LAMPORTS_PER_SIGNATURE + priorityFeeLamports(PRIORITY, BigInt(UNIT_LIMITS.request))).toBeGreaterThan(REQUEST_PAY);
    const key = await generateKeyPairSigner();
    bed.localnet.chain.airdrop(key.address, 10_000_000_000n);
    const db = freshDatabase(bed.dir, 'fee-pay.db');
    const logs: { level: number; msg: string; wager?: string; step?: string; feeLamports?: string; payLamports?: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as (typeof logs)[number]) });
    const keeper = createKeeper({ connection: bed.parts.connection, signer: key, db, programAddress: bed.parts.program, priorityFeeMicroLamports: PRIORITY, logger, sweepIntervalMs: 60_000 });
    const steps: StepEvent[] = [];
    const booked: EarningsEntry[] = [];
    keeper.events.on('step', (event) => steps.push(event));
    keeper.events.on('earnings', (entry) => booked.push(entry));
    try {
      await keeper.start();
      const { wager } = await openWager(bed.rpc, bed.localnet, bed.parts.app);
      await keeper.submitWager(wager);
      const openSlot = BigInt(keeper.records.get(wager)!.openSlot!);

      // Past open + 2 (the request is due) and several passes later: still queued, and why.
      await waitFor(async () => ((await bed.rpc.getSlot({ commitment: 'confirmed' }).send()) > openSlot + 20n ? true : undefined), 60_000, 'twenty slots after the open');
      await keeper.tick();
      expect(keeper.records.get(wager)).toMatchObject({ state: 'queued', lastError: expect.stringContaining(`request: ${FEE_EXCEEDS_PAY}`) });
      const skipped = steps.filter((s) => s.wager === wager && s.outcome === 'skipped');
      expect(skipped).toEqual([{ wager, step: 'request', outcome: 'skipped', error: FEE_EXCEEDS_PAY }]);
      const warnings = logs.filter((l) => l.level === 40 && l.wager === wager && l.msg.includes(FEE_EXCEEDS_PAY));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ step: 'request', feeLamports: '65000', payLamports: '50000' });
      expect(keeper.counters().request.skipped).toBeGreaterThanOrEqual(1);
      expect(booked.filter((e) => e.wager === wager)).toEqual([]);
      // Nothing was sent for it: its only transaction is the open.
      expect(await bed.rpc.getSignaturesForAddress(wager, { commitment: 'confirmed' }).send()).toHaveLength(1);

      // Urgent (within 50 slots of expiry): sent with the priority fee capped at half the pay; then settled.
      await waitFor(() => (keeper.records.get(wager)?.state === 'settled' ? true : undefined), 90_000, 'the wager to be requested once urgent, then settled');
      const request = booked.find((e) => e.wager === wager && e.step === 'request')!;
      const settle = booked.find((e) => e.wager === wager && e.step === 'settle')!;
      expect(request.feeLamports).toBeLessThanOrEqual(request.receivedLamports);
      expect(settle.feeLamports).toBeLessThanOrEqual(settle.receivedLamports);
      expect(steps.filter((s) => s.wager === wager && s.outcome === 'skipped')).toHaveLength(1);
      expect(keeper.records.get(wager)!.lastError).toBeNull();
    } finally {
      await keeper.stop();
      db.close();
    }
  }, 180_000);
});
