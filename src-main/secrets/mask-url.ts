/**
 * A webhook URL as it may be shown or logged: the scheme, host and port kept, every path segment that could
 * be a secret (anything but a short lowercase word like "services", a version like "v2", or "sendMessage") masked, every query value masked, and
 * user, password and fragment dropped. Webhook URLs carry their credentials in the path (Slack, Discord,
 * Telegram's bot token) or the query (PagerDuty's routing key), so nothing else of them is shown.
 * @example maskUrl('https://hooks.slack.com/services/T0/B0/XYZ') // 'https://hooks.slack.com/services/***\/***\/***'
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
  return `${parsed.protocol}//${parsed.host}${path}${query ? `?${query}` : ''}`;
}

/** A path segment that names an endpoint (kept) rather than an account or token (masked). Telegram's "bot<TOKEN>" is never plain. */
export const isPlainSegment = (segment: string) => PLAIN_SEGMENT.test(segment) && !/^bot./i.test(segment);
