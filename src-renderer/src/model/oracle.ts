/** Oracle stall levels and their words (tested in __tests__/oracle.test.ts). */
import {
  ORACLE_STALL_CRITICAL_SLOTS,
  ORACLE_STALL_WARNING_SLOTS,
  T_SETTLE_SLOTS,
  type OracleLatencyView,
  type OracleWaitView,
  type StallLevel,
} from '../../../src-main/operator/operator-interface';

export { oracleStallLevel, type StallLevel } from '../../../src-main/operator/operator-interface';

/** What the banner says: what it means for wagers in flight and what the operator can do. */
export function stallMessage(wait: OracleWaitView, level: Exclude<StallLevel, 'none'>, localnet: boolean): { title: string; detail: string } {
  const slots = wait.oldestWaitSlots ?? 0;
  const left = Math.max(0, T_SETTLE_SLOTS - slots);
  const title =
    level === 'critical'
      ? `Oracle stalled: a randomness request has waited ${slots} slots (critical from ${ORACLE_STALL_CRITICAL_SLOTS})`
      : `Oracle slow: a randomness request has waited ${slots} slots (warning past ${ORACLE_STALL_WARNING_SLOTS})`;
  const detail =
    `${wait.waiting} wager${wait.waiting === 1 ? '' : 's'} wait for randomness; the oldest expires in about ${left} slots (open + ${T_SETTLE_SLOTS}). ` +
    'An expired wager forfeits its stake to the pool; the keeper still earns the expire fee. ' +
    (level === 'critical' ? 'At 60 slots the guardian should pause new wagers. ' : '') +
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
