/** Earnings sent to the operator's wallet (the `sweeps` table, migration 4): each sweep booked, the recent ones, sums. */
import type { Database } from './database';

export type SweepTrigger = 'manual' | 'automatic' | 'command';

export interface SweepEntry {
  atMs: number;
  destination: string;
  sentLamports: bigint;
  feeLamports: bigint;
  /** What the keeper kept (its balance after the sweep). */
  keptLamports: bigint;
  signature: string;
  trigger: SweepTrigger;
}

export interface BookedSweep extends SweepEntry {
  id: number;
}

export interface SweepLedger {
  record(entry: SweepEntry): BookedSweep;
  /** The last `limit` sweeps, newest first. */
  recent(limit: number): BookedSweep[];
  /** Lamports sent (and fees paid) by the sweeps since `sinceMs`. */
  sumSince(sinceMs: number): { sentLamports: bigint; feeLamports: bigint; sweeps: number };
  /** When the last sweep of `trigger` was booked (null: none). */
  lastAtMs(trigger: SweepTrigger): number | null;
}

interface SweepRow {
  id: number | bigint;
  at_ms: number | bigint;
  destination: string;
  sent_lamports: number | bigint;
  fee_lamports: number | bigint;
  kept_lamports: number | bigint;
  signature: string;
  trigger: SweepTrigger;
}

const fromRow = (row: SweepRow): BookedSweep => ({
  id: Number(row.id),
  atMs: Number(row.at_ms),
  destination: row.destination,
  sentLamports: BigInt(row.sent_lamports),
  feeLamports: BigInt(row.fee_lamports),
  keptLamports: BigInt(row.kept_lamports),
  signature: row.signature,
  trigger: row.trigger,
});

export function createSweepLedger(db: Database): SweepLedger {
  const insert = db.prepare(
    'INSERT INTO sweeps (at_ms, destination, sent_lamports, fee_lamports, kept_lamports, signature, trigger) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
  );
  const recent = db.prepare('SELECT * FROM sweeps ORDER BY at_ms DESC, id DESC LIMIT ?');
  // Read as BigInt: a sum of lamports may pass 2^53.
  const sum = db.prepare(
    'SELECT COALESCE(SUM(sent_lamports), 0) AS sent, COALESCE(SUM(fee_lamports), 0) AS fee, COUNT(*) AS n FROM sweeps WHERE at_ms >= ?',
  );
  sum.setReadBigInts(true);
  const last = db.prepare('SELECT MAX(at_ms) AS at FROM sweeps WHERE trigger = ?');
  return {
    record(entry) {
      const row = insert.get(
        entry.atMs,
        entry.destination,
        entry.sentLamports,
        entry.feeLamports,
        entry.keptLamports,
        entry.signature,
        entry.trigger,
      ) as { id: number };
      return { ...entry, id: Number(row.id) };
    },
    recent: (limit) => (recent.all(limit) as unknown as SweepRow[]).map(fromRow),
    sumSince(sinceMs) {
      const row = sum.get(sinceMs) as { sent: bigint; fee: bigint; n: bigint };
      return { sentLamports: row.sent, feeLamports: row.fee, sweeps: Number(row.n) };
    },
    lastAtMs(trigger) {
      const row = last.get(trigger) as { at: number | null };
      return row.at === null ? null : Number(row.at);
    },
  };
}
