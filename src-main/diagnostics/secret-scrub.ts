/**
 * The last line of defence before text leaves the process in a log file, the console's Logs screen or a
 * diagnostics archive: whatever a caller forgot to mask is masked here. Secrets are never meant to reach a
 * log line; this catches the ones that would anyway.
 * - every http(s)/ws(s) URL is shown as maskUrl shows a webhook URL (user and password dropped, query values
 *   and token-like path segments masked): RPC URLs with an API key, webhook and heartbeat URLs;
 * - `token=`, `api-key=`, `key=`-style values outside URLs (the console URL's `#token=` fragment);
 * - a keypair's bytes (a JSON array of 64 numbers), and a base58 key after a secret/private name (a bare
 *   88-character base58 string is left alone: transaction signatures look the same and support needs them);
 * - any value registered with registerSecret (the console's per-run token).
 */
import { maskUrl } from '../secrets/mask-url';

const MASK = '***';
const registered = new Set<string>();

/** A secret this process holds (the console token): masked wherever it appears. Too short a value (< 8) is ignored. */
export function registerSecret(value: string): void {
  if (value.length >= 8) registered.add(value);
}

const URL_PATTERN = /\b(?:https?|wss?):\/\/[^\s"'<>`\\]+/gi;
const SECRET_PARAMETER =
  /\b((?:[a-z_-]*token|api[-_]?key|apikey|key|secret|password|routing_key)=)[^&\s"'#\\]+/gi;
const KEYPAIR_BYTES = /\[\s*(?:\d{1,3}\s*,\s*){63}\d{1,3}\s*\]/g;
const NAMED_BASE58_KEY = /((?:secret|private)[\w-]*["']?\s*[:=]\s*["']?)[1-9A-HJ-NP-Za-km-z]{43,88}/gi;

/** A URL with its secrets masked; ws(s) URLs keep their scheme (maskUrl knows only http(s)). */
export function maskAnyUrl(url: string): string {
  const websocket = /^wss?:/i.test(url);
  const asHttp = websocket ? url.replace(/^ws/i, 'http') : url;
  const masked = maskUrl(asHttp);
  return websocket ? masked.replace(/^http/i, 'ws') : masked;
}

/** `text` with every secret it may hold masked. */
export function scrubSecrets(text: string): string {
  let clean = text;
  for (const secret of registered) if (clean.includes(secret)) clean = clean.split(secret).join(MASK);
  return clean
    .replace(URL_PATTERN, (url) => maskAnyUrl(url))
    .replace(SECRET_PARAMETER, (_match, name: string) => `${name}${MASK}`)
    .replace(KEYPAIR_BYTES, '"*** keypair bytes ***"')
    .replace(NAMED_BASE58_KEY, (_match, name: string) => `${name}${MASK}`);
}
