/**
 * Which cluster an RPC serves, from its genesis hash (the one fact a cluster cannot fake by URL), and what
 * went wrong reaching one, in words. No imports: the deployment finder, the commands and the console's
 * types all read these.
 */

/** The cluster names the console and the deployment files use. */
export type ClusterName = 'localnet' | 'devnet' | 'testnet' | 'mainnet-beta' | 'custom';

/** mainnet-beta's genesis hash: real money; the faucet never runs there and a person confirms deploys and sweeps. */
export const MAINNET_BETA_GENESIS_HASH = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d';

/** Genesis hashes of Solana's public clusters. */
export const KNOWN_GENESIS_HASHES: Readonly<Record<string, ClusterName>> = {
  [MAINNET_BETA_GENESIS_HASH]: 'mainnet-beta',
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

/** How long a connection test waits for the RPC's answers. */
export const RPC_TEST_TIMEOUT_MS = 8_000;

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
          ? `no answer within ${RPC_TEST_TIMEOUT_MS / 1000} s`
          : `${(error as Error)?.message ?? String(error)}${cause?.message ? ` (${cause.message})` : ''}`;
  return `cannot reach the RPC at ${rpcUrl}: ${what}. Check the URL (scheme, host and port) and that the node is running.`;
}
