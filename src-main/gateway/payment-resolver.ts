/**
 * What became of a payment recorded `pending` (broadcast, its confirmation not seen: a crash, a lost
 * notification, a slow cluster), by its signature's status: landed (its wager is then opened or the
 * payment refunded), failed on chain or never landed before its blockhash expired (dropped: no USDC
 * moved), or still undecided. The blockhash is read before the status: a blockhash already expired when
 * the status says "unknown" means the payment can no longer land.
 */
import type { Blockhash, Rpc, Signature, SolanaRpcApi } from '@solana/kit';
import type { PaymentRecord } from './payment-records';

export type PaymentFate = { landed: true } | { landed: false; dropped: string } | { landed: false; dropped?: undefined };

export async function paymentFate(rpc: Rpc<SolanaRpcApi>, record: Pick<PaymentRecord, 'settlement' | 'blockhash'>): Promise<PaymentFate> {
  const valid = record.blockhash ? (await rpc.isBlockhashValid(record.blockhash as Blockhash, { commitment: 'confirmed' }).send()).value : false;
  const [status] = (await rpc.getSignatureStatuses([record.settlement as Signature], { searchTransactionHistory: true }).send()).value;
  if (status && (status.confirmationStatus === 'confirmed' || status.confirmationStatus === 'finalized')) {
    if (!status.err) return { landed: true };
    const reason = JSON.stringify(status.err, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    return { landed: false, dropped: `the payment failed on chain (${reason}); no USDC moved` };
  }
  if (!status && !valid) return { landed: false, dropped: 'the payment never landed (its blockhash expired first); no USDC moved' };
  return { landed: false };
}
