/**
 * Every crank the keeper tried and how it went (landed, lost to another keeper, skipped, failed), for the
 * console's "cranks today by outcome" and its list of recent steps. The earnings ledger books only the
 * landed ones (with their fees); this log keeps the others too.
 */
import type { Database } from './database';
import { HOUR_MS } from '../../src-shared/units';
import { CRANK_OUTCOMES, type CrankOutcome, type CrankStep } from '../../src-shared/crank-vocabulary';

export interface StepLogEntry {
  atMs: number;
  wager: string | null;
  step: CrankStep;
  outcome: CrankOutcome;
  signature: string | null;
  error: string | null;
}

export interface StepLog {
  record(entry: StepLogEntry): void;
  /** Steps since `sinceMs`, counted by outcome. */
  countsSince(sinceMs: number): Record<CrankOutcome, number>;
  /** The most recent `limit` steps, newest first. */
  recent(limit: number): StepLogEntry[];
}

/** The first whole UTC hour at or after `ms`: where the hourly counts take over from the rows. */
export const firstWholeHour = (ms: number): number => Math.ceil(ms / HOUR_MS) * HOUR_MS;

export function createStepLog(db: Database): StepLog {
  const insert = db.prepare(
    'INSERT INTO crank_steps (at_ms, wager, step, outcome, signature, error) VALUES (?, ?, ?, ?, ?, ?)',
  );
  // Whole hours from the hourly counts (migration 6), the rows only for the part hour before the first one.
  const counts = db.prepare(
    `SELECT outcome, SUM(n) AS n FROM (
       SELECT outcome, COUNT(*) AS n FROM crank_steps WHERE at_ms >= ? AND at_ms < ? GROUP BY outcome
       UNION ALL SELECT outcome, SUM(n) AS n FROM crank_steps_hourly WHERE hour_ms >= ? GROUP BY outcome
     ) GROUP BY outcome`,
  );
  const recent = db.prepare(
    'SELECT at_ms AS atMs, wager, step, outcome, signature, error FROM crank_steps ORDER BY at_ms DESC, id DESC LIMIT ?',
  );
  return {
    record: (entry) => {
      insert.run(entry.atMs, entry.wager, entry.step, entry.outcome, entry.signature, entry.error);
    },
    countsSince: (sinceMs) => {
      const result = Object.fromEntries(CRANK_OUTCOMES.map((outcome) => [outcome, 0])) as Record<CrankOutcome, number>;
      const hour = firstWholeHour(sinceMs);
      for (const row of counts.all(sinceMs, hour, hour) as { outcome: CrankOutcome; n: number }[])
        result[row.outcome] = Number(row.n);
      return result;
    },
    recent: (limit) => recent.all(limit) as unknown as StepLogEntry[],
  };
}
