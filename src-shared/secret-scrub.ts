/**
 * The last line of defence before text leaves the process: a log file, the console's Logs screen, a
 * diagnostics archive, and also every answer a stranger or a service can read (/v1/health and /v1/ready,
 * the operator API, webhook bodies, desktop notifications, the tray, metric labels). Whatever a caller
 * forgot to mask is masked here. Secrets are never meant to reach these; this catches the ones that would.
 * - every http(s)/ws(s) URL is shown as maskUrl shows it (user and password dropped, query values, token-like
 *   path segments and token-like host labels masked): RPC URLs with an API key, webhook and heartbeat URLs;
 *   a URL with nothing secret in it is left exactly as it was;
 * - `token=`, `api-key=`, `key=`-style values outside URLs (the console URL's `#token=` fragment), and
 *   env-style `SOMETHING_KEY=`, `_SECRET=`, `_TOKEN=`, `_PASSWORD=` values;
 * - JSON fields and header lines that carry credentials: `"x-api-key": "…"`, `"authorization": "Bearer …"`,
 *   `Authorization: Bearer …`, `"password": "…"`, `"secret": "…"`;
 * - a keypair's bytes at any depth of a log object (a JSON array of 32 or 64 numbers, or a Uint8Array's
 *   `{"0":…,"63":…}`), and a hex or base58 key after a secret/private/keypair name (a bare 88-character base58
 *   string is left alone: transaction signatures look the same and support needs them);
 * - any value registered with registerSecret (the console's per-run token).
 */
import { maskUrl } from './mask-url';

const MASK = '***';
const registered = new Set<string>();

/** A secret this process holds (the console token): masked wherever it appears. Too short a value (< 8) is ignored. */
export function registerSecret(value: string): void {
  if (value.length >= 8) registered.add(value);
}

const URL_PATTERN = /\b(?:https?|wss?):\/\/[^\s"'<>`\\]+/gi;
/** `name=value` outside a URL; the name may end in one of these words (SOME_API_KEY=, DB_PASSWORD=, x_token=). */
const SECRET_PARAMETER =
  /((?:^|[^a-z0-9])(?:[a-z0-9]*[_-])*(?:[a-z]*token|api[-_]?key|apikey|key|secret|password|passwd|routing_key)=)([^&\s"'#\\]+)/gi;
/** A credential-named field of JSON (possibly escaped inside a JSON string), or a header line. */
const SECRET_FIELD =
  /((?:\\?["'])(?:x-api-key|api[-_]?key|apikey|authorization|proxy-authorization|password|passwd|secret|client[-_]?secret|private[-_]?key|secret[-_]?key|access[-_]?token|refresh[-_]?token|auth[-_]?token)(?:\\?["'])\s*:\s*(?:\\?["']))(?:(bearer|basic|token)\s+)?(?:[^"'\\]|\\(?!["']))+/gi;
const SECRET_HEADER =
  /(\b(?:x-api-key|api-key|authorization|proxy-authorization)\s*:\s*)(?:(bearer|basic|token)\s+)?[^\s"',;\\]+/gi;
/**
 * A JSON array of exactly 32 or 64 numbers of up to 3 digits (a secret key, a keypair), on one line or
 * pretty-printed; bytesOnly() then checks each is 0-255. `\d{1,3}` rather than an exact byte pattern: its
 * alternatives made the search backtrack (0.75 s over a 1.5 MB diagnostics text, against 20 ms).
 */
const KEYPAIR_BYTES = /\[\s*(?:\d{1,3}\s*,\s*){31}(?:(?:\d{1,3}\s*,\s*){32})?\d{1,3}\s*\]/g;
/** A Uint8Array as JSON.stringify writes it: {"0":n,…,"31":n} or up to "63" (quotes escaped inside a JSON string too). */
const INDEXED_BYTES =
  /\{\s*(?:\\?"\d{1,2}\\?"\s*:\s*\d{1,3}\s*,\s*){31}(?:(?:\\?"\d{1,2}\\?"\s*:\s*\d{1,3}\s*,\s*){32})?\\?"\d{1,2}\\?"\s*:\s*\d{1,3}\s*\}/g;
const KEYPAIR_MASK = '"*** keypair bytes ***"';
/** The match masked when every number in it is a byte (its keys, in the indexed form, are not looked at). */
const bytesOnly = (match: string): string =>
  (match.startsWith('{') ? match.replace(/\\?"\d{1,2}\\?"\s*:/g, '') : match).match(/\d+/g)!.every((n) => Number(n) <= 255)
    ? KEYPAIR_MASK
    : match;
/** A hex secret (32 or 64 bytes) after a secret/private/keypair name. */
const NAMED_HEX_KEY = /((?:secret|private|keypair)[\w-]*\\?["']?\s*[:=]\s*\\?["']?)(?:[0-9a-f]{128}|[0-9a-f]{64})(?![0-9a-f])/gi;
const NAMED_BASE58_KEY = /((?:secret|private|keypair)[\w-]*\\?["']?\s*[:=]\s*\\?["']?)[1-9A-HJ-NP-Za-km-z]{43,88}/gi;

/** A field whose string value is a credential whatever it holds (scrubValue masks it whole). */
const SECRET_KEY_NAME =
  /^(?:x-api-key|api[-_]?key|apikey|authorization|proxy-authorization|password|passwd|secret|client[-_]?secret|private[-_]?key|secret[-_]?key|access[-_]?token|refresh[-_]?token|auth[-_]?token)$/i;

/** A URL with its secrets masked; ws(s) URLs keep their scheme (maskUrl knows only http(s)). */
export function maskAnyUrl(url: string): string {
  const websocket = /^wss?:/i.test(url);
  const asHttp = websocket ? url.replace(/^ws/i, 'http') : url;
  const masked = maskUrl(asHttp);
  return websocket ? masked.replace(/^http/i, 'ws') : masked;
}

/**
 * The URL as scrubbed text shows it: unchanged when nothing in it was masked (maskUrl's added "/" aside);
 * punctuation that ends a sentence after it (`URL: message`) is not part of it.
 */
function shownUrl(match: string): string {
  const url = match.replace(/[:.,;)\]]+$/, '');
  const after = match.slice(url.length);
  const masked = explorerLink(url) ?? maskAnyUrl(url);
  return (masked === url || masked === `${url}/` ? url : masked) + after;
}

/**
 * A Solana Explorer link (the console's transaction links) as it may be shown, or null for any other URL: its
 * path names public things (a signature, an address) and stays, as does `cluster`; the RPC URL a custom
 * cluster's link carries in `customUrl` is shown as any URL is (a key in it masked); other values are masked.
 */
function explorerLink(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' || parsed.host !== 'explorer.solana.com' || parsed.username || parsed.password) return null;
  const given = [...parsed.searchParams];
  const query = given.map(([key, value]): [string, string] => [key, key === 'cluster' ? value : key === 'customUrl' ? shownUrl(value) : MASK]);
  if (query.every(([, value], i) => value === given[i]![1])) return url;
  parsed.search = new URLSearchParams(query).toString();
  parsed.hash = '';
  return parsed.toString();
}

/** `text` with every secret it may hold masked. */
export function scrubSecrets(text: string): string {
  let clean = text;
  for (const secret of registered) if (clean.includes(secret)) clean = clean.split(secret).join(MASK);
  // Every pattern below needs one of these: most strings of a view (addresses, states, figures) have none.
  if (!/[:=[{]/.test(clean)) return clean;
  return clean
    .replace(URL_PATTERN, shownUrl)
    .replace(SECRET_FIELD, (_match, name: string, scheme?: string) => `${name}${scheme ? `${scheme} ` : ''}${MASK}`)
    .replace(SECRET_HEADER, (_match, name: string, scheme?: string) => `${name}${scheme ? `${scheme} ` : ''}${MASK}`)
    .replace(SECRET_PARAMETER, (_match, name: string, value: string) => `${name}${MASK}${/[:.,;)\]]+$/.exec(value)?.[0] ?? ''}`)
    .replace(KEYPAIR_BYTES, bytesOnly)
    .replace(INDEXED_BYTES, bytesOnly)
    .replace(NAMED_HEX_KEY, (_match, name: string) => `${name}${MASK}`)
    .replace(NAMED_BASE58_KEY, (_match, name: string) => `${name}${MASK}`);
}

/**
 * A JSON-like value (an HTTP answer, an alert message) with scrubSecrets applied to every string in it, at
 * any depth, and the string of a credential-named field (password, authorization, x-api-key…) masked whole;
 * keys, numbers and the shape are kept, so the answer's readers see the same fields.
 * @example scrubValue({ rpcError: 'http://x/?api-key=K: down' }) // { rpcError: 'http://x/?api-key=***: down' }
 */
export function scrubValue<T>(value: T): T {
  if (typeof value === 'string') return scrubSecrets(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubValue(item)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, typeof item === 'string' && SECRET_KEY_NAME.test(key) ? MASK : scrubValue(item)]),
    ) as T;
  return value;
}
