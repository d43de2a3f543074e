/** The kit RPC and subscription clients for a cluster: one endpoint, or several with failover (issue 27). */
import {
  createSolanaRpcFromTransport,
  createSolanaRpcSubscriptions,
  type Rpc,
  type RpcSubscriptions,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi,
} from '@solana/kit';
import { createEndpointPool, type EndpointPoolOptions } from './endpoint-pool';
import { createFailoverTransport } from './failover-transport';
import { createResilientTransport, type ResilientTransportOptions } from './resilient-transport';
import { defaultWebSocketUrl, type ChainEndpoints, type RpcEndpointStatus } from './rpc-endpoints';
import { createSwitchingSubscriptions } from './switching-subscriptions';

export { defaultWebSocketUrl } from './rpc-endpoints';

export interface ChainConnection {
  /** The preferred read endpoint's URLs. */
  rpcUrl: string;
  wsUrl: string;
  rpc: Rpc<SolanaRpcApi>;
  /** Made on the endpoint in use (moved on a switch). */
  subscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>;
  /** Live health of every endpoint, for status, metrics and Settings → RPC. */
  endpoints(): RpcEndpointStatus[];
  /** When reads left the preferred endpoint (null while on it). */
  failedOverSince(): Date | null;
  /** Told each time reads move to another endpoint (masked labels, and why). */
  onEndpointSwitch(listener: (from: string, to: string, why: string) => void): () => void;
  /** Stops health probes. */
  close(): void;
}

/** A kit RPC over the resilient transport: retries, Retry-After honoured, stale answers refused. */
export function createChainRpc(
  rpcUrl: string,
  options: Omit<ResilientTransportOptions, 'url'> = {},
): Rpc<SolanaRpcApi> {
  return createSolanaRpcFromTransport(
    createResilientTransport({ url: rpcUrl, ...options }),
  ) as Rpc<SolanaRpcApi>;
}

export type ConnectOptions = Omit<EndpointPoolOptions, 'endpoints'>;

/**
 * `connectToChain(rpcUrl, wsUrl?)` as before, or `connectToChain(endpoints, options)`: reads fail over
 * between the read endpoints, transactions also go to the send endpoints.
 */
export function connectToChain(endpoints: ChainEndpoints, options?: ConnectOptions): ChainConnection;
export function connectToChain(
  rpcUrl: string,
  wsUrl?: string,
  options?: Omit<ResilientTransportOptions, 'url'>,
): ChainConnection;
export function connectToChain(
  first: string | ChainEndpoints,
  second?: string | ConnectOptions,
  third: Omit<ResilientTransportOptions, 'url'> = {},
): ChainConnection {
  const endpoints: ChainEndpoints =
    typeof first === 'string'
      ? {
          reads: [{ rpcUrl: first, wsUrl: (second as string | undefined) ?? defaultWebSocketUrl(first) }],
          sends: [],
        }
      : first;
  const options: ConnectOptions =
    typeof first === 'string' ? { transport: third } : ((second as ConnectOptions | undefined) ?? {});
  const pool = createEndpointPool({ ...options, endpoints });
  const preferred = endpoints.reads[0]!;
  const several = endpoints.reads.length > 1;
  return {
    rpcUrl: preferred.rpcUrl,
    wsUrl: preferred.wsUrl,
    rpc: createSolanaRpcFromTransport(createFailoverTransport(pool)) as Rpc<SolanaRpcApi>,
    // One endpoint: kit's client as before (nothing to move between).
    subscriptions: several
      ? createSwitchingSubscriptions(pool)
      : createSolanaRpcSubscriptions(preferred.wsUrl),
    endpoints: () => pool.statuses(),
    failedOverSince: () => pool.failedOverSince(),
    onEndpointSwitch: (listener) => pool.onSwitch(listener),
    close: () => pool.close(),
  };
}
