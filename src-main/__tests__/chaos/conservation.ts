/**
 * Conservation of the pool's USDC, checked after a chaos scenario. Reads the pool vault and the payout
 * escrow on chain and compares them three ways:
 *
 *  - with the pool's own books: vault == liquidity + open_stakes + pending_deposits + owed_withdrawals,
 *    escrow == pending_payouts (docs/wager-program.md, Pool; the accounting property test's invariants);
 *  - with the program's events since a baseline: the change of vault + escrow equals the stakes that came
 *    in (WagerOpened) and the deposits (DepositRequested), less the payouts that left (WagerSettled not
 *    parked, PayoutClaimed) and the withdrawals paid (WithdrawClaimed); the escrow's change equals the
 *    parked payouts less the claimed ones;
 *  - with the keeper's SQLite records: every wager of the scenario has a record in the state its last
 *    event says (settled or expired), with the event's payout, bucket and parked flag, and the records'
 *    payouts add up to the events'.
 *
 * Everything is read over JSON-RPC (getSignaturesForAddress of the pool, vault and escrow, getTransaction),
 * so it works against any localnet, in process or not.
 */
import { address, type Address, type Rpc, type Signature, type SolanaRpcApi } from '@solana/kit';
import { DatabaseSync } from 'node:sqlite';
import { getPoolDecoder } from '../../protocol/generated/wager';
import { strictWagerEvents } from '../../keeper/__tests__/keeper-test-helpers';

type ChainRpc = Rpc<SolanaRpcApi>;

export interface ConservationPoint {
  pool: Address;
  vault: Address;
  escrow: Address;
  vaultBalance: bigint;
  escrowBalance: bigint;
  /** The newest signature of the pool, the vault and the escrow at the baseline (events after them count). */
  lastSignatures: { pool: Signature | null; vault: Signature | null; escrow: Signature | null };
}

const balanceOf = async (rpc: ChainRpc, account: Address) => BigInt((await rpc.getTokenAccountBalance(account, { commitment: 'confirmed' }).send()).value.amount);

async function readPool(rpc: ChainRpc, pool: Address) {
  const { value } = await rpc.getAccountInfo(pool, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value) throw new Error(`no pool at ${pool}`);
  return getPoolDecoder().decode(Buffer.from(value.data[0], 'base64'));
}

const newestSignature = async (rpc: ChainRpc, account: Address) =>
  (await rpc.getSignaturesForAddress(account, { limit: 1, commitment: 'confirmed' }).send())[0]?.signature ?? null;

/** The vault and escrow balances and their newest signatures now: the baseline a scenario is checked against. */
export async function conservationBaseline(rpc: ChainRpc, pool: Address): Promise<ConservationPoint> {
  const { vault, escrow } = await readPool(rpc, pool);
  return {
    pool,
    vault,
    escrow,
    vaultBalance: await balanceOf(rpc, vault),
    escrowBalance: await balanceOf(rpc, escrow),
    lastSignatures: { pool: await newestSignature(rpc, pool), vault: await newestSignature(rpc, vault), escrow: await newestSignature(rpc, escrow) },
  };
}

/** Every successful signature of `account` newer than `until`, oldest first. */
async function signaturesSince(rpc: ChainRpc, account: Address, until: Signature | null): Promise<Signature[]> {
  const found: Signature[] = [];
  let before: Signature | undefined;
  for (;;) {
    const page = await rpc.getSignaturesForAddress(account, { limit: 1000, commitment: 'confirmed', ...(until ? { until } : {}), ...(before ? { before } : {}) }).send();
    for (const entry of page) if (entry.err === null) found.push(entry.signature);
    if (page.length < 1000) return found.reverse();
    before = page.at(-1)!.signature;
  }
}

export interface WagerOutcome {
  wager: Address;
  stake: bigint;
  ended: 'settled' | 'expired' | 'open';
  payout: bigint;
  bucket: number | null;
  parked: boolean;
  claimed: bigint;
}

export interface ConservationReport {
  ok: boolean;
  /** One sentence per disagreement; empty when everything adds up. */
  mismatches: string[];
  chain: { vault: string; escrow: string };
  books: { liquidity: string; openStakes: string; pendingDeposits: string; owedWithdrawals: string; pendingPayouts: string };
  events: { transactions: number; opened: number; settled: number; expired: number; stakesIn: string; payoutsOut: string; parked: string; claimed: string; depositsIn: string; withdrawalsOut: string };
  records?: { checked: number; payouts: string };
}

export interface ConservationCheck {
  rpc: ChainRpc;
  program: Address;
  baseline: ConservationPoint;
  /** The keeper's SQLite file: its records are compared with the events when given. */
  dbFile?: string;
  /** Wagers the scenario opened: each must have ended (settled or expired) unless `allowOpen`. */
  wagers?: readonly Address[];
  allowOpen?: boolean;
}

/** Reads the chain (and the keeper's records) and reports every way the pool's USDC fails to add up. */
export async function checkConservation({ rpc, program, baseline, dbFile, wagers, allowOpen = false }: ConservationCheck): Promise<ConservationReport & { outcomes: Map<Address, WagerOutcome> }> {
  const mismatches: string[] = [];
  const pool = await readPool(rpc, baseline.pool);
  const vault = await balanceOf(rpc, baseline.vault);
  const escrow = await balanceOf(rpc, baseline.escrow);

  // The pool's books against its token accounts.
  const booked = pool.liquidity + pool.openStakes + pool.pendingDeposits + pool.owedWithdrawals;
  if (vault !== booked) mismatches.push(`vault holds ${vault}, the pool books liquidity + open stakes + pending deposits + owed withdrawals = ${booked}`);
  if (escrow !== pool.pendingPayouts) mismatches.push(`escrow holds ${escrow}, the pool books pending payouts = ${pool.pendingPayouts}`);

  // The program's events since the baseline, each transaction once (every wager and liquidity step writes
  // the pool; the vault and escrow are read too, so that a USDC move without the pool would show).
  const signatures = [
    ...new Set([
      ...(await signaturesSince(rpc, baseline.pool, baseline.lastSignatures.pool)),
      ...(await signaturesSince(rpc, baseline.vault, baseline.lastSignatures.vault)),
      ...(await signaturesSince(rpc, baseline.escrow, baseline.lastSignatures.escrow)),
    ]),
  ];
  const sums = { stakesIn: 0n, payoutsOut: 0n, parked: 0n, claimed: 0n, depositsIn: 0n, withdrawalsOut: 0n, opened: 0, settled: 0, expired: 0 };
  const outcomes = new Map<Address, WagerOutcome>();
  const outcomeOf = (wager: Address) => {
    if (!outcomes.has(wager)) outcomes.set(wager, { wager, stake: 0n, ended: 'open', payout: 0n, bucket: null, parked: false, claimed: 0n });
    return outcomes.get(wager)!;
  };
  for (let i = 0; i < signatures.length; i += 50) {
    const transactions = await Promise.all(
      signatures.slice(i, i + 50).map((signature) => rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send()),
    );
    for (const [k, tx] of transactions.entries()) {
      if (!tx) throw new Error(`transaction ${signatures[i + k]} is not readable`);
      for (const event of strictWagerEvents(tx.meta?.logMessages ?? [], program)) {
        switch (event.name) {
          case 'WagerOpened':
            sums.stakesIn += event.data.stake;
            sums.opened++;
            outcomeOf(event.data.wager).stake = event.data.stake;
            break;
          case 'WagerSettled': {
            sums.settled++;
            if (event.data.pending) sums.parked += event.data.payout;
            else sums.payoutsOut += event.data.payout;
            Object.assign(outcomeOf(event.data.wager), { ended: 'settled', payout: event.data.payout, bucket: event.data.bucket, parked: Boolean(event.data.pending) });
            break;
          }
          case 'WagerExpired':
            sums.expired++;
            outcomeOf(event.data.wager).ended = 'expired';
            break;
          case 'PayoutClaimed':
            sums.claimed += event.data.payout;
            outcomeOf(event.data.wager).claimed += event.data.payout;
            break;
          case 'DepositRequested':
            sums.depositsIn += event.data.amount;
            break;
          case 'WithdrawClaimed':
            sums.withdrawalsOut += event.data.amount;
            break;
          default:
            break; // moves no USDC in or out of the pool's two accounts
        }
      }
    }
  }
  const expectedTotal = baseline.vaultBalance + baseline.escrowBalance + sums.stakesIn + sums.depositsIn - sums.payoutsOut - sums.claimed - sums.withdrawalsOut;
  if (vault + escrow !== expectedTotal)
    mismatches.push(`vault + escrow hold ${vault + escrow}; the baseline ${baseline.vaultBalance + baseline.escrowBalance} plus the events (stakes ${sums.stakesIn}, deposits ${sums.depositsIn}, less payouts ${sums.payoutsOut}, claims ${sums.claimed}, withdrawals ${sums.withdrawalsOut}) say ${expectedTotal}`);
  const expectedEscrow = baseline.escrowBalance + sums.parked - sums.claimed;
  if (escrow !== expectedEscrow) mismatches.push(`escrow holds ${escrow}; the baseline ${baseline.escrowBalance} plus parked ${sums.parked} less claimed ${sums.claimed} says ${expectedEscrow}`);

  for (const wager of wagers ?? []) {
    const outcome = outcomes.get(wager);
    if (!outcome || outcome.stake === 0n) mismatches.push(`wager ${wager}: no WagerOpened since the baseline`);
    else if (outcome.ended === 'open' && !allowOpen) mismatches.push(`wager ${wager}: neither settled nor expired`);
  }

  // The keeper's records against the events.
  let records: ConservationReport['records'];
  if (dbFile) {
    const db = new DatabaseSync(dbFile, { readOnly: true });
    try {
      const rows = db.prepare('SELECT address, state, payout, bucket, payout_pending, settle_signature, expire_signature FROM wagers').all() as {
        address: string; state: string; payout: string | null; bucket: number | null; payout_pending: number; settle_signature: string | null; expire_signature: string | null;
      }[];
      const byAddress = new Map(rows.map((row) => [row.address, row]));
      let payouts = 0n;
      let checked = 0;
      for (const outcome of outcomes.values()) {
        if (outcome.ended === 'open' || outcome.stake === 0n) continue;
        const row = byAddress.get(outcome.wager);
        if (!row) {
          mismatches.push(`wager ${outcome.wager} ${outcome.ended} on chain has no keeper record`);
          continue;
        }
        checked++;
        if (row.state !== outcome.ended) mismatches.push(`wager ${outcome.wager}: ${outcome.ended} on chain, the record says ${row.state}`);
        if (outcome.ended === 'settled') {
          payouts += BigInt(row.payout ?? -1);
          if (row.payout !== String(outcome.payout)) mismatches.push(`wager ${outcome.wager}: paid ${outcome.payout} on chain, the record says ${row.payout}`);
          if (row.bucket !== outcome.bucket) mismatches.push(`wager ${outcome.wager}: bucket ${outcome.bucket} on chain, the record says ${row.bucket}`);
          if (Boolean(row.payout_pending) !== (outcome.parked && outcome.claimed === 0n)) mismatches.push(`wager ${outcome.wager}: parked ${outcome.parked} (claimed ${outcome.claimed}) on chain, the record's payout_pending is ${row.payout_pending}`);
          if (!row.settle_signature) mismatches.push(`wager ${outcome.wager}: settled, the record names no settle transaction`);
        } else if (!row.expire_signature) mismatches.push(`wager ${outcome.wager}: expired, the record names no expire transaction`);
      }
      const eventPayouts = [...outcomes.values()].filter((o) => o.ended === 'settled' && o.stake > 0n).reduce((sum, o) => sum + o.payout, 0n);
      if (payouts !== eventPayouts) mismatches.push(`the records' payouts add up to ${payouts}, the events' to ${eventPayouts}`);
      records = { checked, payouts: String(payouts) };
    } finally {
      db.close();
    }
  }

  return {
    ok: mismatches.length === 0,
    mismatches,
    chain: { vault: String(vault), escrow: String(escrow) },
    books: { liquidity: String(pool.liquidity), openStakes: String(pool.openStakes), pendingDeposits: String(pool.pendingDeposits), owedWithdrawals: String(pool.owedWithdrawals), pendingPayouts: String(pool.pendingPayouts) },
    events: {
      transactions: signatures.length,
      opened: sums.opened,
      settled: sums.settled,
      expired: sums.expired,
      stakesIn: String(sums.stakesIn),
      payoutsOut: String(sums.payoutsOut),
      parked: String(sums.parked),
      claimed: String(sums.claimed),
      depositsIn: String(sums.depositsIn),
      withdrawalsOut: String(sums.withdrawalsOut),
    },
    records,
    outcomes,
  };
}

/** The pool address of a wager-keeper localnet's manifest. */
export const poolOf = (manifest: { pool: string }) => address(manifest.pool);
