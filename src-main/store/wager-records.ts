/**
 * The keeper's record of each wager (spec 3.2) in SQLite. Every change is one statement or one
 * transaction, so a record is never half-written, and a restarted keeper resumes from what is here.
 */
import type { Database } from './database';

export const KEEPER_STATES = ['queued', 'requested', 'fulfilled', 'settled', 'expired', 'unknown'] as const;
export type KeeperState = (typeof KEEPER_STATES)[number];
/** States in which the keeper still has work to do on the wager. */
export const IN_PROGRESS_STATES: readonly KeeperState[] = ['queued', 'requested', 'fulfilled'];

export interface WagerRecord {
  address: string;
  state: KeeperState;
  /** The wager's paytable account and stake (USDC base units, decimal string), as the account said. */
  paytable: string | null;
  stake: string | null;
  openSlot: number | null;
  expirySlot: number | null;
  oracleRequest: string | null;
  requestSignature: string | null;
  requestedSlot: number | null;
  fulfilledSlot: number | null;
  settleSignature: string | null;
  expireSignature: string | null;
  claimSignature: string | null;
  bucket: number | null;
  /** USDC base units, decimal string. */
  payout: string | null;
  /** A settled wager whose payout is parked in the escrow (claim_payout pending). */
  payoutPending: boolean;
  attempts: number;
  /** Unix ms before which the keeper does not retry. */
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  address: string;
  state: KeeperState;
  paytable: string | null;
  stake: string | null;
  open_slot: number | null;
  expiry_slot: number | null;
  oracle_request: string | null;
  request_signature: string | null;
  requested_slot: number | null;
  fulfilled_slot: number | null;
  settle_signature: string | null;
  expire_signature: string | null;
  claim_signature: string | null;
  bucket: number | null;
  payout: string | null;
  payout_pending: number;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

const fromRow = (row: Row): WagerRecord => ({
  address: row.address,
  state: row.state,
  paytable: row.paytable,
  stake: row.stake,
  openSlot: row.open_slot,
  expirySlot: row.expiry_slot,
  oracleRequest: row.oracle_request,
  requestSignature: row.request_signature,
  requestedSlot: row.requested_slot,
  fulfilledSlot: row.fulfilled_slot,
  settleSignature: row.settle_signature,
  expireSignature: row.expire_signature,
  claimSignature: row.claim_signature,
  bucket: row.bucket,
  payout: row.payout,
  payoutPending: row.payout_pending === 1,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  lastError: row.last_error,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const COLUMNS: Record<keyof Omit<WagerRecord, 'address' | 'createdAt' | 'updatedAt'>, string> = {
  state: 'state',
  paytable: 'paytable',
  stake: 'stake',
  openSlot: 'open_slot',
  expirySlot: 'expiry_slot',
  oracleRequest: 'oracle_request',
  requestSignature: 'request_signature',
  requestedSlot: 'requested_slot',
  fulfilledSlot: 'fulfilled_slot',
  settleSignature: 'settle_signature',
  expireSignature: 'expire_signature',
  claimSignature: 'claim_signature',
  bucket: 'bucket',
  payout: 'payout',
  payoutPending: 'payout_pending',
  attempts: 'attempts',
  nextAttemptAt: 'next_attempt_at',
  lastError: 'last_error',
};

export type WagerRecordChanges = Partial<Omit<WagerRecord, 'address' | 'createdAt' | 'updatedAt'>>;

export interface WagerRecordStore {
  get(address: string): WagerRecord | undefined;
  /** Inserts a new record in `state` (with fields); returns false when one already exists. */
  insert(address: string, fields: WagerRecordChanges & { state: KeeperState }): boolean;
  /** Applies changes to an existing record (one UPDATE); returns the updated record. */
  update(address: string, changes: WagerRecordChanges): WagerRecord | undefined;
  byState(states: readonly KeeperState[], limit?: number): WagerRecord[];
  /** Settled wagers whose payout is parked in the escrow (claim_payout still to do). */
  withParkedPayout(limit?: number): WagerRecord[];
  countByState(states: readonly KeeperState[]): number;
  /** How many records are in each state (one GROUP BY), and how many settled ones have a parked payout. */
  countsByState(): { states: Record<KeeperState, number>; parkedPayouts: number };
  recent(limit: number): WagerRecord[];
  /** Records that finished (settled, expired, unknown; no parked payout) and changed at or after `since`, newest first. */
  finishedSince(since: Date, limit: number): WagerRecord[];
}

export function createWagerRecordStore(db: Database, now: () => Date = () => new Date()): WagerRecordStore {
  const select = db.prepare('SELECT * FROM wagers WHERE address = ?');
  const insertStatement = db.prepare(
    `INSERT OR IGNORE INTO wagers (address, state, open_slot, expiry_slot, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const toSql = (key: keyof typeof COLUMNS, value: unknown) => (key === 'payoutPending' ? (value ? 1 : 0) : (value ?? null));

  const update: WagerRecordStore['update'] = (address, changes) => {
    const keys = (Object.keys(changes) as (keyof typeof COLUMNS)[]).filter((key) => key in COLUMNS);
    const assignments = keys.map((key) => `${COLUMNS[key]} = ?`);
    const values = keys.map((key) => toSql(key, changes[key]));
    db.prepare(`UPDATE wagers SET ${[...assignments, 'updated_at = ?'].join(', ')} WHERE address = ?`).run(
      ...(values as (string | number | null)[]),
      now().toISOString(),
      address,
    );
    const row = select.get(address) as Row | undefined;
    return row ? fromRow(row) : undefined;
  };

  return {
    get: (address) => {
      const row = select.get(address) as Row | undefined;
      return row ? fromRow(row) : undefined;
    },
    insert: (address, fields) => {
      const at = now().toISOString();
      const { changes } = insertStatement.run(address, fields.state, fields.openSlot ?? null, fields.expirySlot ?? null, at, at);
      if (Number(changes) === 0) return false;
      const rest = { ...fields } as WagerRecordChanges;
      delete rest.state;
      delete rest.openSlot;
      delete rest.expirySlot;
      if (Object.keys(rest).length > 0) update(address, rest);
      return true;
    },
    update,
    byState: (states, limit = 10_000) =>
      (db
        .prepare(`SELECT * FROM wagers WHERE state IN (${states.map(() => '?').join(', ')}) ORDER BY open_slot LIMIT ?`)
        .all(...states, limit) as unknown as Row[]).map(fromRow),
    withParkedPayout: (limit = 10_000) =>
      (db.prepare('SELECT * FROM wagers WHERE payout_pending = 1 LIMIT ?').all(limit) as unknown as Row[]).map(fromRow),
    countByState: (states) =>
      Number(
        (db.prepare(`SELECT COUNT(*) AS n FROM wagers WHERE state IN (${states.map(() => '?').join(', ')})`).get(...states) as { n: number }).n,
      ),
    countsByState: () => {
      const states = Object.fromEntries(KEEPER_STATES.map((state) => [state, 0])) as Record<KeeperState, number>;
      // The running counts the wagers' triggers keep (migration 5): a GROUP BY over every record would scan them all.
      for (const row of db.prepare('SELECT state, n FROM wager_state_counts').all() as { state: KeeperState; n: number }[])
        states[row.state] = Number(row.n);
      const parked = db.prepare('SELECT COUNT(*) AS n FROM wagers WHERE payout_pending = 1').get() as { n: number };
      return { states, parkedPayouts: Number(parked.n) };
    },
    finishedSince: (since, limit) =>
      (db
        .prepare(
          `SELECT * FROM wagers WHERE state IN ('settled', 'expired', 'unknown') AND payout_pending = 0 AND updated_at >= ? ORDER BY updated_at DESC LIMIT ?`,
        )
        .all(since.toISOString(), limit) as unknown as Row[]).map(fromRow),
    recent: (limit) => (db.prepare('SELECT * FROM wagers ORDER BY updated_at DESC LIMIT ?').all(limit) as unknown as Row[]).map(fromRow),
  };
}
