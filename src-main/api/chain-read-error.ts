/**
 * Whether an exception thrown while answering a request means "the keeper cannot read the chain" (the
 * RPC is unreachable, answered with an HTTP error or a malformed answer, or reported a fault of its own),
 * as opposed to a fault of the keeper itself (including a request the RPC refused as malformed: a bug). The public API answers the first with 503 `cannot read the chain` and the
 * second with 500 `internal error`.
 */
import {
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__INTERNAL_ERROR,
  SOLANA_ERROR__MALFORMED_JSON_RPC_ERROR,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
} from '@solana/kit';

/** Socket-level failures under fetch (undici puts the system or undici error code on `cause.code`). */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
]);

/**
 * @example
 * isChainReadError(await fetch('http://127.0.0.1:1').catch((e) => e)) // true: connection refused
 */
/**
 * The keeper is not running at this moment (the console is switching clusters, or the last start failed):
 * answered like an unreadable chain, 503 with Retry-After, since it passes on its own or once fixed.
 */
export class KeeperUnavailableError extends Error {
  override name = 'KeeperUnavailableError';
}

export function isChainReadError(error: unknown): boolean {
  if (error instanceof KeeperUnavailableError) return true;
  if (isSolanaError(error)) {
    const code = error.context.__code as number;
    // The JSON-RPC server-error range (-32099..-32000: node unhealthy, behind, slot skipped...) and -32603
    // (the server's own internal error) are the RPC failing. -32700/-32600/-32601/-32602 (parse error,
    // invalid request, unknown method, invalid params) mean the keeper sent a bad request: a bug, so a 500.
    return (
      code === SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR ||
      code === SOLANA_ERROR__MALFORMED_JSON_RPC_ERROR ||
      code === SOLANA_ERROR__JSON_RPC__INTERNAL_ERROR ||
      (code >= -32_099 && code <= -32_000)
    );
  }
  if (!(error instanceof Error)) return false;
  // fetch rejects with TypeError('fetch failed') for every network failure; the reason is its cause.
  if (error instanceof TypeError && error.message === 'fetch failed') return true;
  const code = (error as { code?: unknown }).code;
  const causeCode = (error.cause as { code?: unknown } | undefined)?.code;
  return (
    (typeof code === 'string' && (NETWORK_ERROR_CODES.has(code) || code.startsWith('UND_ERR_'))) ||
    (typeof causeCode === 'string' && (NETWORK_ERROR_CODES.has(causeCode) || causeCode.startsWith('UND_ERR_')))
  );
}
