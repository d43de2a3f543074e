/**
 * Which cluster an RPC serves, from its genesis hash (the one fact a cluster cannot fake by URL), and
 * the Settings screen's connection test: version, slot, genesis, latency, or a clear error for a bad URL.
 */
import { createSolanaRpc } from '@solana/kit';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import type { ClusterName, ConnectionTest } from './operator-interface';

/** Genesis hashes of Solana's public clusters. */
export const KNOWN_GENESIS_HASHES: Readonly<Record<string, ClusterName>> = {
  '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d': 'mainnet-beta',
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG: 'devnet',
  '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY': 'testnet',
};

/**
 * @example clusterNameOf('EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG', false) // 'devnet'
 * A wager-keeper localnet (its manifest answers) is `localnet`; an unknown genesis is `custom`.
 */
export function clusterNameOf(genesisHash: string | null, wagerKeeperLocalnet: boolean): ClusterName {
  if (wagerKeeperLocalnet) return 'localnet';
  return (genesisHash && KNOWN_GENESIS_HASHES[genesisHash]) || 'custom';
}

const TEST_TIMEOUT_MS = 8_000;

/** What went wrong reaching `rpcUrl`, in words an operator can act on. */
export function describeRpcFailure(rpcUrl: string, error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code ?? (error as { code?: string })?.code;
  const what =
    code === 'ECONNREFUSED'
      ? 'nothing listens there (connection refused)'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host name does not resolve'
        : (error as Error)?.name === 'TimeoutError' || (error as Error)?.name === 'AbortError'
          ? `no answer within ${TEST_TIMEOUT_MS / 1000} s`
          : `${(error as Error)?.message ?? String(error)}${cause?.message ? ` (${cause.message})` : ''}`;
  return `cannot reach the RPC at ${rpcUrl}: ${what}. Check the URL (scheme, host and port) and that the node is running.`;
}

/** Asks the RPC for its version, slot and genesis hash; never throws (a failure is `{ ok: false, error }`). */
export async function testRpcConnection(rpcUrl: string): Promise<ConnectionTest> {
  let url: URL;
  try {
    url = new URL(rpcUrl.trim());
  } catch {
    return { ok: false, rpcUrl, error: `'${rpcUrl}' is not a URL: give one like https://api.devnet.solana.com or http://127.0.0.1:8899` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, rpcUrl, error: `an RPC URL starts with http:// or https:// (got ${url.protocol}//): like https://api.devnet.solana.com` };
  const rpc = createSolanaRpc(url.toString());
  const started = performance.now();
  try {
    const signal = AbortSignal.timeout(TEST_TIMEOUT_MS);
    const [version, slot, genesisHash] = await Promise.all([
      rpc.getVersion().send({ abortSignal: signal }),
      rpc.getSlot({ commitment: 'confirmed' }).send({ abortSignal: signal }),
      rpc.getGenesisHash().send({ abortSignal: signal }),
    ]);
    const latencyMs = Math.round(performance.now() - started);
    const wagerKeeperLocalnet = await fetchLocalnetManifest(url.toString()).then(() => true, () => false);
    return {
      ok: true,
      rpcUrl: url.toString(),
      version: version['solana-core'],
      slot: Number(slot),
      genesisHash,
      cluster: clusterNameOf(genesisHash, wagerKeeperLocalnet),
      latencyMs,
      wagerKeeperLocalnet,
    };
  } catch (error) {
    return { ok: false, rpcUrl, error: describeRpcFailure(rpcUrl, error) };
  }
}
