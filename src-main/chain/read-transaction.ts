/**
 * A landed transaction as the console and keeper read it back: JSON encoding, version 0 allowed (a
 * validator refuses a v0 transaction to a client that does not say it reads them), confirmed.
 */
import type { Rpc, Signature, SolanaRpcApi } from '@solana/kit';

export type ConfirmedTransaction = NonNullable<Awaited<ReturnType<ReturnType<Rpc<SolanaRpcApi>['getTransaction']>['send']>>>;

/** The transaction, or null when the RPC does not have it (not landed, or past its history). */
export async function readConfirmedTransaction(rpc: Rpc<SolanaRpcApi>, signature: string): Promise<ConfirmedTransaction | null> {
  return (await rpc
    .getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' })
    .send()) as ConfirmedTransaction | null;
}
