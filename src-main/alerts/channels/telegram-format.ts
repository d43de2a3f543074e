/**
 * Telegram Bot API `sendMessage`: the URL is https://api.telegram.org/bot<TOKEN>/sendMessage?chat_id=<ID>;
 * the chat id is taken from the query and sent in the JSON body `{"chat_id", "text"}` (plain text, at most
 * 4096 characters), posted to the URL without the query.
 */
import type { AlertMessage } from '../../../src-shared/alert-types';
import { alertText, truncated } from './message-text';
import { AlertWebhookError, type WebhookRequest } from './webhook-request';

export const TELEGRAM_TEXT_MAX = 4096;
const EXAMPLE = 'https://api.telegram.org/bot<TOKEN>/sendMessage?chat_id=<CHAT_ID>';

export function checkTelegramUrl(target: URL): void {
  if (!/\/bot[^/]+\/sendMessage$/.test(target.pathname))
    throw new AlertWebhookError(`a telegram webhook is the bot's sendMessage URL: ${EXAMPLE}`);
  if (!target.searchParams.get('chat_id'))
    throw new AlertWebhookError(`a telegram webhook needs the chat id in the URL's query: ${EXAMPLE}`);
}

export function telegramRequest(target: URL, message: AlertMessage): WebhookRequest {
  checkTelegramUrl(target);
  const chatId = target.searchParams.get('chat_id')!;
  const url = new URL(target.href);
  url.searchParams.delete('chat_id');
  return {
    url: url.href,
    body: {
      chat_id: /^-?\d+$/.test(chatId) ? Number(chatId) : chatId,
      text: truncated(alertText(message), TELEGRAM_TEXT_MAX),
      disable_web_page_preview: true,
    },
  };
}
