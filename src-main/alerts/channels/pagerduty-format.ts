/**
 * PagerDuty Events API v2: the URL is https://events.pagerduty.com/v2/enqueue?routing_key=<KEY>; the key is
 * sent in the body and the URL is posted to without it. A firing (or reminder) is a `trigger`, a resolution
 * a `resolve`, both under one dedup key per keeper and alert so PagerDuty keeps one incident and closes it.
 */
import type { AlertMessage } from '../../../src-shared/alert-types';
import { truncated } from './message-text';
import { AlertWebhookError, type WebhookRequest } from './webhook-request';

const SUMMARY_MAX = 1024;

export function checkPagerDutyUrl(target: URL): void {
  if (!target.searchParams.get('routing_key'))
    throw new AlertWebhookError(
      "a pagerduty webhook needs the integration key in the URL's query: https://events.pagerduty.com/v2/enqueue?routing_key=<KEY>",
    );
}

/** One incident per keeper and alert (at most 255 characters, as PagerDuty allows). */
export const pagerDutyDedupKey = (message: AlertMessage) =>
  `wager-keeper:${message.keeper ?? 'no-keeper'}:${message.alert}`.slice(0, 255);

export function pagerDutyRequest(target: URL, message: AlertMessage): WebhookRequest {
  checkPagerDutyUrl(target);
  const url = new URL(target.href);
  const routingKey = url.searchParams.get('routing_key')!;
  url.searchParams.delete('routing_key');
  const event = {
    routing_key: routingKey,
    event_action: message.state === 'resolved' ? 'resolve' : 'trigger',
    dedup_key: pagerDutyDedupKey(message),
  };
  if (message.state === 'resolved') return { url: url.href, body: event };
  return {
    url: url.href,
    body: {
      ...event,
      payload: {
        summary: truncated(`${message.alert}: ${message.summary}`, SUMMARY_MAX),
        source: message.keeper ?? 'wager-keeper',
        severity: message.severity,
        timestamp: message.at,
        component: 'wager-keeper',
        custom_details: {
          alert: message.alert,
          cluster: message.cluster,
          keeper: message.keeper,
          reminder: message.reminder ?? false,
        },
      },
    },
  };
}
