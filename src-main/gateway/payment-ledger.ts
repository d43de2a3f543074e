/**
 * Ties a payment on its way to the chain to the order it pays for: a request settles its payment inside
 * `settling(intent, …)`, and the facilitator's send, deep in the x402 library, finds that intent here
 * (AsyncLocalStorage) and records the payment `pending` (the signed transaction, its signature, its
 * blockhash and the order) before it is broadcast. The payments being settled by a request are that
 * request's; the resolver (payment-resolver.ts) takes the others.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { getBase64Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder, type ReadonlyUint8Array } from '@solana/kit';
import type { PaymentRecord, PaymentRecords } from './payment-records';
import type { PaymentBroadcasts } from './x402-seller';

/** What a paid request is buying: recorded with its payment before the payment is sent. */
export type PaymentIntent = Pick<PaymentRecord, 'proof' | 'payer' | 'amount' | 'paytable' | 'stake' | 'beneficiary' | 'nonce' | 'wager'> & {
  /** The payment transaction as the caller signed it (base64): the one about to be sent must be the same message. */
  transaction: string;
};

export interface PaymentLedger extends PaymentBroadcasts {
  /** Runs `work` (the request's settlement) with `intent` as the payment being settled. */
  settling<T>(intent: PaymentIntent, work: () => Promise<T>): Promise<T>;
  /** True while a request is settling this proof's payment (the resolver leaves it alone). */
  isSettling(proof: string): boolean;
}

const messageOf = (transaction: string) => getTransactionDecoder().decode(getBase64Encoder().encode(transaction)).messageBytes;

const sameBytes = (a: ReadonlyUint8Array, b: ReadonlyUint8Array) => a.length === b.length && a.every((byte, index) => byte === b[index]);

export function createPaymentLedger(records: PaymentRecords): PaymentLedger {
  const current = new AsyncLocalStorage<PaymentIntent>();
  const settling = new Set<string>();
  return {
    async settling(intent, work) {
      settling.add(intent.proof);
      try {
        return await current.run(intent, work);
      } finally {
        settling.delete(intent.proof);
      }
    },
    isSettling: (proof) => settling.has(proof),
    broadcasting(transaction, signature) {
      const intent = current.getStore();
      // Nothing is sent that is not recorded against the order it pays for.
      if (!intent) throw new Error('a payment was about to be sent outside of a paid request: refused');
      // A refund goes to the payer: a payment whose payer (and its signature) could not be read is not sent.
      if (!intent.payer) throw new Error("the payment's payer could not be read from it: refused");
      const message = messageOf(transaction);
      if (!sameBytes(message, messageOf(intent.transaction))) throw new Error('the payment about to be sent is not the one this request carries: refused');
      const { lifetimeToken } = getCompiledTransactionMessageDecoder().decode(message);
      records.recordPending({
        proof: intent.proof,
        payer: intent.payer,
        amount: intent.amount,
        paytable: intent.paytable,
        stake: intent.stake,
        beneficiary: intent.beneficiary,
        nonce: intent.nonce,
        wager: intent.wager,
        settlement: signature,
        payment: transaction,
        blockhash: lifetimeToken,
      });
    },
    unsent(signature) {
      records.forgetUnsent(signature);
    },
    failed(signature, reason) {
      const record = records.bySettlement(signature);
      if (record?.state === 'pending') records.markDropped(record.proof, `the payment failed on chain (${reason}); no USDC moved`);
    },
  };
}
