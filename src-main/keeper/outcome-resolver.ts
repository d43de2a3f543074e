/**
 * How a wager ended, read from the chain: the transactions that requested, settled, expired or delivered
 * it, found among the wager's signatures (paged back to the opening, so a busy wager is not missed) and
 * decoded from their events. This is how a keeper that lost a race, or found a wager someone else moved,
 * records the winner's transactions.
 *
 * A wager's address (integrator authority, nonce) can be opened again once the wager closed, so its
 * history can hold earlier (and, for a record kept since, later) wagers: only the events between the
 * wager's own WagerOpened and the next opening are its.
 */
import type { Address, Rpc, Signature, SolanaRpcApi } from '@solana/kit';
import { decodeWagerEventsFromLogs, type WagerProgramEvent } from '../protocol/wager';
import { readConfirmedTransaction } from '../chain/read-transaction';

export type WagerOutcome =
  /** `pending`: the payout is parked; `claimSignature`: it was delivered later by claim_payout. */
  | { kind: 'settled'; signature: string; slot: bigint; bucket: number; payout: bigint; pending: boolean; claimSignature?: string; request?: RequestTransaction; openSlot?: bigint }
  | { kind: 'expired'; signature: string; slot: bigint; request?: RequestTransaction; openSlot?: bigint }
  | { kind: 'unknown' };

export interface RequestTransaction {
  signature: string;
  slot: bigint;
}

/** Signatures per getSignaturesForAddress call (the RPC allows up to 1 000). */
const PAGE_SIZE = 100;
/** Transactions the default cache keeps: a few full histories of busy wagers. */
const DEFAULT_CACHE_SIZE = 2_048;

/**
 * The wager program's events of transactions already read, by signature: a confirmed transaction does not
 * change, so retries and later lookups do not fetch and decode it again. Bounded, least recently used
 * first out. A transaction the RPC did not show (null) is never kept: it may show up on the next read.
 */
export class TransactionEventCache {
  private readonly entries = new Map<string, readonly WagerProgramEvent[]>();

  constructor(private readonly capacity = DEFAULT_CACHE_SIZE) {}

  get(key: string): readonly WagerProgramEvent[] | undefined {
    const events = this.entries.get(key);
    if (events !== undefined) {
      this.entries.delete(key); // most recently used last
      this.entries.set(key, events);
    }
    return events;
  }

  set(key: string, events: readonly WagerProgramEvent[]) {
    this.entries.delete(key);
    this.entries.set(key, events);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}

export interface HistoryOptions {
  /** The wager's open slot: which opening at this address is meant. Default: the most recent one. */
  openSlot?: bigint;
  /** Transactions read before (the keeper keeps one per run). */
  cache?: TransactionEventCache;
  /**
   * Read back to the opening even when the outcome is known before (the Inspector's timeline wants the
   * open slot): one more transaction read. The keeper knows its open slots and leaves this off.
   */
  throughOpening?: boolean;
}

/** The wager program's events of one transaction, or null while the RPC does not show it. */
async function transactionEvents(rpc: Rpc<SolanaRpcApi>, signature: string, program: Address, cache?: TransactionEventCache) {
  const key = `${program}:${signature}`;
  const cached = cache?.get(key);
  if (cached) return cached;
  const tx = await readConfirmedTransaction(rpc, signature);
  if (!tx) return null;
  const events = decodeWagerEventsFromLogs(tx.meta?.logMessages ?? [], program);
  cache?.set(key, events);
  return events;
}

interface WagerTransaction {
  signature: string;
  slot: bigint;
  /** The wager program's events about this wager, newest first. */
  events: WagerProgramEvent[];
}

/** The wager's successful transactions, newest first, page by page until its history ends (or the caller stops). */
async function* wagerTransactions(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address, cache?: TransactionEventCache): AsyncGenerator<WagerTransaction> {
  let before: Signature | undefined;
  for (;;) {
    const page = await rpc.getSignaturesForAddress(wager, { limit: PAGE_SIZE, commitment: 'confirmed', ...(before ? { before } : {}) }).send();
    for (const entry of page) {
      if (entry.err) continue; // a failed transaction changed nothing and has no events
      const events = (await transactionEvents(rpc, entry.signature, program, cache)) ?? [];
      // Reversed: one transaction can close a wager and open the next one at the same address.
      yield { signature: entry.signature, slot: entry.slot, events: events.filter((e) => 'wager' in e.data && e.data.wager === wager).reverse() };
    }
    if (page.length < PAGE_SIZE) return;
    before = page.at(-1)!.signature;
  }
}

/**
 * Walks the wager's history newest first and hands `visit` only the events of the opening meant: events
 * of a later opening are dropped (`reset`), and the walk ends at the opening itself. `visit` returns true
 * to stop early.
 */
async function walkOpening(
  rpc: Rpc<SolanaRpcApi>,
  wager: Address,
  program: Address,
  options: HistoryOptions,
  handlers: { visit: (event: WagerProgramEvent, tx: WagerTransaction) => boolean; reset: () => void; opened?: (openSlot: bigint) => void },
) {
  for await (const tx of wagerTransactions(rpc, wager, program, options.cache)) {
    for (const event of tx.events) {
      if (event.name === 'WagerOpened') {
        if (options.openSlot === undefined || event.data.openSlot === options.openSlot) {
          handlers.opened?.(event.data.openSlot);
          return;
        }
        handlers.reset(); // everything seen so far belongs to a wager opened later at this address
      } else if (handlers.visit(event, tx)) {
        // Without an open slot the first opening met is the one meant, so what was found is its.
        if (options.openSlot === undefined && !options.throughOpening) return;
      }
    }
  }
}

export async function resolveWagerOutcome(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address, options: HistoryOptions = {}): Promise<WagerOutcome> {
  let claimSignature: string | undefined;
  let closing: WagerOutcome | undefined;
  let request: RequestTransaction | undefined;
  let openSlot: bigint | undefined;
  // Newest first: a claim, then the settlement or expiry, then the request.
  await walkOpening(rpc, wager, program, options, {
    reset: () => {
      claimSignature = undefined;
      closing = undefined;
      request = undefined;
    },
    visit: (event, { signature, slot }) => {
      if (event.name === 'PayoutClaimed') claimSignature ??= signature;
      if (event.name === 'WagerExpired') closing ??= { kind: 'expired', signature, slot };
      if (event.name === 'WagerSettled') {
        const { bucket, payout, pending } = event.data;
        closing ??= { kind: 'settled', signature, slot, bucket, payout, pending: pending === 1 && !claimSignature, ...(claimSignature ? { claimSignature } : {}) };
      }
      if (event.name === 'WagerRandomnessRequested') request ??= { signature, slot };
      return closing !== undefined && (request !== undefined || closing.kind === 'expired');
    },
    opened: (slot) => (openSlot = slot),
  });
  const found = closing as WagerOutcome | undefined; // assigned in the callbacks above
  if (found) return { ...found, ...(request ? { request } : {}), ...(openSlot !== undefined ? { openSlot } : {}) };
  return { kind: 'unknown' };
}

/** The transaction that requested the wager's randomness (its WagerRandomnessRequested event), if any. */
export async function findRequestTransaction(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address, options: HistoryOptions = {}): Promise<RequestTransaction | null> {
  let request: RequestTransaction | null = null;
  await walkOpening(rpc, wager, program, options, {
    reset: () => (request = null),
    visit: (event, { signature, slot }) => {
      if (event.name === 'WagerRandomnessRequested') request ??= { signature, slot };
      return request !== null;
    },
  });
  return request;
}

/** The WagerSettled event of one settle transaction, or null while the RPC cannot show it (yet). */
export async function readSettlement(rpc: Rpc<SolanaRpcApi>, signature: string, wager: Address, program: Address, cache?: TransactionEventCache) {
  const events = await transactionEvents(rpc, signature, program, cache);
  const event = events?.find((e) => e.name === 'WagerSettled' && e.data.wager === wager);
  if (event?.name !== 'WagerSettled') return null;
  return { bucket: event.data.bucket, payout: event.data.payout, pending: event.data.pending === 1 };
}
