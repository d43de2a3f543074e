/**
 * Relays the running keeper's events: to the console (records and steps in batches, since 10 000 wagers
 * updating must not mean 10 000 messages) and to the service's own emitters, which outlive cluster
 * switches (metrics and tests listen there). It writes nothing: the keeper books its own steps
 * (keeper/step-booking.ts).
 */
import type { EventEmitter } from 'node:events';
import type { KeeperCore } from './keeper-core';
import type { GuardianAction, GuardianEvents } from '../keeper/guardian';
import type { KeeperEvents } from '../keeper/keeper-events';
import type { WagerRecord } from '../store/wager-records';
import type { OperatorEvent } from '../../src-shared/contract/events';
import type { QueueRow, StepView } from '../../src-shared/contract/activity';
import type { QueueRows } from './queue-rows';

const RECORD_BATCH_MS = 150;

export interface KeeperEventRelay {
  /** Starts relaying a core's events; answers how to stop. */
  attach(core: KeeperCore): () => void;
  /** Drops a batch not sent yet (the service stops). */
  stop(): void;
}

export function createKeeperEventRelay(relay: {
  emit(event: OperatorEvent): void;
  keeperEvents: EventEmitter<KeeperEvents>;
  guardianEvents: EventEmitter<GuardianEvents>;
  rows: QueueRows;
}): KeeperEventRelay {
  const { emit, keeperEvents, guardianEvents, rows } = relay;
  const pendingRecords = new Map<string, QueueRow>();
  const pendingSteps: StepView[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  const scheduleFlush = () => {
    flushTimer ??= setTimeout(() => {
      flushTimer = undefined;
      if (pendingRecords.size) emit({ type: 'records', records: [...pendingRecords.values()] });
      pendingRecords.clear();
      if (pendingSteps.length) emit({ type: 'steps', steps: pendingSteps.splice(0) });
    }, RECORD_BATCH_MS);
    flushTimer.unref?.();
  };

  return {
    attach(core) {
      const { events } = core.keeper;
      const onRecord = (record: WagerRecord) => {
        pendingRecords.set(record.address, rows.toRow(record));
        scheduleFlush();
        keeperEvents.emit('record', record);
      };
      const onStep: (...args: KeeperEvents['step']) => void = (step) => {
        const view: StepView = { at: Date.now(), wager: step.wager, step: step.step, outcome: step.outcome, signature: step.signature ?? null, error: step.error ?? null };
        pendingSteps.push(view);
        scheduleFlush();
        keeperEvents.emit('step', step);
      };
      const onEarnings: (...args: KeeperEvents['earnings']) => void = (entry) => {
        emit({ type: 'earnings' });
        keeperEvents.emit('earnings', entry);
      };
      const onLatency: (...args: KeeperEvents['latency']) => void = (latency) => {
        emit({ type: 'latency', latency: [{ ...latency, at: new Date().toISOString() }] });
        keeperEvents.emit('latency', latency);
      };
      const onHealth: (...args: KeeperEvents['health']) => void = (record) => keeperEvents.emit('health', record);
      const onGuardianAction = (action: GuardianAction) => {
        emit({ type: 'guardian' });
        guardianEvents.emit('action', action);
      };
      core.guardian?.events.on('action', onGuardianAction);
      events.on('record', onRecord);
      events.on('step', onStep);
      events.on('earnings', onEarnings);
      events.on('latency', onLatency);
      events.on('health', onHealth);
      return () => {
        events.off('record', onRecord);
        events.off('step', onStep);
        events.off('earnings', onEarnings);
        events.off('latency', onLatency);
        events.off('health', onHealth);
        core.guardian?.events.off('action', onGuardianAction);
      };
    },
    stop: () => clearTimeout(flushTimer),
  };
}
