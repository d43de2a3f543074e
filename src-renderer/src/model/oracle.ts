/** Oracle stall levels and their words (tested in __tests__/oracle.test.ts). */
import { ORACLE_STALL_CRITICAL_SLOTS, ORACLE_STALL_WARNING_SLOTS, type StallLevel } from '@shared/oracle-stall';
import { T_SETTLE_SLOTS } from '@shared/wager-timing';
import type { GuardianView } from '@shared/contract/guardian';
import type { OracleLatencyView } from '@shared/contract/activity';
import type { OracleWaitView } from '@shared/contract/status';

export { oracleStallLevel, type StallLevel } from '@shared/oracle-stall';

/** What the banner needs to know of the guardian to say who pauses new wagers. */
export interface GuardianHint {
  /** New wagers are paused now (null: unknown). */
  paused: boolean | null;
  pausedByGuardian: boolean;
  /** The automatic guardian runs in this console's keeper. */
  automatic: boolean;
  pauseAfterSlots: number;
  /** This console holds the deployment's guardian key (the Oracle screen can pause). */
  holdsKey: boolean;
  /** The deployment's guardian address. */
  guardian: string | null;
}

export function guardianHint(view: GuardianView | undefined): GuardianHint | undefined {
  if (!view) return undefined;
  return {
    paused: view.paused,
    pausedByGuardian: view.pausedByGuardian,
    automatic: view.automatic.running,
    pauseAfterSlots: view.automatic.pauseAfterSlots,
    holdsKey: view.key !== null,
    guardian: view.guardian,
  };
}

/** Who pauses new wagers during a stall, and whether they are paused already. */
function guardianAdvice(level: Exclude<StallLevel, 'none'>, guardian: GuardianHint | undefined): string {
  if (guardian?.paused)
    return guardian.pausedByGuardian ? 'The guardian paused new wagers; it resumes them once the oracle fulfils again. ' : 'New wagers are paused. ';
  if (guardian?.automatic) return `The guardian pauses new wagers by itself once a request has waited ${guardian.pauseAfterSlots} slots. `;
  if (level !== 'critical') return '';
  if (guardian?.holdsKey) return 'Pause new wagers from the Oracle screen: this console holds the guardian key. ';
  if (guardian?.guardian) return `The deployment's guardian (${guardian.guardian}) should pause new wagers now: only that key can. `;
  return `At ${ORACLE_STALL_CRITICAL_SLOTS} slots the guardian should pause new wagers. `;
}

/** What the banner says: what it means for wagers in flight, who pauses new wagers, and what the operator can do. */
export function stallMessage(wait: OracleWaitView, level: Exclude<StallLevel, 'none'>, localnet: boolean, guardian?: GuardianHint): { title: string; detail: string } {
  const slots = wait.oldestWaitSlots ?? 0;
  const left = Math.max(0, T_SETTLE_SLOTS - slots);
  const title =
    level === 'critical'
      ? `Oracle stalled: a randomness request has waited ${slots} slots (critical from ${ORACLE_STALL_CRITICAL_SLOTS})`
      : `Oracle slow: a randomness request has waited ${slots} slots (warning past ${ORACLE_STALL_WARNING_SLOTS})`;
  const detail =
    `${wait.waiting} wager${wait.waiting === 1 ? '' : 's'} wait for randomness; the oldest expires in about ${left} slots (open + ${T_SETTLE_SLOTS}). ` +
    'An expired wager forfeits its stake to the pool; the keeper still earns the expire fee. ' +
    guardianAdvice(level, guardian) +
    (localnet ? 'On this localnet, resume the oracle from the Oracle screen.' : "Check the oracle's status with its operator (ORAO); the banner clears by itself when fulfilments resume.");
  return { title, detail };
}

/** Median and p95 of recent fulfilment latencies, in slots. */
export function latencySummary(history: readonly OracleLatencyView[]): { count: number; medianSlots: number | null; p95Slots: number | null } {
  if (history.length === 0) return { count: 0, medianSlots: null, p95Slots: null };
  const sorted = history.map((entry) => entry.slots).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { count: sorted.length, medianSlots: at(0.5), p95Slots: at(0.95) };
}

/** "retry in 4 min 05 s" until `retryAt`, then "now". */
export function countdown(retryAt: number, nowMs: number): string {
  const seconds = Math.ceil((retryAt - nowMs) / 1000);
  if (seconds <= 0) return 'now';
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `in ${minutes} min ${String(seconds % 60).padStart(2, '0')} s` : `in ${seconds} s`;
}
