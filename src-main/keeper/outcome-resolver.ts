/**
 * How a closed wager ended, read from the chain: the transaction that settled, expired or delivered it,
 * found among the wager's signatures and decoded from its events. This is how a keeper that lost a race
 * records the winner's outcome.
 */
import type { Address, Rpc, Signature, SolanaRpcApi } from '@solana/kit';
import { decodeWagerEventsFromLogs } from '../protocol/wager';

export type WagerOutcome =
  /** `pending`: the payout is parked; `claimSignature`: it was delivered later by claim_payout. */
  | { kind: 'settled'; signature: string; bucket: number; payout: bigint; pending: boolean; claimSignature?: string; request?: RequestTransaction }
  | { kind: 'expired'; signature: string; request?: RequestTransaction }
  | { kind: 'unknown' };

export interface RequestTransaction {
  signature: string;
  slot: bigint;
}

export async function resolveWagerOutcome(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address): Promise<WagerOutcome> {
  const signatures = await rpc.getSignaturesForAddress(wager, { limit: 20, commitment: 'confirmed' }).send();
  let claimSignature: string | undefined;
  let closing: WagerOutcome | undefined;
  let request: RequestTransaction | undefined;
  // Newest first: a claim, then the settlement or expiry, then the request.
  for (const entry of signatures) {
    if (entry.err) continue;
    const tx = await rpc
      .getTransaction(entry.signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' })
      .send();
    for (const event of decodeWagerEventsFromLogs(tx?.meta?.logMessages ?? [], program)) {
      if (!('wager' in event.data) || event.data.wager !== wager) continue;
      if (event.name === 'PayoutClaimed') claimSignature = entry.signature;
      if (event.name === 'WagerExpired') closing ??= { kind: 'expired', signature: entry.signature };
      if (event.name === 'WagerSettled') {
        const { bucket, payout, pending } = event.data;
        closing ??= { kind: 'settled', signature: entry.signature, bucket, payout, pending: pending === 1 && !claimSignature, ...(claimSignature ? { claimSignature } : {}) };
      }
      if (event.name === 'WagerRandomnessRequested') request ??= { signature: entry.signature, slot: entry.slot };
    }
    if (closing && (request || closing.kind === 'expired')) break;
  }
  if (closing) return { ...closing, ...(request ? { request } : {}) };
  return { kind: 'unknown' };
}

/** The transaction that requested the wager's randomness (its WagerRandomnessRequested event), if any. */
export async function findRequestTransaction(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address): Promise<{ signature: string; slot: bigint } | null> {
  const signatures = await rpc.getSignaturesForAddress(wager, { limit: 20, commitment: 'confirmed' }).send();
  for (const entry of signatures) {
    if (entry.err) continue;
    const tx = await rpc
      .getTransaction(entry.signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' })
      .send();
    const requested = decodeWagerEventsFromLogs(tx?.meta?.logMessages ?? [], program).some(
      (event) => event.name === 'WagerRandomnessRequested' && event.data.wager === wager,
    );
    if (requested) return { signature: entry.signature, slot: entry.slot };
  }
  return null;
}
