/**
 * The console contract, cluster: which cluster the core runs on, what is known of it and the deployment
 * found there.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */
import type { ClusterName } from '../cluster-identity';

/** Which cluster the core runs on: the embedded localnet, or an RPC the operator named. */
export type ClusterSetting =
  | { kind: 'embedded' }
  | {
      kind: 'rpc';
      rpcUrl: string;
      wsUrl: string | null;
      /** Read endpoints after rpcUrl, tried in order when it fails or lags (each WebSocket derived from its URL); absent: none. */
      fallbackRpcUrls?: string[];
      /** Endpoints every transaction is also sent to (a staked connection, a sender service); absent: none. */
      sendRpcUrls?: string[];
    };

export interface ClusterView {
  /** From the genesis hash (a wager-keeper localnet, embedded or not, is `localnet`). */
  name: ClusterName;
  rpcUrl: string;
  wsUrl: string;
  genesisHash: string | null;
  /** This app's own embedded localnet. */
  embedded: boolean;
  /** A wager-keeper localnet (its manifest answers): dev keys, faucet and the demo app are available. */
  wagerKeeperLocalnet: boolean;
  /** The deployment the keeper runs against here (null: none known, see `noDeployment`). */
  deployment: DeploymentView | null;
  /** When no deployment is known for this cluster: says so, naming the cluster and its genesis hash, and how to load one. */
  noDeployment: string | null;
  /** The RPC endpoints came from this run's --rpc/--send-rpc flags (Settings → RPC shows them read-only). */
  endpointsByFlags?: boolean;
}

/** The status line's cluster badge: "embedded localnet", "localnet", "devnet", "mainnet-beta", "custom" (the UI and the first paint of `serve`'s page). */
export const clusterLabel = (cluster: Pick<ClusterView, 'name' | 'embedded'> | null): string =>
  cluster ? (cluster.embedded ? `embedded ${cluster.name}` : cluster.name) : 'no cluster';

/**
 * What the console page may carry before its token is checked (the first paint, see console-first-paint.ts):
 * public facts only, the same the public /v1/health and a block explorer show, never the RPC URL (it may
 * hold an API key).
 */
export interface FirstGlance {
  keeper: { address: string; shard: string | null } | null;
  cluster: Pick<ClusterView, 'name' | 'embedded'> | null;
}

/** Where the service is on a cluster: the deployment document's addresses, as Settings → Cluster shows them. */
export interface DeploymentView {
  clusterName: ClusterName;
  genesisHash: string;
  wagerProgram: string;
  oracleProgram: string;
  /** "ORAO VRF" for ORAO's program, else "local oracle". */
  oracleName: 'ORAO VRF' | 'local oracle';
  usdcMint: string;
  pool: string;
  config: string;
  paytables: { name: string; address: string }[];
  /** The deployment's public keeper (its /v1 base URL), whose faucet the console may ask. */
  keeperApi: string | null;
  /** Where it was found: a deployment file (its path: named, loaded in Settings, or in a deployments folder), or the localnet's own. */
  source: { kind: 'file' | 'folder'; path: string } | { kind: 'localnet' };
}
