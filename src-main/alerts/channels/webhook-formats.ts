/** The webhook formats of `--alert-webhook [FORMAT=]URL` and Settings → Alerts, each with its request builder. */
import type { AlertChannelKind, AlertMessage } from '../../../src-shared/alert-types';
import { discordRequest } from './discord-format';
import { jsonRequest } from './json-format';
import { checkPagerDutyUrl, pagerDutyRequest } from './pagerduty-format';
import { slackRequest } from './slack-format';
import { checkTelegramUrl, telegramRequest } from './telegram-format';
import type { WebhookRequest } from './webhook-request';

export type WebhookFormat = Exclude<AlertChannelKind, 'desktop'>;
export const WEBHOOK_FORMATS = [
  'json',
  'slack',
  'discord',
  'telegram',
  'pagerduty',
] as const satisfies readonly WebhookFormat[];

interface FormatDefinition {
  request(target: URL, message: AlertMessage): WebhookRequest;
  /** Throws AlertWebhookError when the URL lacks what the format needs (checked when the channel is added). */
  check?(target: URL): void;
}

export const WEBHOOK_FORMAT_DEFINITIONS: Record<WebhookFormat, FormatDefinition> = {
  json: { request: jsonRequest },
  slack: { request: slackRequest },
  discord: { request: discordRequest },
  telegram: { request: telegramRequest, check: checkTelegramUrl },
  pagerduty: { request: pagerDutyRequest, check: checkPagerDutyUrl },
};

export const isWebhookFormat = (value: string): value is WebhookFormat =>
  (WEBHOOK_FORMATS as readonly string[]).includes(value);
