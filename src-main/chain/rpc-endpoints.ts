/**
 * The RPC endpoints a keeper, gateway or `serve --rpc` uses (issue 27): read endpoints in order of
 * preference, each with its WebSocket URL, and send endpoints that only get transactions (a staked
 * connection, a sender service). `--rpc` repeatable, `--ws` once or once per `--rpc`, `--send-rpc` repeatable.
 */
import type { RpcEndpointStatus } from '../../src-shared/contract/status';
import { maskUrl } from '../../src-shared/mask-url';
import { RPC_URL_PROTOCOLS } from '../../src-shared/settings/rpc-endpoints';

export interface ReadEndpoint {
  rpcUrl: string;
  wsUrl: string;
}

export interface ChainEndpoints {
  /** The first is preferred: reads go back to it once it is healthy again. */
  reads: ReadEndpoint[];
  /** Each transaction is also sent here (never read from). */
  sends: string[];
}

export type { RpcEndpointStatus };

/** The WebSocket URL a validator serves next to its HTTP RPC: same host, port + 1, ws(s) scheme. */
export function defaultWebSocketUrl(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.port) url.port = String(Number(url.port) + 1);
  return url.toString().replace(/\/$/, '');
}

/** An endpoint's URL as it may be logged or shown: API keys in the path or query masked. */
export const endpointLabel = (url: string): string =>
  maskUrl(url).replace(/^(\w+:\/\/[^/?]+)\/(?=\?|$)/, '$1');

/**
 * The endpoints the flags name. `ws`: none → each derived from its RPC URL; one → serves every read
 * endpoint; as many as `rpc` → paired in order; any other count is an Error (one sentence).
 * @example endpointsFromFlags(['https://a', 'https://b'], ['wss://a'], []) // both read through wss://a
 */
export function endpointsFromFlags(rpc: string[], ws: string[], sendRpc: string[]): ChainEndpoints {
  if (rpc.length === 0) throw new Error('give at least one --rpc URL (the cluster to read from)');
  if (ws.length > 1 && ws.length !== rpc.length)
    throw new Error(
      `--ws was given ${ws.length} times for ${rpc.length} --rpc URLs: give it once (for every endpoint) or once per --rpc, in the same order`,
    );
  for (const url of [...rpc, ...sendRpc]) checkHttpUrl(url, rpc.includes(url) ? '--rpc' : '--send-rpc');
  const reads = rpc.map((rpcUrl, i) => ({
    rpcUrl,
    wsUrl: ws.length === 0 ? defaultWebSocketUrl(rpcUrl) : ws.length === 1 ? ws[0]! : ws[i]!,
  }));
  return { reads, sends: [...new Set(sendRpc)] };
}

function checkHttpUrl(url: string, flag: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${flag} ${endpointLabel(url)} is not a URL: give an http(s):// address`);
  }
  if (!RPC_URL_PROTOCOLS.includes(parsed.protocol))
    throw new Error(`${flag} ${endpointLabel(url)} must be an http(s):// URL`);
}
