/** The kit RPC and subscription clients for a cluster, from its HTTP URL (and WebSocket URL). */
import { createSolanaRpcFromTransport, createSolanaRpcSubscriptions, type Rpc, type RpcSubscriptions, type SolanaRpcApi, type SolanaRpcSubscriptionsApi } from '@solana/kit';
import { createResilientTransport, type ResilientTransportOptions } from './resilient-transport';

export interface ChainConnection {
  rpcUrl: string;
  wsUrl: string;
  rpc: Rpc<SolanaRpcApi>;
  subscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>;
}

/** The WebSocket URL a validator serves next to its HTTP RPC: same host, port + 1, ws(s) scheme. */
export function defaultWebSocketUrl(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.port) url.port = String(Number(url.port) + 1);
  return url.toString().replace(/\/$/, '');
}

/** A kit RPC over the resilient transport: retries, Retry-After honoured, stale answers refused. */
export function createChainRpc(rpcUrl: string, options: Omit<ResilientTransportOptions, 'url'> = {}): Rpc<SolanaRpcApi> {
  return createSolanaRpcFromTransport(createResilientTransport({ url: rpcUrl, ...options })) as Rpc<SolanaRpcApi>;
}

export function connectToChain(rpcUrl: string, wsUrl = defaultWebSocketUrl(rpcUrl), options: Omit<ResilientTransportOptions, 'url'> = {}): ChainConnection {
  return { rpcUrl, wsUrl, rpc: createChainRpc(rpcUrl, options), subscriptions: createSolanaRpcSubscriptions(wsUrl) };
}
