/**
 * The keeper books its own steps (keeper/step-booking.ts): a keeper started without the operator service
 * (as benches and tests start it) writes every step it emits to its step log, once, with the keeper's
 * clock; the console only reads that log (recentSteps, cranks today, failed attempts).
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createStepLog } from '../../store/step-log';
import type { KeeperEvents, StepEvent } from '../keeper-events';
import { bookSteps } from '../step-booking';
import { freshDatabase, keeperTestbed, openWager, waitFor } from './keeper-test-helpers';

const bed = keeperTestbed({ prefix: 'keeper-step-booking-' });

describe('the keeper books its own steps', () => {
  it('writes each step event as one row, at the clock it is given, a missing signature or error as null', () => {
    const db = freshDatabase(bed.dir, 'booking-unit.db');
    try {
      const events = new EventEmitter<KeeperEvents>();
      const stepLog = createStepLog(db);
      let now = 1_000;
      bookSteps(events, stepLog, () => now);
      events.emit('step', { wager: 'W1', step: 'request', outcome: 'landed', signature: 'sig-1' });
      now = 2_000;
      events.emit('step', { wager: null, step: 'strike_epoch', outcome: 'failed', error: 'blockhash expired' });
      expect(stepLog.recent(10)).toEqual([
        { atMs: 2_000, wager: null, step: 'strike_epoch', outcome: 'failed', signature: null, error: 'blockhash expired' },
        { atMs: 1_000, wager: 'W1', step: 'request', outcome: 'landed', signature: 'sig-1', error: null },
      ]);
      expect(stepLog.countsSince(0)).toEqual({ landed: 1, lost: 0, skipped: 0, failed: 1 });
    } finally {
      db.close();
    }
  });

  it('a keeper started without the operator service logs every step it takes, each once', async () => {
    const steps: StepEvent[] = [];
    const { keeper } = await bed.keeper('no-service', { beforeStart: (started) => started.events.on('step', (step) => steps.push(step)) });
    const { wager } = await openWager(bed.rpc, bed.localnet, bed.parts.app);
    await keeper.submitWager(wager);
    await waitFor(() => (keeper.records.get(wager)?.state === 'settled' ? true : undefined), 90_000, 'the wager to settle');

    const booked = keeper.stepLog.recent(1_000).filter((row) => row.wager === wager);
    const emitted = steps.filter((step) => step.wager === wager);
    // The request and the settlement landed, with the signatures the keeper reported.
    expect(emitted.filter((step) => step.outcome === 'landed').map((step) => step.step)).toEqual(['request', 'settle']);
    // One row per event (none booked twice, none left out), newest first.
    expect(booked.map(({ step, outcome, signature, error }) => ({ step, outcome, signature, error }))).toEqual(
      emitted.reverse().map((step) => ({ step: step.step, outcome: step.outcome, signature: step.signature ?? null, error: step.error ?? null })),
    );
    expect(keeper.stepLog.countsSince(0).landed).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
