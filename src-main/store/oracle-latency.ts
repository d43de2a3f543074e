/** How long the oracle took for each request, in slots: the console's oracle-stall view reads this. */
import type { Database } from './database';

export interface OracleLatencyEntry {
  wager: string;
  requestedSlot: number;
  fulfilledSlot: number;
  at: string;
}

export interface OracleLatencyLog {
  record(entry: OracleLatencyEntry): void;
  /** The most recent `limit` entries, newest first. */
  history(limit: number): (OracleLatencyEntry & { slots: number })[];
}

export function createOracleLatencyLog(db: Database): OracleLatencyLog {
  const insert = db.prepare('INSERT OR REPLACE INTO oracle_latency (wager, requested_slot, fulfilled_slot, at) VALUES (?, ?, ?, ?)');
  const recent = db.prepare(
    'SELECT wager, requested_slot AS requestedSlot, fulfilled_slot AS fulfilledSlot, at FROM oracle_latency ORDER BY at DESC, fulfilled_slot DESC LIMIT ?',
  );
  return {
    record: (entry) => {
      insert.run(entry.wager, entry.requestedSlot, entry.fulfilledSlot, entry.at);
    },
    history: (limit) =>
      (recent.all(limit) as unknown as OracleLatencyEntry[]).map((entry) => ({ ...entry, slots: entry.fulfilledSlot - entry.requestedSlot })),
  };
}
