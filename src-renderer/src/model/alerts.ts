/**
 * The Alerts screen and Settings → Alerts as pure functions: what each alert is called, the count the
 * navigation and status line show, mutes, times (UTC, local on hover), the thresholds form (text fields →
 * the changes to save, or an error per field), the webhook form, and the heartbeat's form and state.
 */
import type {
  AlertChannelKind,
  AlertChannelStatus,
  AlertName,
  AlertThresholds,
  HeartbeatView,
} from '@shared/alert-types';
import type { ActiveAlert } from '@shared/contract/alerts';
import { ALERT_THRESHOLD_KEYS, ALERT_THRESHOLD_TABLE, criticalAboveWarning, HEARTBEAT_EVERY_SECONDS, thresholdFault } from '@shared/settings/alert-thresholds';
import type { AlertHistoryEntry } from '@shared/alert-types';
import { formatTime, type TimeZoneChoice } from './time-zone';

/** What an operator reads for each condition. */
export const ALERT_TITLES: Record<AlertName, string> = {
  'balance-low': 'Keeper balance low',
  'rpc-failing': 'RPC failing',
  'loop-stalled': 'Keeper loop stalled',
  'requests-overdue': 'Requests overdue',
  'expiry-without-request': 'Wager expiring without a request',
  'oracle-stalled': 'Oracle stalled',
  'guardian-paused': 'New wagers paused by the guardian',
  'fleet-member-silent': 'Fleet member silent',
  'crank-failures': 'Crank failures',
  'lp-epoch-struck': 'Liquidity epoch struck',
  'lp-claim-ready': 'Liquidity claim ready',
};

/** The mute lengths offered for an active alert. */
export const MUTE_CHOICES: { minutes: number; label: string }[] = [
  { minutes: 15, label: '15 min' },
  { minutes: 60, label: '1 h' },
  { minutes: 480, label: '8 h' },
  { minutes: 1_440, label: '24 h' },
];

/** True while a mute that ends at `until` (ISO time, or null) still holds. */
export const mutedNow = (until: string | null, nowMs: number): boolean =>
  until !== null && Date.parse(until) > nowMs;

/** The count on the nav entry and in the status line: every active alert, critical when any unmuted one is. */
export function alertCount(
  active: readonly ActiveAlert[] | undefined,
  nowMs: number,
): { count: number; critical: number; text: string; title: string } {
  const list = active ?? [];
  const critical = list.filter(
    (alert) => alert.severity === 'critical' && !mutedNow(alert.mutedUntil, nowMs),
  ).length;
  const muted = list.filter((alert) => mutedNow(alert.mutedUntil, nowMs)).length;
  const count = list.length;
  const text =
    count === 0
      ? 'no alerts'
      : `${count} ${count === 1 ? 'alert' : 'alerts'}${critical ? ` (${critical} critical)` : ''}`;
  const title =
    count === 0
      ? 'No alert is active'
      : `${list.map((alert) => ALERT_TITLES[alert.alert]).join(', ')}${muted ? `; ${muted} muted` : ''}: open the Alerts screen`;
  return { count, critical, text, title };
}

// Times are written by model/time-zone.ts (UTC or local as Settings → Console says; TimeText on screen).

/** A history row's state as one word: a reminder of a firing alert is a "reminder". */
export const historyState = (
  entry: Pick<AlertHistoryEntry, 'state' | 'reminder'>,
): 'firing' | 'reminder' | 'resolved' =>
  entry.state === 'resolved' ? 'resolved' : entry.reminder ? 'reminder' : 'firing';

/** A channel's state: ok, failing (its last send did not get through) or not used yet. */
export const channelState = (status: Pick<AlertChannelStatus, 'ok'>): 'ok' | 'failing' | 'unused' =>
  status.ok === null ? 'unused' : status.ok ? 'ok' : 'failing';

export const CHANNEL_KIND_TITLES: Record<AlertChannelKind, string> = {
  desktop: 'Desktop notification',
  json: 'JSON webhook',
  slack: 'Slack',
  discord: 'Discord',
  telegram: 'Telegram',
  pagerduty: 'PagerDuty',
};

/** The webhook formats Settings offers (the desktop notification is its own switch). */
export const WEBHOOK_FORMATS: { kind: Exclude<AlertChannelKind, 'desktop'>; hint: string }[] = [
  { kind: 'json', hint: 'a POST of the alert as one JSON object' },
  { kind: 'slack', hint: 'a Slack incoming webhook URL (https://hooks.slack.com/services/…)' },
  { kind: 'discord', hint: 'a Discord webhook URL (https://discord.com/api/webhooks/…)' },
  { kind: 'telegram', hint: 'https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat>' },
  { kind: 'pagerduty', hint: 'https://events.pagerduty.com/v2/enqueue?routing_key=<integration key>' },
];

/** The webhook URL to add, or what is wrong with it (the core checks it again). */
export function webhookUrlError(text: string, kind: AlertChannelKind): string | null {
  const url = text.trim();
  if (!url)
    return `Enter the webhook URL: ${WEBHOOK_FORMATS.find((format) => format.kind === kind)?.hint ?? 'http:// or https://'}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL: write it whole, starting with https:// (or http:// on this machine)`;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return 'The webhook URL must start with https:// (or http://)';
  if (kind === 'telegram' && !parsed.searchParams.get('chat_id'))
    return "Telegram needs the chat id in the URL's query: …/sendMessage?chat_id=<chat>";
  if (kind === 'pagerduty' && !parsed.searchParams.get('routing_key'))
    return "PagerDuty needs the integration's routing key in the URL's query: …/v2/enqueue?routing_key=<key>";
  return null;
}

/** One threshold field: its label, unit, bounds and what it means (src-shared/settings/alert-thresholds.ts). */
export interface ThresholdField {
  key: keyof AlertThresholds;
  label: string;
  unit: string;
  note: string;
  min: number;
  max: number;
  /** Whole numbers only (otherwise decimals are accepted). */
  whole: boolean;
  /** The flag that sets it for a run. */
  flag: string;
}

export const THRESHOLD_FIELDS: ThresholdField[] = ALERT_THRESHOLD_KEYS.map((key) => {
  const { label, unit, note, min, max, whole, flag } = ALERT_THRESHOLD_TABLE[key];
  return { key, label, unit, note, min, max, whole, flag: `--${flag}` };
});

export type ThresholdsForm = Record<keyof AlertThresholds, string>;

export const thresholdsFormOf = (thresholds: AlertThresholds): ThresholdsForm =>
  Object.fromEntries(
    THRESHOLD_FIELDS.map((field) => [field.key, String(thresholds[field.key])]),
  ) as ThresholdsForm;

/**
 * Checks the thresholds form against the saved thresholds: the changed values to save (never a field in
 * `skip`: set by a flag), or an error per field. The critical balance must stay below the warning one.
 */
export function parseThresholdsForm(
  form: ThresholdsForm,
  saved: AlertThresholds,
  skip: readonly (keyof AlertThresholds)[] = [],
): { changes: Partial<AlertThresholds>; errors: Partial<Record<keyof AlertThresholds, string>> } {
  const changes: Partial<AlertThresholds> = {};
  const errors: Partial<Record<keyof AlertThresholds, string>> = {};
  const values: AlertThresholds = { ...saved };
  for (const field of THRESHOLD_FIELDS) {
    if (skip.includes(field.key)) continue;
    const text = form[field.key].trim();
    const value = Number(text);
    const range = `from ${field.min.toLocaleString('en-US')} to ${field.max.toLocaleString('en-US')} ${field.unit}`;
    const fault = text === '' ? 'notANumber' : thresholdFault(field.key, value);
    if (fault === 'notANumber')
      errors[field.key] =
        text === '' ? `Enter a number ${range}` : `"${text}" is not a number: enter one ${range}`;
    else if (fault === 'notWhole') errors[field.key] = `Enter a whole number ${range}`;
    else if (fault === 'outOfRange') errors[field.key] = `Must be ${range}`;
    else {
      values[field.key] = value;
      if (value !== saved[field.key]) changes[field.key] = value;
    }
  }
  if (
    !errors.balanceCriticalSol &&
    !errors.balanceWarningSol &&
    criticalAboveWarning(values)
  ) {
    errors.balanceCriticalSol = `Must not be above the warning level (${values.balanceWarningSol} SOL): lower it, or raise the warning`;
    delete changes.balanceCriticalSol;
  }
  return { changes, errors };
}

/** The heartbeat form: the URL is write-only (empty keeps the saved one), the period in seconds. */
export interface HeartbeatForm {
  url: string;
  everySeconds: string;
}

/** The heartbeat period's bounds (the core's too: src-shared/settings/alert-thresholds.ts). */
export { HEARTBEAT_EVERY_SECONDS };

/** What is wrong with a heartbeat URL to save, or null (the core checks it again). */
export function heartbeatUrlError(text: string): string | null {
  const url = text.trim();
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    // not a URL: said below
  }
  if (protocol === 'http:' || protocol === 'https:') return null;
  return `${url ? `"${url}" is not an http(s) URL` : 'Enter the URL'}: paste the whole ping URL your monitor gives you, like https://hc-ping.com/<uuid> (healthchecks.io) or https://kuma.example/api/push/<token> (Uptime Kuma)`;
}

/**
 * Checks the heartbeat form: the changes to save (`heartbeatUrl` only when one was entered; nothing a flag
 * fixed), or an error per field.
 */
export function parseHeartbeatForm(
  form: HeartbeatForm,
  savedEverySeconds: number,
  fixed: { url: boolean; everySeconds: boolean },
): {
  changes: { heartbeatUrl?: string; heartbeatEverySeconds?: number };
  errors: Partial<Record<keyof HeartbeatForm, string>>;
} {
  const changes: { heartbeatUrl?: string; heartbeatEverySeconds?: number } = {};
  const errors: Partial<Record<keyof HeartbeatForm, string>> = {};
  if (!fixed.url && form.url.trim() !== '') {
    const error = heartbeatUrlError(form.url);
    if (error) errors.url = error;
    else changes.heartbeatUrl = form.url.trim();
  }
  if (!fixed.everySeconds) {
    const text = form.everySeconds.trim();
    const value = Number(text);
    const { min, max } = HEARTBEAT_EVERY_SECONDS;
    const range = `from ${min} to ${max.toLocaleString('en-US')} s`;
    if (text === '' || !Number.isFinite(value))
      errors.everySeconds =
        text === '' ? `Enter a number ${range}` : `"${text}" is not a number: enter one ${range}`;
    else if (!Number.isInteger(value)) errors.everySeconds = `Enter a whole number ${range}`;
    else if (value < min || value > max) errors.everySeconds = `Must be ${range}`;
    else if (value !== savedEverySeconds) changes.heartbeatEverySeconds = value;
  }
  return { changes, errors };
}

/** What Settings → Alerts says of the heartbeat now. */
export interface HeartbeatStatus {
  /** ok: pinging; warn: not pinging because the keeper is not ready; error: the monitor does not take the pings. */
  tone: 'ok' | 'warn' | 'error' | 'muted';
  /** The state in a sentence, with what follows from it. */
  text: string;
  /** Why: the readiness reasons or the last ping's error (null when none). */
  why: string | null;
  /** "last ping 2026-11-27 11:58:03 UTC", "no ping yet", or null while off. */
  lastPing: string | null;
}

/**
 * The heartbeat's state from the settings in force (is a URL configured, its masked label, the period) and
 * the status view's heartbeat (what the last beat did). A view for another URL or period (saved a moment
 * ago, before the next beat) is not this one's yet.
 */
export function heartbeatStatus(
  settings: { heartbeatConfigured: boolean; heartbeatLabel: string; heartbeatEverySeconds: number },
  view: HeartbeatView | null | undefined,
  /** The zone the console shows times in (Settings → Console). */
  timeZone: TimeZoneChoice = 'utc',
): HeartbeatStatus {
  if (!settings.heartbeatConfigured)
    return {
      tone: 'muted',
      text: 'Off: no heartbeat URL, so no monitor hears from this keeper.',
      why: null,
      lastPing: null,
    };
  const current =
    view && view.label === settings.heartbeatLabel && view.everySeconds === settings.heartbeatEverySeconds
      ? view
      : null;
  const lastPing = current?.lastPingAt ? `last ping ${formatTime(current.lastPingAt, timeZone)}` : 'no ping yet';
  if (!current || current.state === 'waiting')
    return {
      tone: 'muted',
      text: `Waiting for the first ping (every ${settings.heartbeatEverySeconds} s while the keeper is ready).`,
      why: null,
      lastPing,
    };
  if (current.state === 'pinging')
    return {
      tone: 'ok',
      text: `Pinging: the monitor takes a ping every ${current.everySeconds} s.`,
      why: null,
      lastPing,
    };
  if (current.state === 'notReady')
    return {
      tone: 'warn',
      text: 'Not pinging: the keeper is not ready, so the monitor raises its alarm after its grace time; pings resume once it is ready.',
      why: current.notReadyReasons.length > 0 ? current.notReadyReasons.join('; ') : null,
      lastPing,
    };
  return {
    tone: 'error',
    text: 'Failing: the monitor does not take the pings, so it will raise its alarm.',
    why: current.lastError,
    lastPing,
  };
}
