/**
 * The Settings screen's connection test: version, slot, genesis, latency, or a clear error for a bad URL.
 */
import { createSolanaRpc } from '@solana/kit';
import { clusterNameOf, describeRpcFailure, RPC_TEST_TIMEOUT_MS } from '../../src-shared/cluster-identity';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import type { ConnectionTest } from '../../src-shared/contract/settings';

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
    const signal = AbortSignal.timeout(RPC_TEST_TIMEOUT_MS);
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
