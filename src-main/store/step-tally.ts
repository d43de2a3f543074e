/**
 * Per crank step (request, settle, expire, claim payout, strike, claims of deposits and withdrawals) over a
 * window: how many were tried, landed, lost to another keeper, skipped, failed (by reason), and the fees
 * earned minus the fees spent. Read from the step log and the earnings ledger the keeper already writes,
 * so the console's Overview can say which step costs or earns what.
 */
import type { StepTally } from '../../src-shared/contract/activity';
import type { Database } from './database';
import type { CrankOutcome, CrankStep } from '../../src-shared/crank-vocabulary';
import { firstWholeHour } from './step-log';

export type { StepTally };

/** The most reasons listed per step; the rest are counted under "other". */
const MAX_REASONS = 4;

/** A reason short enough to group by: a program code stays whole, a long RPC message is cut at its first clause. */
export function failureReason(error: string | null): string {
  if (!error) return 'unknown';
  const firstClause = error.split(/[:;(\n]/)[0]!.trim();
  return (firstClause || error).slice(0, 80);
}

function topReasons(reasons: Map<string, number>): { reason: string; count: number }[] {
  const sorted = [...reasons].sort((a, b) => b[1] - a[1]);
  const top = sorted.slice(0, MAX_REASONS).map(([reason, count]) => ({ reason, count }));
  const other = sorted.slice(MAX_REASONS).reduce((sum, [, count]) => sum + count, 0);
  if (other > 0) top.push({ reason: 'other', count: other });
  return top;
}

export function createStepTally(db: Database): { since(sinceMs: number): StepTally[] } {
  // Counts and fees: whole hours from the hourly rollups, the rows for the part hour before the first one
  // (migrations 5 and 6). Reasons: the failed and skipped rows only, through their partial index.
  const steps = db.prepare(
    `SELECT step, outcome, SUM(n) AS n FROM (
       SELECT step, outcome, COUNT(*) AS n FROM crank_steps WHERE at_ms >= ? AND at_ms < ? GROUP BY step, outcome
       UNION ALL SELECT step, outcome, SUM(n) AS n FROM crank_steps_hourly WHERE hour_ms >= ? GROUP BY step, outcome
     ) GROUP BY step, outcome`,
  );
  const reasons = db.prepare(
    "SELECT step, outcome, error, COUNT(*) AS n FROM crank_steps WHERE at_ms >= ? AND outcome IN ('failed', 'skipped') GROUP BY step, outcome, error",
  );
  const fees = db.prepare(
    `SELECT step, SUM(received) AS received, SUM(fee) AS fee FROM (
       SELECT step, SUM(received_lamports) AS received, SUM(fee_lamports) AS fee FROM earnings WHERE at >= ? AND at < ? GROUP BY step
       UNION ALL SELECT step, SUM(received_lamports) AS received, SUM(fee_lamports) AS fee FROM earnings_hourly WHERE hour_ms >= ? GROUP BY step
     ) GROUP BY step`,
  );
  return {
    since(sinceMs) {
      const byStep = new Map<
        CrankStep,
        StepTally & { reasons: Map<string, number>; skipReasons: Map<string, number> }
      >();
      const entry = (step: CrankStep) => {
        let tally = byStep.get(step);
        if (!tally) {
          tally = {
            step,
            tried: 0,
            landed: 0,
            lost: 0,
            skipped: 0,
            failed: 0,
            failures: [],
            receivedLamports: 0,
            feeLamports: 0,
            skips: [],
            reasons: new Map(),
            skipReasons: new Map(),
          };
          byStep.set(step, tally);
        }
        return tally;
      };
      const hour = firstWholeHour(sinceMs);
      for (const row of steps.all(sinceMs, hour, hour) as {
        step: CrankStep;
        outcome: CrankOutcome;
        n: number;
      }[]) {
        const tally = entry(row.step);
        const count = Number(row.n);
        tally.tried += count;
        tally[row.outcome] += count;
      }
      for (const row of reasons.all(sinceMs) as {
        step: CrankStep;
        outcome: 'failed' | 'skipped';
        error: string | null;
        n: number;
      }[]) {
        const tally = entry(row.step);
        const byReason = row.outcome === 'failed' ? tally.reasons : tally.skipReasons;
        const reason = failureReason(row.error);
        byReason.set(reason, (byReason.get(reason) ?? 0) + Number(row.n));
      }
      for (const row of fees.all(
        new Date(sinceMs).toISOString(),
        new Date(firstWholeHour(sinceMs)).toISOString(),
        firstWholeHour(sinceMs),
      ) as {
        step: CrankStep;
        received: number;
        fee: number;
      }[]) {
        const tally = entry(row.step);
        tally.receivedLamports = Number(row.received);
        tally.feeLamports = Number(row.fee);
      }
      return [...byStep.values()].map(({ reasons, skipReasons, ...tally }) => ({
        ...tally,
        failures: topReasons(reasons),
        skips: topReasons(skipReasons),
      }));
    },
  };
}
