/**
 * How a wager ended, read from the chain: the transactions that requested, settled, expired or delivered
 * it, found among the wager's signatures (paged back to the opening, so a busy wager is not missed) and
 * decoded from their events. This is how a keeper that lost a race, or found a wager someone else moved,
 * records the winner's transactions.
 */
import type { Address, Rpc, Signature, SolanaRpcApi } from '@solana/kit';
import { decodeWagerEventsFromLogs, type WagerProgramEvent } from '../protocol/wager';

export type WagerOutcome =
  /** `pending`: the payout is parked; `claimSignature`: it was delivered later by claim_payout. */
  | { kind: 'settled'; signature: string; bucket: number; payout: bigint; pending: boolean; claimSignature?: string; request?: RequestTransaction }
  | { kind: 'expired'; signature: string; request?: RequestTransaction }
  | { kind: 'unknown' };

export interface RequestTransaction {
  signature: string;
  slot: bigint;
}

/** Signatures per getSignaturesForAddress call (the RPC allows up to 1 000). */
const PAGE_SIZE = 100;

interface WagerTransaction {
  signature: string;
  slot: bigint;
  /** The wager program's events about this wager. */
  events: WagerProgramEvent[];
}

/** The wager's successful transactions, newest first, page by page until its history ends. */
async function* wagerTransactions(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address): AsyncGenerator<WagerTransaction> {
  let before: Signature | undefined;
  for (;;) {
    const page = await rpc.getSignaturesForAddress(wager, { limit: PAGE_SIZE, commitment: 'confirmed', ...(before ? { before } : {}) }).send();
    for (const entry of page) {
      if (entry.err) continue; // a failed transaction changed nothing and has no events
      const tx = await rpc.getTransaction(entry.signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send();
      const events = decodeWagerEventsFromLogs(tx?.meta?.logMessages ?? [], program).filter((e) => 'wager' in e.data && e.data.wager === wager);
      yield { signature: entry.signature, slot: entry.slot, events };
    }
    if (page.length < PAGE_SIZE) return;
    before = page.at(-1)!.signature;
  }
}

export async function resolveWagerOutcome(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address): Promise<WagerOutcome> {
  let claimSignature: string | undefined;
  let closing: WagerOutcome | undefined;
  let request: RequestTransaction | undefined;
  // Newest first: a claim, then the settlement or expiry, then the request.
  for await (const { signature, slot, events } of wagerTransactions(rpc, wager, program)) {
    for (const event of events) {
      if (event.name === 'PayoutClaimed') claimSignature = signature;
      if (event.name === 'WagerExpired') closing ??= { kind: 'expired', signature };
      if (event.name === 'WagerSettled') {
        const { bucket, payout, pending } = event.data;
        closing ??= { kind: 'settled', signature, bucket, payout, pending: pending === 1 && !claimSignature, ...(claimSignature ? { claimSignature } : {}) };
      }
      if (event.name === 'WagerRandomnessRequested') request ??= { signature, slot };
    }
    if (closing && (request || closing.kind === 'expired')) break;
  }
  if (closing) return { ...closing, ...(request ? { request } : {}) };
  return { kind: 'unknown' };
}

/** The transaction that requested the wager's randomness (its WagerRandomnessRequested event), if any. */
export async function findRequestTransaction(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address): Promise<RequestTransaction | null> {
  for await (const { signature, slot, events } of wagerTransactions(rpc, wager, program)) {
    if (events.some((event) => event.name === 'WagerRandomnessRequested')) return { signature, slot };
  }
  return null;
}

/** The WagerSettled event of one settle transaction, or null while the RPC cannot show it (yet). */
export async function readSettlement(rpc: Rpc<SolanaRpcApi>, signature: string, wager: Address, program: Address) {
  const tx = await rpc.getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send();
  const event = decodeWagerEventsFromLogs(tx?.meta?.logMessages ?? [], program).find((e) => e.name === 'WagerSettled' && e.data.wager === wager);
  if (event?.name !== 'WagerSettled') return null;
  return { bucket: event.data.bucket, payout: event.data.payout, pending: event.data.pending === 1 };
}
