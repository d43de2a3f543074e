/**
 * The JSON-RPC transport every chain connection uses: kit's HTTP transport, plus what a public RPC needs
 * and kit leaves to the caller (it neither retries nor checks freshness):
 *
 * - retries of what is worth retrying: HTTP 429 (after its Retry-After, capped), 5xx, a cut connection,
 *   a call with no answer within `timeoutMs` (`readTimeoutMs` for the quick reads a keeper pass waits on:
 *   one stalled read must not hold a whole pass, and the wagers behind it, for 15 s); never a call the
 *   caller aborted;
 * - stale answers refused (and retried): an answer whose context slot is older than one this connection
 *   already saw for the same method and commitment (a lagging node behind a load balancer, a caching
 *   proxy), or whose list does not match the request (getMultipleAccounts, getSignatureStatuses answering
 *   for another set). A slot that stays lower for several answers in a row is believed (the cluster
 *   behind the URL was restarted, or the provider failed over): the floor follows it.
 *
 * Hand-written because kit has no retrying or freshness-checking transport; it wraps kit's own.
 */
import { createDefaultRpcTransport, isSolanaError, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, type RpcTransport } from '@solana/kit';

export interface ResilientTransportOptions {
  url: string;
  /** Tries per call, the first included. */
  attempts?: number;
  /** A call with no answer after this long is abandoned and tried again. */
  timeoutMs?: number;
  /** The same for the quick reads (QUICK_READS: slot, accounts, blockhash, statuses, balance), default 4 s. */
  readTimeoutMs?: number;
  /** The longest Retry-After honoured (a longer one is cut to this). */
  maxRetryAfterMs?: number;
  /** Lower answers in a row after which a lower context slot is believed. */
  staleStreakLimit?: number;
  /** Told of each retry (for logs and metrics). */
  onRetry?: (event: { method: string; attempt: number; reason: string; delayMs: number }) => void;
}

/** An answer older than what this connection already saw, or for another request. */
export class StaleAnswerError extends Error {
  constructor(method: string, why: string) {
    super(`${method}: stale answer (${why})`);
    this.name = 'StaleAnswerError';
  }
}

/** Reads a node answers from memory in milliseconds; a stalled one is better asked again than waited for. */
const QUICK_READS = new Set(['getSlot', 'getBlockHeight', 'getAccountInfo', 'getMultipleAccounts', 'getLatestBlockhash', 'getSignatureStatuses', 'getBalance', 'getTokenAccountBalance', 'getEpochInfo', 'getGenesisHash', 'getMinimumBalanceForRentExemption', 'isBlockhashValid']);

type JsonRpcPayload = { method?: unknown; params?: unknown };
type AnswerBody = { result?: unknown; error?: { code?: unknown } };

const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;
const asNumber = (value: unknown) => (typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : undefined);
const commitmentOf = (params: unknown): string => {
  if (!Array.isArray(params)) return '';
  for (const param of params) if (param && typeof param === 'object' && 'commitment' in param) return String((param as { commitment: unknown }).commitment);
  return '';
};

/** Methods whose answer is a list in the order of the first parameter's list. */
const LIST_METHODS = new Set(['getMultipleAccounts', 'getSignatureStatuses']);

/** The slot an answer speaks for: its context slot, or getSlot's own number. */
function answerSlot(method: string, result: unknown): number | undefined {
  if (method === 'getSlot') return asNumber(result);
  const context = (result as { context?: { slot?: unknown } } | null)?.context;
  return context ? asNumber(context.slot) : undefined;
}

/** Why an answer cannot be for this request, or undefined when it can. */
function listMismatch(method: string, params: unknown, result: unknown): string | undefined {
  if (!LIST_METHODS.has(method) || !Array.isArray(params) || !Array.isArray(params[0])) return undefined;
  const value = (result as { value?: unknown } | null)?.value;
  if (!Array.isArray(value)) return undefined;
  return value.length === params[0].length ? undefined : `${value.length} entries for ${params[0].length} asked`;
}

/** What makes an error worth another try, or undefined; and how long to wait first. */
function retryable(error: unknown, callerAborted: boolean): { reason: string; retryAfterMs?: number } | undefined {
  if (callerAborted) return undefined;
  if (isSolanaError(error, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) {
    const { statusCode, headers } = error.context;
    if (statusCode === 429) {
      const seconds = Number(headers?.get?.('retry-after'));
      return { reason: 'HTTP 429', ...(Number.isFinite(seconds) && seconds >= 0 ? { retryAfterMs: seconds * 1_000 } : {}) };
    }
    if (statusCode >= 500) return { reason: `HTTP ${statusCode}` };
    return undefined;
  }
  const name = (error as Error)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return { reason: 'no answer in time' };
  if (error instanceof TypeError) return { reason: `connection failed (${(error as Error).message})` }; // fetch failed: refused, reset, cut
  if (error instanceof StaleAnswerError) return { reason: error.message };
  return undefined;
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** A kit RPC transport with retries and stale-answer checks (see the module comment). */
export function createResilientTransport(options: ResilientTransportOptions): RpcTransport {
  const base = createDefaultRpcTransport({ url: options.url });
  const attempts = options.attempts ?? 4;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const readTimeoutMs = Math.min(options.readTimeoutMs ?? 4_000, timeoutMs);
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 5_000;
  const streakLimit = options.staleStreakLimit ?? 3;
  /** The highest slot answered so far, per method and commitment; and lower answers in a row. */
  const floors = new Map<string, { slot: number; lowerInARow: number }>();

  const checkFreshness = (method: string, params: unknown, body: AnswerBody) => {
    if (body.error || body.result === undefined) return;
    const mismatch = listMismatch(method, params, body.result);
    if (mismatch) throw new StaleAnswerError(method, mismatch);
    const slot = answerSlot(method, body.result);
    if (slot === undefined) return;
    const key = `${method}/${commitmentOf(params)}`;
    const floor = floors.get(key);
    if (!floor || slot >= floor.slot) return void floors.set(key, { slot, lowerInARow: 0 });
    floor.lowerInARow += 1;
    if (floor.lowerInARow >= streakLimit) return void floors.set(key, { slot, lowerInARow: 0 }); // believed: a new cluster or a failover
    throw new StaleAnswerError(method, `slot ${slot}, older than slot ${floor.slot} already seen`);
  };

  return (async <TResponse>(config: Parameters<RpcTransport>[0]) => {
    const payload = config.payload as JsonRpcPayload;
    const method = typeof payload?.method === 'string' ? payload.method : '?';
    for (let attempt = 1; ; attempt++) {
      const limitMs = QUICK_READS.has(method) ? readTimeoutMs : timeoutMs;
      const signal = config.signal ? AbortSignal.any([config.signal, AbortSignal.timeout(limitMs)]) : AbortSignal.timeout(limitMs);
      try {
        const body = (await base({ payload: config.payload, signal })) as AnswerBody;
        // A node behind the slot asked for: another node may answer; the last try hands the RPC's own error on.
        if (asNumber(body?.error?.code) === MIN_CONTEXT_SLOT_NOT_REACHED && attempt < attempts) throw new StaleAnswerError(method, 'the node is behind the slot asked for');
        checkFreshness(method, payload?.params, body);
        return body as TResponse;
      } catch (error) {
        const retry = retryable(error, config.signal?.aborted === true);
        if (!retry || attempt >= attempts) throw error;
        const backoff = 150 * 2 ** (attempt - 1) * (0.75 + Math.random() / 2);
        const delayMs = Math.min(retry.retryAfterMs ?? backoff, maxRetryAfterMs);
        options.onRetry?.({ method, attempt, reason: retry.reason, delayMs });
        await wait(delayMs, config.signal);
        if (config.signal?.aborted) throw error;
      }
    }
  }) as RpcTransport;
}
