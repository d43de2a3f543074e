/**
 * One transaction's wager-program events, read from the RPC and decoded, with the cache that spares a
 * second read: the unit every walk of a wager's history is made of.
 */
import type { Address, Rpc, SolanaRpcApi } from '@solana/kit';
import { decodeWagerEventsFromLogs, type WagerProgramEvent } from '../protocol/wager';
import { readConfirmedTransaction, type ConfirmedTransaction } from '../chain/read-transaction';

/** Transactions the default cache keeps: a few full histories of busy wagers. */
const DEFAULT_CACHE_SIZE = 2_048;

/**
 * The wager program's events of transactions already read, by program and signature: a confirmed
 * transaction does not change, so retries and later lookups do not fetch and decode it again. Bounded,
 * least recently used first out. A transaction the RPC did not show (null) is never kept: it may show up
 * on the next read.
 */
export class TransactionEventCache {
  private readonly entries = new Map<string, readonly WagerProgramEvent[]>();

  constructor(private readonly capacity = DEFAULT_CACHE_SIZE) {}

  get(program: Address, signature: string): readonly WagerProgramEvent[] | undefined {
    const key = `${program}:${signature}`;
    const events = this.entries.get(key);
    if (events !== undefined) {
      this.entries.delete(key); // most recently used last
      this.entries.set(key, events);
    }
    return events;
  }

  set(program: Address, signature: string, events: readonly WagerProgramEvent[]) {
    const key = `${program}:${signature}`;
    this.entries.delete(key);
    this.entries.set(key, events);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}

export interface TransactionEvents {
  /** The wager program's events, in the order the transaction logged them. */
  events: readonly WagerProgramEvent[];
  /** The transaction as read; null when its events came from the cache. */
  transaction: ConfirmedTransaction | null;
}

/** The wager program's events of one transaction, or null while the RPC does not show it. */
export async function readTransactionEvents(
  rpc: Rpc<SolanaRpcApi>,
  signature: string,
  program: Address,
  cache?: TransactionEventCache,
): Promise<TransactionEvents | null> {
  const cached = cache?.get(program, signature);
  if (cached) return { events: cached, transaction: null };
  const transaction = await readConfirmedTransaction(rpc, signature);
  if (!transaction) return null;
  const events = decodeWagerEventsFromLogs(transaction.meta?.logMessages ?? [], program);
  cache?.set(program, signature, events);
  return { events, transaction };
}
