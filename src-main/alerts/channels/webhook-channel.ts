/**
 * A webhook channel: a format and a URL (a secret) made into an AlertChannel whose id and label reveal
 * nothing of the URL (the id is the format and a hash; the label the masked URL).
 */
import { createHash } from 'node:crypto';
import type { AlertChannel, AlertMessage } from '../../../src-shared/alert-types';
import { maskUrl } from '../../../src-shared/mask-url';
import { checkWebhookUrl } from './webhook-flag';
import { WEBHOOK_FORMAT_DEFINITIONS, type WebhookFormat } from './webhook-formats';
import { postWebhook, type WebhookSendOptions } from './webhook-sender';

/** `<format>-<12 hex of sha256(format + url)>`: stable for the same target, useless for finding the URL. */
export const webhookChannelId = (format: WebhookFormat, url: string) =>
  `${format}-${createHash('sha256').update(`${format}\n${url}`).digest('hex').slice(0, 12)}`;

/** Throws AlertWebhookError when the URL does not suit the format. */
export function channelFromUrl(
  spec: { url: string; format?: WebhookFormat },
  options: WebhookSendOptions = {},
): AlertChannel {
  const format = spec.format ?? 'json';
  const url = checkWebhookUrl(format, spec.url.trim());
  const target = new URL(url);
  return {
    id: webhookChannelId(format, url),
    kind: format,
    label: maskUrl(url),
    send: (message: AlertMessage, sendOptions?: WebhookSendOptions) =>
      postWebhook(WEBHOOK_FORMAT_DEFINITIONS[format].request(target, message), {
        ...options,
        ...sendOptions,
      }),
  };
}
