/**
 * The console contract, alerts: what fires now, history, mutes, thresholds and channels.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */
import type { AlertChannelKind, AlertChannelStatus, AlertHistoryEntry, AlertName, AlertSeverity, AlertThresholds } from '../alert-types';

/** An alert firing now. Times are ISO 8601. */
export interface ActiveAlert {
  alert: AlertName;
  severity: AlertSeverity;
  summary: string;
  /** When it fired (after its debounce). */
  since: string;
  /** The last firing or reminder delivered (or recorded, while muted). */
  lastSentAt: string;
  /** Until when it is muted (recorded, not delivered), or null. */
  mutedUntil: string | null;
}

/** The Alerts screen: what fires now, the history (newest first, the last 200), mutes and channels. */
export interface AlertsView {
  active: ActiveAlert[];
  history: AlertHistoryEntry[];
  mutes: { alert: AlertName; until: string }[];
  channels: AlertChannelStatus[];
}

/** Settings → Alerts. */
export interface AlertSettingsView {
  thresholds: AlertThresholds;
  /** Thresholds a command-line flag set for this run (shown read-only). */
  thresholdFlags: (keyof AlertThresholds)[];
  desktopNotifications: boolean;
  channels: AlertChannelStatus[];
}

/** Alerts's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface AlertsApi {
  /** The alerts firing now, their history (newest first, the last 200), mutes and channel statuses. */
  alerts(): Promise<AlertsView>;
  /** Mutes an alert for `minutes` (still recorded, not delivered); 0 unmutes it. */
  muteAlert(args: { alert: AlertName; minutes: number }): Promise<AlertsView>;
  /** The alert thresholds, which of them flags set, desktop notifications and the channels. */
  alertSettings(): Promise<AlertSettingsView>;
  /** Saves thresholds (those set by flags are refused) and the desktop notification switch. */
  saveAlertSettings(args: { thresholds?: Partial<AlertThresholds>; desktopNotifications?: boolean }): Promise<AlertSettingsView>;
  /** Adds a webhook channel (`format` defaults to json); the URL is kept as a secret and shown masked. */
  addAlertChannel(args: { url: string; format?: AlertChannelKind }): Promise<AlertSettingsView>;
  removeAlertChannel(args: { id: string }): Promise<AlertSettingsView>;
  /** Sends a test alert to every channel now and answers how each went. */
  sendTestAlert(): Promise<{ results: AlertChannelStatus[] }>;
}

/** Alerts's method names, in the order the transports list them. */
export const ALERTS_METHODS = ['alerts', 'muteAlert', 'alertSettings', 'saveAlertSettings', 'addAlertChannel', 'removeAlertChannel', 'sendTestAlert'] as const satisfies readonly (keyof AlertsApi)[];
