/**
 * How a wager ended, read from the chain: the transactions that requested, settled, expired or delivered
 * it, found among the wager's signatures (paged back to the opening, so a busy wager is not missed) and
 * decoded from their events. This is how a keeper that lost a race, or found a wager someone else moved,
 * records the winner's transactions. The walk itself, with the reopened-address rule, is
 * history/wager-history-walk.ts.
 */
import type { Address, Rpc, SolanaRpcApi } from '@solana/kit';
import { readTransactionEvents, type TransactionEventCache } from '../history/transaction-events';
import { walkToOpening, type WalkOptions } from '../history/wager-history-walk';

export type WagerOutcome =
  /** `pending`: the payout is parked; `claimSignature`: it was delivered later by claim_payout. */
  | { kind: 'settled'; signature: string; slot: bigint; bucket: number; payout: bigint; pending: boolean; claimSignature?: string; request?: RequestTransaction; openSlot?: bigint }
  | { kind: 'expired'; signature: string; slot: bigint; request?: RequestTransaction; openSlot?: bigint }
  | { kind: 'unknown' };

export interface RequestTransaction {
  signature: string;
  slot: bigint;
}

/** Which opening is meant (default: the most recent one), the keeper's cache, and whether to read through the opening. */
export type HistoryOptions = Pick<WalkOptions, 'openSlot' | 'cache' | 'throughOpening'>;

/** How the opening meant ended (settled, expired, or unknown while its history shows neither), with its request. */
export async function resolveWagerOutcome(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address, options: HistoryOptions = {}): Promise<WagerOutcome> {
  let claimSignature: string | undefined;
  let closing: WagerOutcome | undefined;
  let request: RequestTransaction | undefined;
  let openSlot: bigint | undefined;
  // Newest first: a claim, then the settlement or expiry, then the request.
  await walkToOpening(rpc, wager, program, options, {
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
    opened: (event) => (openSlot = event.openSlot),
  });
  const found = closing as WagerOutcome | undefined; // assigned in the callbacks above
  if (found) return { ...found, ...(request ? { request } : {}), ...(openSlot !== undefined ? { openSlot } : {}) };
  return { kind: 'unknown' };
}

/** The transaction that requested the wager's randomness (its WagerRandomnessRequested event), if any. */
export async function findRequestTransaction(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address, options: HistoryOptions = {}): Promise<RequestTransaction | null> {
  let request: RequestTransaction | null = null;
  await walkToOpening(rpc, wager, program, options, {
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
  const read = await readTransactionEvents(rpc, signature, program, cache);
  const event = read?.events.find((e) => e.name === 'WagerSettled' && e.data.wager === wager);
  if (event?.name !== 'WagerSettled') return null;
  return { bucket: event.data.bucket, payout: event.data.payout, pending: event.data.pending === 1 };
}
