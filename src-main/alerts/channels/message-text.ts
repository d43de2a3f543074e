/**
 * One alert as a line of plain text, for the chat services (Slack, Discord, Telegram): the state and
 * severity first so a phone's notification preview says what matters, then the summary, then where.
 */
import type { AlertMessage } from '../../../src-shared/alert-types';

export function alertHeadline(message: AlertMessage): string {
  if (message.state === 'resolved') return `RESOLVED ${message.alert}`;
  const level = message.severity === 'critical' ? 'CRITICAL' : 'WARNING';
  return `${level} ${message.alert}${message.reminder ? ' (still firing)' : ''}`;
}

/** Where the alert comes from: the keeper's address and cluster, when known. */
export function alertOrigin(message: AlertMessage): string {
  const keeper = message.keeper ? `keeper ${message.keeper}` : 'wager-keeper';
  return `${keeper}${message.cluster ? ` on ${message.cluster}` : ''} at ${message.at}`;
}

/** Headline, summary and origin on separate lines. */
export function alertText(message: AlertMessage): string {
  return `${alertHeadline(message)}: ${message.summary}\n${alertOrigin(message)}`;
}

/** `text` cut to `max` characters (ending in an ellipsis when cut), for services that refuse longer messages. */
export function truncated(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
