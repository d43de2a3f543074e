/**
 * Posts one webhook request: each attempt with a timeout (AbortSignal.timeout, 5 s by default); network
 * errors, timeouts, 5xx and 429 are tried again (3 attempts by default) after a doubling backoff, or after
 * the service's Retry-After on 429/503; any other 4xx fails at once with the service's answer. Error
 * messages never contain the URL or its secrets.
 */
import { isPlainSegment } from '../../../src-shared/mask-url';
import type { WebhookRequest } from './webhook-request';

export interface WebhookSendOptions {
  /** Per attempt (default 5000). */
  timeoutMs?: number;
  /** Attempts in all (default 3). */
  attempts?: number;
  /** The first retry's wait; doubled for each further one (default 500). */
  backoffMs?: number;
  /** The longest Retry-After honoured (default 60 000): a longer one is cut to this. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;
export const DEFAULT_WEBHOOK_ATTEMPTS = 3;

/** Why a webhook send failed, after its retries; `status` is the last HTTP status (absent for network errors). */
export class WebhookSendError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

type AttemptResult =
  { ok: true } | { ok: false; retry: boolean; error: string; status?: number; retryAfterMs?: number };

export async function postWebhook(request: WebhookRequest, options: WebhookSendOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const attempts = Math.max(1, options.attempts ?? DEFAULT_WEBHOOK_ATTEMPTS);
  const backoffMs = options.backoffMs ?? 500;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const body = JSON.stringify(request.body);
  let last: Extract<AttemptResult, { ok: false }> | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const result = await attemptOnce(request.url, body, timeoutMs);
    if (result.ok) return;
    last = result;
    if (!result.retry || attempt === attempts) break;
    const wait =
      result.retryAfterMs !== undefined
        ? Math.min(result.retryAfterMs, maxRetryAfterMs)
        : backoffMs * 2 ** (attempt - 1);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const tries = last!.retry && attempts > 1 ? ` (after ${attempts} attempts)` : '';
  throw new WebhookSendError(scrubSecrets(`${last!.error}${tries}`, request.url), last!.status);
}

async function attemptOnce(url: string, body: string, timeoutMs: number): Promise<AttemptResult> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'wager-keeper-alerts' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    return { ok: false, retry: true, error: networkError(error, timeoutMs) };
  }
  const answer = await response.text().catch(() => '');
  if (response.ok) return { ok: true };
  const status = `the service answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const said = serviceAnswer(answer);
  const error = `${status}${said ? `: ${said}` : ''}`;
  if (response.status === 429 || response.status >= 500) {
    const retryAfterMs = retryAfter(response.headers.get('retry-after'));
    return {
      ok: false,
      retry: true,
      error,
      status: response.status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  return { ok: false, retry: false, error, status: response.status };
}

function networkError(error: unknown, timeoutMs: number): string {
  const named = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (named.name === 'TimeoutError' || named.name === 'AbortError')
    return `no answer within ${timeoutMs / 1000} s`;
  const cause = named.cause?.code ?? named.cause?.message;
  return `${named.message ?? String(error)}${cause ? ` (${cause})` : ''}`;
}

/** The service's own words: Telegram's `description`, Discord's or PagerDuty's `message`, else the text; one line, short. */
function serviceAnswer(text: string): string {
  let said = text;
  try {
    const json = JSON.parse(text) as { description?: unknown; message?: unknown; errors?: unknown };
    const parts = [
      json.description,
      json.message,
      Array.isArray(json.errors) ? json.errors.join('; ') : undefined,
    ].filter((part) => typeof part === 'string' && part);
    if (parts.length) said = parts.join(': ');
  } catch {
    // Not JSON (Slack answers plain text such as "invalid_payload").
  }
  said = said.replace(/\s+/g, ' ').trim();
  return said.length > 200 ? `${said.slice(0, 199)}…` : said;
}

/** Retry-After in ms: delta seconds or an HTTP date (undefined when absent or unreadable). */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Removes the URL and each of its secret-looking path segments and query values (longer than 3 characters) from `text`. */
export function scrubSecrets(text: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return text.replaceAll(url, '***');
  }
  const secrets = [
    url,
    ...parsed.pathname.split('/').filter((segment) => !isPlainSegment(segment)),
    ...[...parsed.searchParams.values()],
    parsed.username,
    parsed.password,
  ]
    .flatMap((part) => [part, safeDecode(part)])
    .filter((part) => part.length > 3)
    .sort((a, b) => b.length - a.length);
  return secrets.reduce((scrubbed, secret) => scrubbed.replaceAll(secret, '***'), text);
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
