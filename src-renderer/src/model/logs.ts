/** The Logs screen's pure parts: levels offered, a line's time in UTC, its fields as text. */
import type { LogLine } from '@shared/contract/diagnostics';

export const LOG_LEVEL_CHOICES = [
  { value: 'debug', label: 'Debug and above' },
  { value: 'info', label: 'Info and above' },
  { value: 'warn', label: 'Warnings and errors' },
  { value: 'error', label: 'Errors only' },
] as const;
export type LogLevelChoice = (typeof LOG_LEVEL_CHOICES)[number]['value'];

/** "2026-11-27 12:13:21.123 UTC". */
export const formatLogTime = (ms: number): string =>
  `${new Date(ms).toISOString().replace('T', ' ').replace('Z', '')} UTC`;

/** The line's other fields, `key=value` separated by spaces (objects as JSON). */
export const formatLogFields = (fields: LogLine['fields']): string =>
  Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');

/** Within a few pixels of the bottom: follow mode keeps scrolling there. */
export const atBottom = (element: {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}): boolean => element.scrollHeight - element.scrollTop - element.clientHeight < 24;
