/**
 * Settings → RPC's rules as one table (issue 35): the URL schemes an RPC and a WebSocket endpoint take,
 * how many fallback read and send endpoints can be saved, and how a typed endpoint URL is tidied. The
 * core's check of a saved cluster (runtime/console-settings.ts), the `--rpc`/`--ws`/`--send-rpc` flags
 * (commands/endpoint-flags.ts, chain/rpc-endpoints.ts) and the console's forms all read it.
 */

/** The schemes of an RPC endpoint (the preferred one, a fallback, a send endpoint). */
export const RPC_URL_PROTOCOLS: readonly string[] = ['http:', 'https:'];
/** The schemes of a WebSocket endpoint. */
export const WS_URL_PROTOCOLS: readonly string[] = ['ws:', 'wss:'];

/** At most this many fallback read endpoints, and as many send endpoints (each is probed and sent to). */
export const MAX_EXTRA_ENDPOINTS = 8;

/**
 * Whether `text` (trimmed) is a URL with one of `protocols`.
 * @example hasProtocol('https://api.devnet.solana.com', RPC_URL_PROTOCOLS) // true; hasProtocol('ftp://x', RPC_URL_PROTOCOLS) // false
 */
export function hasProtocol(text: string, protocols: readonly string[]): boolean {
  try {
    return protocols.includes(new URL(text.trim()).protocol);
  } catch {
    return false;
  }
}

/**
 * An endpoint URL as it is kept in a list: trimmed, without a trailing slash (so one endpoint is listed once).
 * @example trimEndpointUrl(' https://rpc.example.com/ ') // "https://rpc.example.com"
 */
export const trimEndpointUrl = (url: string): string => url.trim().replace(/\/+$/, '');
