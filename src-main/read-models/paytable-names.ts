/** Paytable names for the queue (a wager stores its paytable's address; the name lives in that account). */
import { type Address, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { fetchAllMaybePaytable } from '../protocol/generated/wager';
import { decodePaytableName } from '../protocol/wager';

/** Reads the paytable accounts (one getMultipleAccounts) and decodes their names; absent ones are left out. */
export async function fetchPaytableNames(rpc: Rpc<SolanaRpcApi>, addresses: string[]): Promise<Map<string, string>> {
  const accounts = await fetchAllMaybePaytable(rpc, addresses as Address[], { commitment: 'confirmed' });
  return new Map(accounts.flatMap((account) => (account.exists ? [[account.address as string, decodePaytableName(account.data.name)] as const] : [])));
}
