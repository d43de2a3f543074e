/**
 * Discord webhook: `{"content": ...}`, at most 2000 characters (Discord refuses longer ones). Mentions are
 * turned off so a summary can never ping @everyone.
 */
import type { AlertMessage } from '../../../src-shared/alert-types';
import { alertHeadline, alertOrigin, truncated } from './message-text';
import type { WebhookRequest } from './webhook-request';

export const DISCORD_CONTENT_MAX = 2000;

export function discordRequest(target: URL, message: AlertMessage): WebhookRequest {
  const content = truncated(
    `**${alertHeadline(message)}**: ${message.summary}\n${alertOrigin(message)}`,
    DISCORD_CONTENT_MAX,
  );
  return { url: target.href, body: { content, allowed_mentions: { parse: [] } } };
}
