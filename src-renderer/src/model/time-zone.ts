/**
 * How the console writes a point in time, in UTC or in the viewer's local zone (Settings → Console → Times).
 * Pure functions (tested with a fixed TZ): the same instant always reads the same way in one zone.
 */

/** Which zone the console shows times in; the other one is on hover. */
export type TimeZoneChoice = 'utc' | 'local';

export const TIME_ZONE_CHOICES: readonly TimeZoneChoice[] = ['local', 'utc'];
export const DEFAULT_TIME_ZONE: TimeZoneChoice = 'local';

/** A time as the console receives it: epoch milliseconds, or an ISO 8601 text ("2026-11-27T14:03:05Z", SQLite's "2026-11-27 14:03:05"). */
export type TimeInput = string | number;

/** Show milliseconds ("14:03:05.250"): log lines, where the order within a second matters. */
export interface TimeFormatOptions {
  milliseconds?: boolean;
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
const millisOf = (ms: number, options: TimeFormatOptions | undefined) =>
  options?.milliseconds ? `.${pad(ms, 3)}` : '';

/** The instant, or null when the input is not a time. SQLite's "YYYY-MM-DD HH:MM:SS" (no zone) is UTC. */
export function toDate(at: TimeInput): Date | null {
  const text =
    typeof at === 'string' && /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(at)
      ? `${at.replace(' ', 'T')}Z`
      : at;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 1764252185000 → "2026-11-27 14:03:05 UTC". */
export function formatUtc(at: TimeInput, options?: TimeFormatOptions): string {
  const date = toDate(at);
  if (!date) return String(at);
  const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return `${day} ${time}${millisOf(date.getUTCMilliseconds(), options)} UTC`;
}

// One formatter for the zone's short name (building one per call is slow in long lists); made at load, so a
// page keeps the zone it started in.
const ZONE_NAME = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' });

/** The local zone's short name at that instant ("EST", "GMT+1", "UTC"): it changes with daylight saving. */
export function localZoneName(date: Date): string {
  return ZONE_NAME.formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? 'local';
}

/** 1764252185000 in Europe/Berlin → "2026-11-27 15:03:05 GMT+1" (the zone's short name as the browser knows it). */
export function formatLocal(at: TimeInput, options?: TimeFormatOptions): string {
  const date = toDate(at);
  if (!date) return String(at);
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return `${day} ${time}${millisOf(date.getMilliseconds(), options)} ${localZoneName(date)}`;
}

/** The time in the chosen zone. */
export const formatTime = (at: TimeInput, choice: TimeZoneChoice, options?: TimeFormatOptions): string =>
  choice === 'utc' ? formatUtc(at, options) : formatLocal(at, options);

/** The time in the other zone (for the hover). */
export const formatOtherTime = (at: TimeInput, choice: TimeZoneChoice, options?: TimeFormatOptions): string =>
  formatTime(at, choice === 'utc' ? 'local' : 'utc', options);

/** "14:03:05 UTC" / "15:03:05 GMT+1": the clock time alone, for dense places. */
export const formatClock = (at: TimeInput, choice: TimeZoneChoice): string =>
  toDate(at) ? formatTime(at, choice).slice(11) : String(at);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A chart axis's tick in the chosen zone: "14:05" within a day, "Nov 27" for longer spans (the zone is in the chart's caption). */
export function formatAxisTick(ms: number, choice: TimeZoneChoice, spanMs: number): string {
  const date = new Date(ms);
  const utc = choice === 'utc';
  if (spanMs > 86_400_000)
    return `${MONTHS[utc ? date.getUTCMonth() : date.getMonth()]} ${utc ? date.getUTCDate() : date.getDate()}`;
  return `${pad(utc ? date.getUTCHours() : date.getHours())}:${pad(utc ? date.getUTCMinutes() : date.getMinutes())}`;
}

/** The chosen zone's name for a caption: "UTC", or the local zone's short name at that instant. */
export const zoneLabel = (choice: TimeZoneChoice, atMs: number): string =>
  choice === 'utc' ? 'UTC' : localZoneName(new Date(atMs));

/** Parses a stored choice; anything else is the default. */
export const parseTimeZoneChoice = (value: unknown): TimeZoneChoice =>
  value === 'utc' || value === 'local' ? value : DEFAULT_TIME_ZONE;
