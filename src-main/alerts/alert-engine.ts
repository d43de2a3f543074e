/**
 * The alert engine (issue 26): one state machine per alert over the conditions' readings. An alert fires
 * once its condition has held for the debounce time, is not repeated while it holds (a reminder at most
 * every reminderMinutes; a rise from warning to critical fires again), and resolves once when it clears.
 * A muted alert is still recorded but not delivered. Time comes from an injected clock, so the behaviour
 * is tested without waiting.
 */
import { RESOLVED_SUMMARIES, type ConditionReading } from './alert-conditions';
import { ALERT_NAMES, type AlertMessage, type AlertName, type AlertSeverity, type AlertThresholds } from '../../src-shared/alert-types';

export interface AlertEngineOptions {
  /** Unix ms now. */
  clock(): number;
  thresholds(): AlertThresholds;
  /** The keeper's address and cluster name, as messages carry them. */
  identity(): { keeper: string | null; cluster: string | null };
  /** Every firing, reminder and resolution not muted; must not block or throw (delivery is asynchronous). */
  deliver(message: AlertMessage): void;
  /** Every firing, reminder and resolution, muted or not (the history). */
  record(message: AlertMessage, muted: boolean): void;
  /** Mutes in force at start (kept by the history), Unix ms until which each is muted. */
  mutes?: Partial<Record<AlertName, number>>;
}

export interface ActiveAlertState {
  alert: AlertName;
  severity: AlertSeverity;
  summary: string;
  /** Unix ms it fired. */
  since: number;
  /** Unix ms of the last firing or reminder. */
  lastSentAt: number;
  /** Unix ms until which it is muted, or null. */
  mutedUntil: number | null;
}

export interface AlertEngine {
  /** Feeds the readings of now: fires, reminds and resolves as due. */
  evaluate(readings: Record<AlertName, ConditionReading>): void;
  active(): ActiveAlertState[];
  /** Mutes an alert until `untilMs` (null: unmutes it). */
  mute(alert: AlertName, untilMs: number | null): void;
  /** Mutes in force now. */
  mutes(): { alert: AlertName; until: number }[];
}

type AlertPhase =
  | { phase: 'clear' }
  | { phase: 'pending'; holdingSince: number }
  | { phase: 'firing'; since: number; lastSentAt: number; severity: AlertSeverity; summary: string };

/** The resolution in words, with how long the alert fired (its firing's advice no longer applies). */
function resolvedSummary(alert: AlertName, since: number, now: number): string {
  const minutes = Math.round((now - since) / 60_000);
  const lasted = minutes < 1 ? 'under a minute' : minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
  return `${RESOLVED_SUMMARIES[alert]} It had fired since ${new Date(since).toISOString().slice(11, 16)} UTC (${lasted}).`;
}

export function createAlertEngine(options: AlertEngineOptions): AlertEngine {
  const states = new Map<AlertName, AlertPhase>(ALERT_NAMES.map((name) => [name, { phase: 'clear' }]));
  const muted = new Map<AlertName, number>(Object.entries(options.mutes ?? {}) as [AlertName, number][]);

  const mutedNow = (alert: AlertName, now: number) => (muted.get(alert) ?? 0) > now;
  const send = (alert: AlertName, fields: Pick<AlertMessage, 'state' | 'severity' | 'summary'> & { reminder?: boolean }, now: number) => {
    const message: AlertMessage = { alert, ...fields, ...options.identity(), at: new Date(now).toISOString() };
    if (!fields.reminder) delete message.reminder;
    const isMuted = mutedNow(alert, now);
    options.record(message, isMuted);
    if (!isMuted) options.deliver(message);
  };

  return {
    evaluate(readings) {
      const now = options.clock();
      const { debounceSeconds, reminderMinutes } = options.thresholds();
      for (const alert of ALERT_NAMES) {
        const reading = readings[alert];
        const state = states.get(alert)!;
        if (!reading?.holds) {
          if (state.phase === 'firing') send(alert, { state: 'resolved', severity: state.severity, summary: resolvedSummary(alert, state.since, now) }, now);
          if (state.phase !== 'clear') states.set(alert, { phase: 'clear' });
          continue;
        }
        if (state.phase === 'clear') states.set(alert, { phase: 'pending', holdingSince: now });
        const current = states.get(alert)!;
        if (current.phase === 'pending') {
          if (now - current.holdingSince < debounceSeconds * 1000) continue;
          send(alert, { state: 'firing', severity: reading.severity, summary: reading.summary }, now);
          states.set(alert, { phase: 'firing', since: now, lastSentAt: now, severity: reading.severity, summary: reading.summary });
        } else if (current.phase === 'firing') {
          const escalated = current.severity === 'warning' && reading.severity === 'critical';
          const reminderDue = reminderMinutes > 0 && now - current.lastSentAt >= reminderMinutes * 60_000;
          if (escalated || reminderDue) {
            send(alert, { state: 'firing', severity: reading.severity, summary: reading.summary, reminder: !escalated }, now);
            states.set(alert, { ...current, lastSentAt: now, severity: reading.severity, summary: reading.summary });
          } else states.set(alert, { ...current, severity: reading.severity, summary: reading.summary });
        }
      }
    },
    active() {
      const now = options.clock();
      return ALERT_NAMES.flatMap((alert) => {
        const state = states.get(alert)!;
        if (state.phase !== 'firing') return [];
        return [{ alert, severity: state.severity, summary: state.summary, since: state.since, lastSentAt: state.lastSentAt, mutedUntil: mutedNow(alert, now) ? muted.get(alert)! : null }];
      });
    },
    mute(alert, untilMs) {
      if (untilMs === null) muted.delete(alert);
      else muted.set(alert, untilMs);
    },
    mutes() {
      const now = options.clock();
      return [...muted].filter(([, until]) => until > now).map(([alert, until]) => ({ alert, until }));
    },
  };
}
