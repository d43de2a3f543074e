/** `json` (the default): the AlertMessage object as is, to the URL as given. */
import type { AlertMessage } from '../../../src-shared/alert-types';
import type { WebhookRequest } from './webhook-request';

export function jsonRequest(target: URL, message: AlertMessage): WebhookRequest {
  return { url: target.href, body: message };
}
