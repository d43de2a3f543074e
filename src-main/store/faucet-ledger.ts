/**
 * The test-network faucet's ledger over `faucet_claims` (spec 2.4 and 8). A claim is first RESERVED: one
 * IMMEDIATE transaction checks every limit (per wallet, per IP, global per UTC day, SOL once a day) and
 * inserts a row without a signature, so concurrent claims (in this process or another one on the same
 * file) can never exceed a limit. The row is then confirmed with the transaction signature, or released
 * (deleted) when sending failed so the failure does not cost the user a slot.
 *
 * Each row also keeps what the claim costs the keeper's key (`cost_lamports`: an estimate while reserved,
 * the real cost once sent), and the same transaction refuses a claim that would take the day's spending
 * past the SOL budget (issue 33): a faucet must not be able to starve the keeper of the SOL it cranks with.
 */
import { transaction, type Database } from './database';
import { DAY_MS } from '../../src-shared/units';

export interface FaucetLimits {
  /** Claims per UTC day over all wallets. */
  perDay: number;
  /** One claim per wallet and one per IP within this many ms (spec 8: 5 minutes). */
  claimIntervalMs: number;
  /** At most one SOL top-up per wallet within this many ms (spec 8: once a day). */
  solIntervalMs: number;
  /** Lamports the claims of one UTC day may cost the keeper's key in all; absent: no budget. */
  solPerDayLamports?: bigint;
  /** What a claim recorded before costs were kept is counted as, beside its top-up (a conservative estimate). */
  legacyOverheadLamports?: bigint;
}

export interface ReservationRequest {
  owner: string;
  /** The client's rate-limit key (an IPv4 address or an IPv6 /64), as the API derives it. */
  ip: string;
  /** Unix ms of the decision; the row's `at_ms`. */
  atMs: number;
  /** USDC base units the claim will mint. */
  usdc: bigint;
  /** Lamports to send if this wallet had no top-up within `solIntervalMs`; 0n when the wallet does not need one. */
  solIfAllowed: bigint;
  /** What the claim costs the keeper's key beside the top-up (token account rent, fee), estimated high. */
  overheadLamports?: bigint;
}

export type FaucetRefusalReason = 'wallet' | 'ip' | 'daily' | 'budget';

export interface FaucetRefusal {
  ok: false;
  reason: FaucetRefusalReason;
  /** Unix ms from which a claim would be allowed (the latest of all limits that refuse). */
  retryAt: number;
}

export type FaucetReservation = { ok: true; id: number; sol: bigint; costLamports: bigint } | FaucetRefusal;

export interface FaucetClaimRow {
  id: number;
  atMs: number;
  owner: string;
  ip: string;
  usdc: string;
  sol: string;
  /** Null while the claim is reserved but not yet sent. */
  signature: string | null;
}

export interface FaucetLedger {
  /** Whether a claim costing `costLamports` would be refused at `atMs` (no reservation; a cheap early answer). */
  refusal(owner: string, ip: string, atMs: number, costLamports?: bigint): FaucetRefusal | null;
  /** Checks the limits and, if none refuses, inserts the reservation: one IMMEDIATE transaction. */
  reserve(request: ReservationRequest): FaucetReservation;
  /** Records the signature, and what the claim really cost when known. */
  confirm(id: number, signature: string, costLamports?: bigint): void;
  /** Deletes a reservation whose transaction failed. */
  release(id: number): void;
  /** Claims (sent or reserved) in the UTC day containing `atMs`. */
  claimsOnDay(atMs: number): number;
  /** Lamports the claims (sent or reserved) of the UTC day containing `atMs` cost the keeper's key. */
  costOnDay(atMs: number): bigint;
  /** Lamports of claims reserved but not sent yet (about to leave the keeper's key). */
  reservedCost(): bigint;
  claims(): FaucetClaimRow[];
}

/** Unix ms of 00:00 UTC of the day containing `ms`. */
export const utcDayStart = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

export function createFaucetLedger(db: Database, limits: FaucetLimits): FaucetLedger {
  const lastByOwner = db.prepare(
    'SELECT MAX(at_ms) AS last FROM faucet_claims WHERE owner = ? AND at_ms > ?',
  );
  const lastByIp = db.prepare('SELECT MAX(at_ms) AS last FROM faucet_claims WHERE ip = ? AND at_ms > ?');
  const countBetween = db.prepare('SELECT COUNT(*) AS n FROM faucet_claims WHERE at_ms >= ? AND at_ms < ?');
  const solSince = db.prepare(
    "SELECT 1 AS found FROM faucet_claims WHERE owner = ? AND sol <> '0' AND at_ms > ? LIMIT 1",
  );
  const insert = db.prepare(
    'INSERT INTO faucet_claims (at_ms, owner, ip, usdc, sol, signature, cost_lamports) VALUES (?, ?, ?, ?, ?, NULL, ?)',
  );
  const setSignature = db.prepare(
    'UPDATE faucet_claims SET signature = ?, cost_lamports = COALESCE(?, cost_lamports) WHERE id = ?',
  );
  // A row from before costs were kept counts as its top-up plus the overhead estimate.
  const costBetween = db.prepare(
    'SELECT COALESCE(SUM(COALESCE(cost_lamports, CAST(sol AS INTEGER) + ?)), 0) AS lamports FROM faucet_claims WHERE at_ms >= ? AND at_ms < ?',
  );
  const costReserved = db.prepare(
    'SELECT COALESCE(SUM(COALESCE(cost_lamports, CAST(sol AS INTEGER) + ?)), 0) AS lamports FROM faucet_claims WHERE signature IS NULL',
  );
  const legacyOverhead = limits.legacyOverheadLamports ?? 0n;
  const remove = db.prepare('DELETE FROM faucet_claims WHERE id = ?');
  const all = db.prepare(
    'SELECT id, at_ms AS atMs, owner, ip, usdc, sol, signature FROM faucet_claims ORDER BY id',
  );

  const claimsOnDay = (atMs: number): number => {
    const start = utcDayStart(atMs);
    return (countBetween.get(start, start + DAY_MS) as { n: number }).n;
  };

  const costOnDay = (atMs: number): bigint => {
    const start = utcDayStart(atMs);
    return BigInt((costBetween.get(legacyOverhead, start, start + DAY_MS) as { lamports: number | bigint }).lamports);
  };

  const refusal = (owner: string, ip: string, atMs: number, costLamports = 0n): FaucetRefusal | null => {
    const since = atMs - limits.claimIntervalMs;
    const candidates: { reason: FaucetRefusalReason; retryAt: number }[] = [];
    const walletLast = (lastByOwner.get(owner, since) as { last: number | null }).last;
    if (walletLast !== null)
      candidates.push({ reason: 'wallet', retryAt: walletLast + limits.claimIntervalMs });
    const ipLast = (lastByIp.get(ip, since) as { last: number | null }).last;
    if (ipLast !== null) candidates.push({ reason: 'ip', retryAt: ipLast + limits.claimIntervalMs });
    if (claimsOnDay(atMs) >= limits.perDay)
      candidates.push({ reason: 'daily', retryAt: utcDayStart(atMs) + DAY_MS });
    if (limits.solPerDayLamports !== undefined && costOnDay(atMs) + costLamports > limits.solPerDayLamports)
      candidates.push({ reason: 'budget', retryAt: utcDayStart(atMs) + DAY_MS });
    if (candidates.length === 0) return null;
    // A claim is allowed only once every limit allows it: report the limit that lifts last.
    const latest = candidates.reduce((a, b) => (b.retryAt > a.retryAt ? b : a));
    return { ok: false, ...latest };
  };

  return {
    refusal,
    reserve: (request) =>
      transaction(db, () => {
        const hadTopUp =
          request.solIfAllowed > 0n &&
          solSince.get(request.owner, request.atMs - limits.solIntervalMs) !== undefined;
        const sol = hadTopUp ? 0n : request.solIfAllowed;
        const costLamports = sol + (request.overheadLamports ?? 0n);
        const refused = refusal(request.owner, request.ip, request.atMs, costLamports);
        if (refused) return refused;
        const { lastInsertRowid } = insert.run(
          request.atMs,
          request.owner,
          request.ip,
          request.usdc.toString(),
          sol.toString(),
          costLamports,
        );
        return { ok: true, id: Number(lastInsertRowid), sol, costLamports };
      }),
    confirm: (id, signature, costLamports) => {
      setSignature.run(signature, costLamports ?? null, id);
    },
    release: (id) => {
      remove.run(id);
    },
    claimsOnDay,
    costOnDay,
    reservedCost: () => BigInt((costReserved.get(legacyOverhead) as { lamports: number | bigint }).lamports),
    claims: () => all.all() as unknown as FaucetClaimRow[],
  };
}
