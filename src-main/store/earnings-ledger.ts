/** What each crank earned and what its transaction cost, for the operator's earnings view. */
import type { Database } from './database';

export type CrankStep = 'request' | 'settle' | 'expire' | 'claim_payout' | 'strike_epoch' | 'claim_deposit' | 'claim_withdraw';

export interface EarningsEntry {
  at: string;
  wager: string | null;
  step: CrankStep;
  signature: string | null;
  receivedLamports: number;
  feeLamports: number;
}

export interface EarningsLedger {
  record(entry: EarningsEntry): void;
  /** Totals per bucket of `bucketMs` since `sinceMs` (for charts). */
  totals(sinceMs: number, bucketMs: number): { bucketStart: number; receivedLamports: number; feeLamports: number; cranks: number }[];
  /** Totals of every crank booked (since `sinceMs` when given). */
  summary(sinceMs?: number): { receivedLamports: number; feeLamports: number; cranks: number };
}

export function createEarningsLedger(db: Database): EarningsLedger {
  const insert = db.prepare(
    'INSERT INTO earnings (at, wager, step, signature, received_lamports, fee_lamports) VALUES (?, ?, ?, ?, ?, ?)',
  );
  return {
    record: (entry) => {
      insert.run(entry.at, entry.wager, entry.step, entry.signature, entry.receivedLamports, entry.feeLamports);
    },
    totals: (sinceMs, bucketMs) =>
      (db
        .prepare(
          `SELECT (CAST(strftime('%s', at) AS INTEGER) * 1000 / ?) * ? AS bucketStart,
                  SUM(received_lamports) AS receivedLamports, SUM(fee_lamports) AS feeLamports, COUNT(*) AS cranks
             FROM earnings WHERE at >= ? GROUP BY bucketStart ORDER BY bucketStart`,
        )
        // BigInt binds as INTEGER (a JS number binds as REAL and the division would not truncate).
        .all(BigInt(bucketMs), BigInt(bucketMs), new Date(sinceMs).toISOString()) as unknown as {
        bucketStart: number;
        receivedLamports: number;
        feeLamports: number;
        cranks: number;
      }[]),
    summary: (sinceMs = 0) => {
      const row = db
        .prepare('SELECT COALESCE(SUM(received_lamports), 0) AS r, COALESCE(SUM(fee_lamports), 0) AS f, COUNT(*) AS n FROM earnings WHERE at >= ?')
        .get(new Date(sinceMs).toISOString()) as { r: number; f: number; n: number };
      return { receivedLamports: row.r, feeLamports: row.f, cranks: row.n };
    },
  };
}
