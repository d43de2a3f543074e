/**
 * How a closed wager ended, read from the chain: the transaction that settled, expired or delivered it,
 * found among the wager's signatures and decoded from its events. This is how a keeper that lost a race
 * records the winner's outcome.
 */
import type { Address, Rpc, Signature, SolanaRpcApi } from '@solana/kit';
import { decodeWagerEventsFromLogs } from '../protocol/wager';

export type WagerOutcome =
  /** `pending`: the payout is parked; `claimSignature`: it was delivered later by claim_payout. */
  | { kind: 'settled'; signature: string; bucket: number; payout: bigint; pending: boolean; claimSignature?: string }
  | { kind: 'expired'; signature: string }
  | { kind: 'unknown' };

export async function resolveWagerOutcome(rpc: Rpc<SolanaRpcApi>, wager: Address, program: Address): Promise<WagerOutcome> {
  const signatures = await rpc.getSignaturesForAddress(wager, { limit: 20, commitment: 'confirmed' }).send();
  let claimSignature: string | undefined;
  for (const entry of signatures) {
    if (entry.err) continue;
    const tx = await rpc
      .getTransaction(entry.signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' })
      .send();
    for (const event of decodeWagerEventsFromLogs(tx?.meta?.logMessages ?? [], program)) {
      if (!('wager' in event.data) || event.data.wager !== wager) continue;
      if (event.name === 'PayoutClaimed') claimSignature = entry.signature;
      if (event.name === 'WagerExpired') return { kind: 'expired', signature: entry.signature };
      if (event.name === 'WagerSettled') {
        const { bucket, payout, pending } = event.data;
        return { kind: 'settled', signature: entry.signature, bucket, payout, pending: pending === 1 && !claimSignature, ...(claimSignature ? { claimSignature } : {}) };
      }
    }
  }
  return { kind: 'unknown' };
}
