/**
 * `--keep-history 90d`: prunes finished history older than the window (finished wagers with no parked
 * payout, earnings bookings, crank steps, oracle latencies). The hourly earnings rollup is never pruned
 * (no trigger lowers it on a delete), so the all-time earnings and the per-day report stay right; the
 * wagers' state counts follow the wagers kept. Wagers in progress or with a parked payout are kept
 * whatever their age.
 *
 * Deletes go in small batches, each its own short transaction, with the event loop let go between them,
 * so pruning months of a first run never stalls the crank loop.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from './database';
import { DAY_MS, HOUR_MS } from '../../src-shared/units';

/** Parses `90d`, `12h` or a bare number of days; throws a sentence for anything else (a usage error). */
export function parseKeepHistory(text: string): number {
  const match = /^(\d+)(d|h)?$/.exec(text.trim());
  const amount = match ? Number(match[1]) : Number.NaN;
  if (!match || !(amount >= 1))
    throw new Error(`--keep-history ${text}: give a duration such as 90d (days) or 36h (hours), at least 1`);
  return amount * (match[2] === 'h' ? HOUR_MS : DAY_MS);
}

export interface PrunedHistory {
  wagers: number;
  earnings: number;
  crankSteps: number;
  oracleLatency: number;
}

/** Rows deleted per transaction: a few milliseconds each. */
export const PRUNE_BATCH = 2_000;

/** Deletes one batch of each kind older than `cutoffMs`; answers how many of each went. */
export function pruneHistoryBatch(db: Database, cutoffMs: number, batch = PRUNE_BATCH): PrunedHistory {
  const cutoff = new Date(cutoffMs).toISOString();
  const run = (sql: string, ...values: (string | number)[]) => Number(db.prepare(sql).run(...values).changes);
  return {
    wagers: run(
      `DELETE FROM wagers WHERE rowid IN (SELECT rowid FROM wagers
         WHERE state IN ('settled', 'expired', 'unknown') AND payout_pending = 0 AND updated_at < ? LIMIT ?)`,
      cutoff,
      batch,
    ),
    earnings: run(
      'DELETE FROM earnings WHERE id IN (SELECT id FROM earnings WHERE at < ? LIMIT ?)',
      cutoff,
      batch,
    ),
    crankSteps: run(
      'DELETE FROM crank_steps WHERE id IN (SELECT id FROM crank_steps WHERE at_ms < ? LIMIT ?)',
      cutoffMs,
      batch,
    ),
    oracleLatency: run(
      'DELETE FROM oracle_latency WHERE rowid IN (SELECT rowid FROM oracle_latency WHERE at < ? LIMIT ?)',
      cutoff,
      batch,
    ),
  };
}

/** Prunes everything older than `keepMs` before `nowMs`, batch after batch, yielding to the loop between batches. */
export async function pruneHistory(db: Database, keepMs: number, nowMs = Date.now()): Promise<PrunedHistory> {
  const total: PrunedHistory = { wagers: 0, earnings: 0, crankSteps: 0, oracleLatency: 0 };
  for (;;) {
    const pruned = pruneHistoryBatch(db, nowMs - keepMs);
    for (const key of Object.keys(total) as (keyof PrunedHistory)[]) total[key] += pruned[key];
    if (Object.values(pruned).every((count) => count < PRUNE_BATCH)) return total;
    await nextTurn();
  }
}

/** The oldest time the rows still cover (ms), or null when none is kept: what a per-crank report can show. */
export function oldestBookingMs(db: Database): number | null {
  const row = db.prepare('SELECT MIN(at) AS at FROM earnings').get() as { at: string | null };
  return row.at === null ? null : Date.parse(row.at);
}

/**
 * Prunes at start and then every `everyMs` (an hour by default) while the keeper runs; `onPruned` hears
 * what each run removed. Answers how to stop it.
 */
export function startHistoryRetention(
  db: Database,
  keepMs: number,
  options: {
    everyMs?: number;
    onPruned?: (pruned: PrunedHistory) => void;
    onError?: (error: Error) => void;
  } = {},
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const runOnce = async () => {
    if (stopped) return;
    try {
      const pruned = await pruneHistory(db, keepMs);
      if (!stopped) options.onPruned?.(pruned);
    } catch (error) {
      // A closed database (the keeper stopped mid-prune) is not worth a word; anything else is said.
      if (!stopped) options.onError?.(error as Error);
    }
    if (!stopped) timer = setTimeout(() => void runOnce(), options.everyMs ?? 3_600_000).unref();
  };
  void runOnce();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
