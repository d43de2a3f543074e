/**
 * `--alert-webhook [FORMAT=]URL` (and Settings → Alerts' "add channel"): a format and an http(s) URL the
 * format can use. Errors say what to write and never repeat the URL (it is a secret).
 * @example parseAlertWebhook('slack=https://hooks.slack.com/services/T0/B0/XYZ') // { format: 'slack', url: 'https://hooks.slack.com/...' }
 */
import {
  isWebhookFormat,
  WEBHOOK_FORMAT_DEFINITIONS,
  WEBHOOK_FORMATS,
  type WebhookFormat,
} from './webhook-formats';
import { AlertWebhookError } from './webhook-request';

export interface AlertWebhookSpec {
  format: WebhookFormat;
  url: string;
}

const FORMATS_LIST = `${WEBHOOK_FORMATS.slice(0, -1).join(', ')} or ${WEBHOOK_FORMATS.at(-1)}`;

export function parseAlertWebhook(flagValue: string): AlertWebhookSpec {
  const value = flagValue.trim();
  // FORMAT= is a word before the first '=' with no ':' or '/' in it (a URL's own '=' come after its scheme).
  const prefixed = /^([A-Za-z]+)=(.*)$/s.exec(value);
  const format = prefixed ? prefixed[1]!.toLowerCase() : 'json';
  const url = prefixed ? prefixed[2]!.trim() : value;
  if (!isWebhookFormat(format))
    throw new AlertWebhookError(
      `unknown webhook format '${prefixed![1]}': use ${FORMATS_LIST}, as FORMAT=URL (json when no FORMAT= is given)`,
    );
  return { format, url: checkWebhookUrl(format, url) };
}

/** The URL, checked for the format (an http(s) URL with what that service needs); throws AlertWebhookError. */
export function checkWebhookUrl(format: WebhookFormat, url: string): string {
  if (url === '')
    throw new AlertWebhookError(`a ${format} webhook needs its URL, e.g. ${format}=https://...`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AlertWebhookError(
      `the ${format} webhook is not a URL: give the full https://... address the service gave you (FORMAT=URL, FORMAT one of ${FORMATS_LIST})`,
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new AlertWebhookError(
      `the ${format} webhook must be an http:// or https:// URL (got a ${parsed.protocol} URL)`,
    );
  WEBHOOK_FORMAT_DEFINITIONS[format].check?.(parsed);
  return parsed.href;
}
