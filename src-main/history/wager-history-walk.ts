/**
 * The one walk of a wager's history: its signatures newest first, page by page, each successful
 * transaction's events about the wager, back to the wager's opening.
 *
 * A wager's address (integrator authority, nonce) can be opened again once the wager closed, so its
 * history can hold earlier (and, for a wager read after it closed, later) wagers: only the events between
 * the wager's own WagerOpened and the next opening are its. Without an open slot the opening meant is the
 * most recent one: the walk stops at the first WagerOpened it meets.
 */
import type { Address, Rpc, Signature, SolanaRpcApi } from '@solana/kit';
import type { WagerOpenedEvent, WagerProgramEvent } from '../protocol/wager';
import type { ConfirmedTransaction } from '../chain/read-transaction';
import { readTransactionEvents, type TransactionEventCache } from './transaction-events';

/** Signatures per getSignaturesForAddress call of a walk (the RPC allows up to 1 000). */
const PAGE_SIZE = 100;

/** The newest `limit` signatures of `key` (before `before`, when given), failed ones included. */
export async function newestSignatures(rpc: Rpc<SolanaRpcApi>, key: Address, limit: number, before?: Signature) {
  return rpc.getSignaturesForAddress(key, { limit, commitment: 'confirmed', ...(before ? { before } : {}) }).send();
}

export interface WalkedTransaction {
  signature: string;
  slot: bigint;
  /** The wager program's events about this wager, newest first (one transaction can close a wager and open the next). */
  events: WagerProgramEvent[];
  /** The transaction as read; null when its events came from the cache or the RPC did not show it. */
  transaction: ConfirmedTransaction | null;
}

export interface WalkOptions {
  /** The wager's open slot: which opening at this address is meant. Default: the most recent one. */
  openSlot?: bigint;
  /** Transactions read before (the keeper keeps one per run); without one, every transaction is read here. */
  cache?: TransactionEventCache;
  /** Read back to the opening even when the visitor has what it needs before (it wants the opening too). */
  throughOpening?: boolean;
  /** Signatures per getSignaturesForAddress call (default 100). */
  pageSize?: number;
  /** At most this many pages (default: until the history ends). */
  pages?: number;
}

/** The wager's successful transactions, newest first, page by page until its history ends (or the caller stops). */
async function* wagerTransactions(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address, options: WalkOptions): AsyncGenerator<WalkedTransaction> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  let before: Signature | undefined;
  for (let pages = 1; ; pages++) {
    const page = await newestSignatures(rpc, wager, pageSize, before);
    for (const entry of page) {
      if (entry.err) continue; // a failed transaction changed nothing and has no events
      const read = await readTransactionEvents(rpc, entry.signature, program, options.cache);
      const events = (read?.events ?? []).filter((e) => 'wager' in e.data && e.data.wager === wager).reverse();
      yield { signature: entry.signature, slot: entry.slot, events, transaction: read?.transaction ?? null };
    }
    if (page.length < pageSize || pages === options.pages) return;
    before = page.at(-1)!.signature;
  }
}

export interface OpeningVisitor {
  /** An event of the opening meant, newest first; true when the visitor has what it needs. */
  visit(event: WagerProgramEvent, tx: WalkedTransaction): boolean;
  /** Everything visited so far belongs to a wager opened later at this address: forget it. */
  reset?(): void;
  /** The opening meant, where the walk ends. */
  opened?(event: WagerOpenedEvent, tx: WalkedTransaction): void;
}

/**
 * Walks the wager's history newest first and hands the visitor only the events of the opening meant:
 * events of a later opening are dropped (`reset`), and the walk ends at the opening itself. With no open
 * slot it also ends as soon as `visit` says it has what it needs (unless `throughOpening`).
 */
export async function walkToOpening(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address, options: WalkOptions, visitor: OpeningVisitor): Promise<void> {
  for await (const tx of wagerTransactions(rpc, wager, program, options)) {
    for (const event of tx.events) {
      if (event.name === 'WagerOpened') {
        if (options.openSlot === undefined || event.data.openSlot === options.openSlot) {
          visitor.opened?.(event.data, tx);
          return;
        }
        visitor.reset?.();
      } else if (visitor.visit(event, tx)) {
        // Without an open slot the first opening met is the one meant, so what was found is its.
        if (options.openSlot === undefined && !options.throughOpening) return;
      }
    }
  }
}
