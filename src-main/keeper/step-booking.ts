/**
 * The keeper books its own steps: every crank step it emits (landed, lost, skipped, failed) is written to
 * its step log (store/step-log.ts) as it happens, whoever runs the keeper (the console, a bench, a test).
 * The console's relay only forwards the events; it writes nothing.
 */
import type { EventEmitter } from 'node:events';
import type { StepLog } from '../store/step-log';
import type { KeeperEvents } from './keeper-events';

/**
 * Books each `step` event of `events` in `stepLog`, at `now()`. Wired once, when the keeper is created,
 * before any other listener, so a row exists by the time anyone hears of the step.
 */
export function bookSteps(events: EventEmitter<KeeperEvents>, stepLog: StepLog, now: () => number): void {
  events.on('step', (step) =>
    stepLog.record({ atMs: now(), wager: step.wager, step: step.step, outcome: step.outcome, signature: step.signature ?? null, error: step.error ?? null }),
  );
}
