/** The kit RPC and subscription clients for a cluster, from its HTTP URL (and WebSocket URL). */
import { createSolanaRpc, createSolanaRpcSubscriptions, type Rpc, type RpcSubscriptions, type SolanaRpcApi, type SolanaRpcSubscriptionsApi } from '@solana/kit';

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

export function connectToChain(rpcUrl: string, wsUrl = defaultWebSocketUrl(rpcUrl)): ChainConnection {
  return { rpcUrl, wsUrl, rpc: createSolanaRpc(rpcUrl), subscriptions: createSolanaRpcSubscriptions(wsUrl) };
}
