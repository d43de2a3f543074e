/**
 * A URL as it may be shown or logged (webhook, heartbeat and RPC URLs): the scheme, port and host kept, every
 * path segment that could be a secret (anything but a short lowercase word like "services", a version like
 * "v2", or "sendMessage") masked, every query value masked, a host label that looks like a token masked, and
 * user, password and fragment dropped. Webhook URLs carry their credentials in the path (Slack, Discord,
 * Telegram's bot token) or the query (PagerDuty's routing key); RPC providers also in the user part or a
 * per-customer subdomain, so nothing else of them is shown.
 * @example maskUrl('https://hooks.slack.com/services/T0/B0/XYZ') // 'https://hooks.slack.com/services/***\/***\/***'
 * @example maskUrl('https://abc123secretlongtoken.rpc-provider.com/') // 'https://***.rpc-provider.com/'
 */
const MASK = '***';
/** Words that name an endpoint rather than identify an account: short lowercase words, v2-style versions, Telegram's method. */
const PLAIN_SEGMENT = /^(?:[a-z][a-z_-]{0,15}|v\d{1,2}|sendMessage)$/;

export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return MASK;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${parsed.protocol}//${MASK}`;
  const path = parsed.pathname
    .split('/')
    .map((segment) => (segment === '' || isPlainSegment(segment) ? segment : MASK))
    .join('/');
  const query = [...parsed.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=${MASK}`).join('&');
  return `${parsed.protocol}//${maskHost(parsed)}${path}${query ? `?${query}` : ''}`;
}

/** The host and port with every token-like label masked (an IP address or a one- or two-label name is kept whole). */
function maskHost(parsed: URL): string {
  const { hostname, port } = parsed;
  if (hostname.startsWith('[') || /^[\d.]+$/.test(hostname)) return parsed.host;
  const labels = hostname.split('.');
  // The registrable name and its suffix (rpc-provider.com) name the provider; only labels before it can be a customer's token.
  const masked = labels.map((label, i) => (i < labels.length - 2 && isTokenLabel(label) ? MASK : label)).join('.');
  return port ? `${masked}:${port}` : masked;
}

/**
 * A host label that looks like a key rather than a name: long and mixing letters with digits
 * (abc123secretlongtoken, a UUID), or very long. Names like api, mainnet-beta, solana-mainnet, devnet are kept.
 */
export function isTokenLabel(label: string): boolean {
  const letters = /[a-z]/i.test(label);
  const digits = (label.match(/\d/g) ?? []).length;
  return label.length >= 24 || (label.length >= 12 && letters && digits >= 2);
}

/** A path segment that names an endpoint (kept) rather than an account or token (masked). Telegram's "bot<TOKEN>" is never plain. */
export const isPlainSegment = (segment: string) => PLAIN_SEGMENT.test(segment) && !/^bot./i.test(segment);
