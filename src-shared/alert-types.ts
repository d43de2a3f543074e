/**
 * The alert engine's vocabulary (issue 26), shared by the engine, its channels, readiness, the operator
 * interface and the console. One alert per condition: it fires once its condition has held for its
 * debounce time, is not repeated while it holds (at most a reminder after `reminderMinutes`), and sends one
 * "resolved" message when it clears.
 */

/** Every condition the engine watches; the name is what a `json` webhook body carries as `alert`. */
export const ALERT_NAMES = [
  'balance-low', // keeper balance below the warning (warning) or critical level (critical), or runway below N hours
  'rpc-failing', // the RPC failing for more than N seconds
  'loop-stalled', // no loop pass for N seconds
  'requests-overdue', // randomness requests overdue (issue 16's warning)
  'expiry-without-request', // a wager about to expire with no request
  'oracle-stalled', // the oracle stall (today's levels: slow = warning, stalled = critical)
  'guardian-paused', // new wagers paused by the guardian (fires on set, resolves when lifted)
  'fleet-member-silent', // a fleet member stopped answering
  'crank-failures', // the keeper's own crank failures above a rate
  'lp-epoch-struck', // for LPs: an epoch was struck (a one-off notice)
  'lp-claim-ready', // for LPs: a deposit or withdrawal claim is ready
] as const;
export type AlertName = (typeof ALERT_NAMES)[number];

export type AlertSeverity = 'warning' | 'critical';
export type AlertState = 'firing' | 'resolved';

/** One message, as every channel receives it (the `json` webhook body is exactly this object). */
export interface AlertMessage {
  alert: AlertName;
  state: AlertState;
  severity: AlertSeverity;
  /** One sentence with the figures and what to do. */
  summary: string;
  /** The keeper's address (null before a keeper runs). */
  keeper: string | null;
  /** The cluster's name: localnet, devnet, testnet, mainnet-beta or custom. */
  cluster: string | null;
  /** ISO 8601 time of the firing, reminder or resolution. */
  at: string;
  /** True on a reminder of an alert still firing (sent at most every reminderMinutes). */
  reminder?: boolean;
}

/** Where messages go. `send` rejects when the service did not take the message (after its own retries). */
export interface AlertChannel {
  /** Stable id (the kind and a hash of the target): settings and status refer to it. */
  readonly id: string;
  readonly kind: AlertChannelKind;
  /** The target with its secrets masked (never the whole URL or token). */
  readonly label: string;
  /** `options` (the dispatcher's): per-attempt timeout and attempts in all; a channel may ignore them. */
  send(message: AlertMessage, options?: AlertSendOptions): Promise<void>;
}
export interface AlertSendOptions {
  timeoutMs?: number;
  attempts?: number;
}
export type AlertChannelKind = 'desktop' | 'json' | 'slack' | 'discord' | 'telegram' | 'pagerduty';

/** What the console shows of a channel. */
export interface AlertChannelStatus {
  id: string;
  kind: AlertChannelKind;
  label: string;
  /** null: nothing sent yet. */
  ok: boolean | null;
  lastError: string | null;
  lastSentAt: string | null;
  /** When the last failure happened (null or absent: none since the last success). */
  lastFailedAt?: string | null;
}

/** The thresholds, each settable in Settings → Alerts and by flags. */
export interface AlertThresholds {
  balanceWarningSol: number;
  balanceCriticalSol: number;
  runwayWarningHours: number;
  rpcFailingSeconds: number;
  loopStalledSeconds: number;
  /** How long a condition must hold before it fires. */
  debounceSeconds: number;
  /** A reminder while an alert keeps firing, at most this often (0: never). */
  reminderMinutes: number;
  /** Crank failures per 10 minutes above which `crank-failures` fires. */
  crankFailuresPer10Min: number;
  /** Slots before expiry at which a wager without a request alerts. */
  expiryWarningSlots: number;
}

export const DEFAULT_ALERT_THRESHOLDS: AlertThresholds = {
  balanceWarningSol: 0.5,
  balanceCriticalSol: 0.1,
  runwayWarningHours: 24,
  rpcFailingSeconds: 30,
  loopStalledSeconds: 60,
  debounceSeconds: 10,
  reminderMinutes: 60,
  crankFailuresPer10Min: 20,
  expiryWarningSlots: 30,
};

/** Whether the keeper is fit to serve, for outside monitors (`GET /v1/ready`): the critical conditions now. */
export interface Readiness {
  ready: boolean;
  /** Each reason names its condition and says why, e.g. "rpc-failing: the RPC has failed for 42 s (fetch failed)". */
  reasons: string[];
}

/** What the console shows of the heartbeat (StatusView.heartbeat). */
export interface HeartbeatView {
  /** The URL with its secret part masked. */
  label: string;
  everySeconds: number;
  /** `pinging`: the last ping was taken; `failing`: the last ping failed; `notReady`: the keeper is not ready, so no pings. */
  state: 'waiting' | 'pinging' | 'failing' | 'notReady';
  /** ISO time of the last ping the monitor took. */
  lastPingAt: string | null;
  /** Why the last ping failed, with what to check. */
  lastError: string | null;
  /** While notReady: the readiness reasons (why the monitor hears nothing). */
  notReadyReasons: string[];
}

/** One firing, reminder or resolution, as the alert history keeps it. */
export interface AlertHistoryEntry {
  id: number;
  alert: AlertName;
  state: AlertState;
  severity: AlertSeverity;
  summary: string;
  at: string;
  reminder: boolean;
  /** Recorded while the alert was muted: not delivered to any channel. */
  muted: boolean;
}
