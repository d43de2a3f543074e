/** What each crank earned and what its transaction cost, for the operator's earnings view. */
import type { Database } from './database';
import type { CrankStep } from '../../src-shared/crank-vocabulary';
import { HOUR_MS } from '../../src-shared/units';

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
  totals(
    sinceMs: number,
    bucketMs: number,
  ): { bucketStart: number; receivedLamports: number; feeLamports: number; cranks: number }[];
  /** Totals of every crank booked (since `sinceMs` when given). */
  summary(sinceMs?: number): { receivedLamports: number; feeLamports: number; cranks: number };
}

type Sums = { receivedLamports: number; feeLamports: number; cranks: number };
type BucketSums = Sums & { bucketStart: number };

/**
 * Reads go to the hourly rollup (earnings_hourly, kept by a trigger as each crank is booked) for whole hours,
 * and to the rows only for the part of an hour before the first whole one: a window of months reads a few
 * thousand rollup rows, never millions of bookings, and stays right once old rows are pruned.
 */
export function createEarningsLedger(db: Database): EarningsLedger {
  const insert = db.prepare(
    'INSERT INTO earnings (at, wager, step, signature, received_lamports, fee_lamports) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const rowSums = db.prepare(
    'SELECT COALESCE(SUM(received_lamports), 0) AS r, COALESCE(SUM(fee_lamports), 0) AS f, COUNT(*) AS n FROM earnings WHERE at >= ? AND at < ?',
  );
  const hourSums = db.prepare(
    'SELECT COALESCE(SUM(received_lamports), 0) AS r, COALESCE(SUM(fee_lamports), 0) AS f, COALESCE(SUM(cranks), 0) AS n FROM earnings_hourly WHERE hour_ms >= ?',
  );
  // BigInt binds as INTEGER (a JS number binds as REAL and the division would not truncate).
  const rowBuckets = db.prepare(
    `SELECT (CAST(strftime('%s', at) AS INTEGER) * 1000 / ?) * ? AS bucketStart,
            SUM(received_lamports) AS receivedLamports, SUM(fee_lamports) AS feeLamports, COUNT(*) AS cranks
       FROM earnings WHERE at >= ? AND at < ? GROUP BY bucketStart ORDER BY bucketStart`,
  );
  const hourBuckets = db.prepare(
    `SELECT (hour_ms / ?) * ? AS bucketStart, SUM(received_lamports) AS receivedLamports, SUM(fee_lamports) AS feeLamports, SUM(cranks) AS cranks
       FROM earnings_hourly WHERE hour_ms >= ? GROUP BY bucketStart ORDER BY bucketStart`,
  );
  const iso = (ms: number) => new Date(ms).toISOString();
  /** The rows' end for a window from `sinceMs`: its first whole hour (the rollup's part starts there). */
  const firstWholeHour = (sinceMs: number) => Math.ceil(sinceMs / HOUR_MS) * HOUR_MS;
  const FAR_FUTURE = '9999-12-31T23:59:59.999Z';

  return {
    record: (entry) => {
      insert.run(
        entry.at,
        entry.wager,
        entry.step,
        entry.signature,
        entry.receivedLamports,
        entry.feeLamports,
      );
    },
    totals: (sinceMs, bucketMs) => {
      const big = BigInt(bucketMs);
      // A bucket that is not whole hours cannot be made of hourly sums: rows only.
      if (bucketMs % HOUR_MS !== 0)
        return (rowBuckets.all(big, big, iso(sinceMs), FAR_FUTURE) as unknown as BucketSums[]).map(numbers);
      const hour = firstWholeHour(sinceMs);
      const merged = new Map<number, BucketSums>();
      for (const row of [
        ...(rowBuckets.all(big, big, iso(sinceMs), iso(hour)) as unknown as BucketSums[]),
        ...(hourBuckets.all(big, big, hour) as unknown as BucketSums[]),
      ]) {
        const point = numbers(row);
        const seen = merged.get(point.bucketStart);
        merged.set(point.bucketStart, seen ? { ...seen, ...add(seen, point) } : point);
      }
      return [...merged.values()].sort((a, b) => a.bucketStart - b.bucketStart);
    },
    summary: (sinceMs = 0) => {
      const hour = firstWholeHour(sinceMs);
      const rows = rowSums.get(iso(sinceMs), iso(hour)) as { r: number; f: number; n: number };
      const hours = hourSums.get(hour) as { r: number; f: number; n: number };
      return add(
        { receivedLamports: Number(rows.r), feeLamports: Number(rows.f), cranks: Number(rows.n) },
        { receivedLamports: Number(hours.r), feeLamports: Number(hours.f), cranks: Number(hours.n) },
      );
    },
  };
}

const numbers = (row: BucketSums): BucketSums => ({
  bucketStart: Number(row.bucketStart),
  receivedLamports: Number(row.receivedLamports),
  feeLamports: Number(row.feeLamports),
  cranks: Number(row.cranks),
});

const add = (a: Sums, b: Sums): Sums => ({
  receivedLamports: a.receivedLamports + b.receivedLamports,
  feeLamports: a.feeLamports + b.feeLamports,
  cranks: a.cranks + b.cranks,
});
