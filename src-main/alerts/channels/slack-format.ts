/**
 * Slack incoming webhook: `{"text": ...}` (the notification's text) with one mrkdwn section block.
 * Slack's mrkdwn treats &, < and > as control characters, so they are escaped in the block.
 */
import type { AlertMessage } from '../../../src-shared/alert-types';
import { alertHeadline, alertOrigin, alertText } from './message-text';
import type { WebhookRequest } from './webhook-request';

const escapeMrkdwn = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export function slackRequest(target: URL, message: AlertMessage): WebhookRequest {
  const section = `*${escapeMrkdwn(alertHeadline(message))}*\n${escapeMrkdwn(message.summary)}\n_${escapeMrkdwn(alertOrigin(message))}_`;
  return {
    url: target.href,
    body: {
      text: alertText(message),
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: section } }],
    },
  };
}
