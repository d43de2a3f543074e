/**
 * Settings → Alerts' thresholds as one table (issue 35): each threshold's label, unit, bounds, default and
 * flag, and the checks that the core's save, the `--alert-*` flags and the console's form all run. Each
 * surface words a refusal for its reader; the bounds and the rules are only here.
 */
import { DEFAULT_ALERT_THRESHOLDS, type AlertThresholds } from '../alert-types';
import { T_SETTLE_SLOTS } from '../wager-timing';

export type AlertThresholdKey = keyof AlertThresholds;

/** One threshold: how the form shows it, what the core's refusal calls it, its bounds, default and flag. */
export interface AlertThresholdRule {
  label: string;
  unit: string;
  /** The form's note under the field. */
  note: string;
  /** What it is, in the core's refusal: "<key> must be the <what> (…)". */
  what: string;
  min: number;
  max: number;
  /** Whole numbers only (otherwise decimals are accepted). */
  whole: boolean;
  default: number;
  /** The `keeper`/`serve` flag that sets it for a run, without its dashes. */
  flag: string;
}

const D = DEFAULT_ALERT_THRESHOLDS;

/** Every threshold, in the order the form and the usage list them. */
export const ALERT_THRESHOLD_TABLE = {
  balanceWarningSol: { label: 'Balance warning', unit: 'SOL', note: 'a warning below this balance', what: 'SOL below which the balance warns',
    min: 0, max: 1_000_000, whole: false, default: D.balanceWarningSol, flag: 'alert-balance-warning' },
  balanceCriticalSol: { label: 'Balance critical', unit: 'SOL', note: 'critical below this balance (not ready for monitors)', what: 'SOL below which the balance is critical',
    min: 0, max: 1_000_000, whole: false, default: D.balanceCriticalSol, flag: 'alert-balance-critical' },
  runwayWarningHours: { label: 'Runway warning', unit: 'h', note: 'a warning when the balance lasts less than this at the current spend', what: 'hours of runway below which it warns',
    min: 0, max: 10_000, whole: false, default: D.runwayWarningHours, flag: 'alert-runway-hours' },
  rpcFailingSeconds: { label: 'RPC failing', unit: 's', note: 'critical once the RPC has failed this long', what: 'seconds the RPC may fail before it alerts',
    min: 1, max: 86_400, whole: true, default: D.rpcFailingSeconds, flag: 'alert-rpc-failing-seconds' },
  loopStalledSeconds: { label: 'Loop stalled', unit: 's', note: 'critical after this long without a loop pass', what: 'seconds without a loop pass before it alerts',
    min: 1, max: 86_400, whole: true, default: D.loopStalledSeconds, flag: 'alert-loop-stalled-seconds' },
  debounceSeconds: { label: 'Debounce', unit: 's', note: 'how long a condition must hold before its alert fires', what: 'seconds a condition must hold before it fires',
    min: 0, max: 86_400, whole: true, default: D.debounceSeconds, flag: 'alert-debounce-seconds' },
  reminderMinutes: { label: 'Reminder', unit: 'min', note: 'remind of an alert still firing this often (0: never)', what: 'minutes between reminders (0: never)',
    min: 0, max: 10_080, whole: true, default: D.reminderMinutes, flag: 'alert-reminder-minutes' },
  crankFailuresPer10Min: { label: 'Crank failures', unit: 'per 10 min', note: 'alert above this many failed cranks (0: at the first)', what: 'crank failures per 10 minutes above which it alerts',
    min: 0, max: 1_000_000, whole: true, default: D.crankFailuresPer10Min, flag: 'alert-crank-failures-per-10-min' },
  expiryWarningSlots: { label: 'Expiry warning', unit: 'slots', note: `alert when a wager with no request is this close to expiring (at most ${T_SETTLE_SLOTS})`, what: 'slots before expiry at which a wager without a request alerts',
    min: 1, max: T_SETTLE_SLOTS, whole: true, default: D.expiryWarningSlots, flag: 'alert-expiry-warning-slots' },
} as const satisfies Record<AlertThresholdKey, AlertThresholdRule>;

/** The thresholds' keys, in the table's order. */
export const ALERT_THRESHOLD_KEYS = Object.keys(ALERT_THRESHOLD_TABLE) as AlertThresholdKey[];

/** A threshold's flag name (without dashes), as a literal type for parseArgs. */
export type AlertThresholdFlag = (typeof ALERT_THRESHOLD_TABLE)[AlertThresholdKey]['flag'];

/** What is wrong with a threshold's value: not a finite number, not whole where it must be, or out of bounds. */
export type ThresholdFault = 'notANumber' | 'notWhole' | 'outOfRange';

/** The fault of `value` as threshold `key`, or null when the table allows it. */
export function thresholdFault(key: AlertThresholdKey, value: unknown): ThresholdFault | null {
  const rule: AlertThresholdRule = ALERT_THRESHOLD_TABLE[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'notANumber';
  if (rule.whole && !Number.isInteger(value)) return 'notWhole';
  if (value < rule.min || value > rule.max) return 'outOfRange';
  return null;
}

/**
 * Checks thresholds from Settings or flags, naming the one that is wrong and what it must be (the core's
 * sentence; a flag's refusal prefixes it with the flag).
 * @example checkAlertThresholds({ expiryWarningSlots: 500 }) // throws "expiryWarningSlots must be the slots … (an integer from 1 to 150), got 500"
 */
export function checkAlertThresholds(changes: Partial<Record<AlertThresholdKey, unknown>>): Partial<AlertThresholds> {
  const checked: Partial<AlertThresholds> = {};
  for (const [key, value] of Object.entries(changes ?? {}) as [AlertThresholdKey, unknown][]) {
    const rule: AlertThresholdRule | undefined = ALERT_THRESHOLD_TABLE[key];
    if (!rule) throw new Error(`unknown alert threshold '${String(key)}'; the thresholds are ${ALERT_THRESHOLD_KEYS.join(', ')}`);
    if (thresholdFault(key, value) !== null)
      throw new Error(`${key} must be the ${rule.what} (${rule.whole ? 'an integer' : 'a number'} from ${rule.min} to ${rule.max}), got ${JSON.stringify(value)}`);
    checked[key] = value as number;
  }
  return checked;
}

/** The balance levels' rule: the critical level must not be above the warning one. */
export const criticalAboveWarning = (levels: Pick<AlertThresholds, 'balanceCriticalSol' | 'balanceWarningSol'>): boolean =>
  levels.balanceCriticalSol > levels.balanceWarningSol;

/** Settings → Alerts' heartbeat period: seconds between pings of the dead man's switch (the core's check and the form's). */
export const HEARTBEAT_EVERY_SECONDS = { min: 1, max: 86_400 } as const;
