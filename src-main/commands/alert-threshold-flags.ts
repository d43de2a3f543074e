/**
 * The alert threshold flags of `keeper` and `serve` (issue 26): `--alert-balance-warning SOL
 * --alert-balance-critical SOL --alert-runway-hours H --alert-rpc-failing-seconds S
 * --alert-loop-stalled-seconds S --alert-debounce-seconds S --alert-reminder-minutes M
 * --alert-crank-failures-per-10-min N --alert-expiry-warning-slots N`: every threshold of Settings → Alerts.
 * Each wins over Settings → Alerts for this run (shown read-only there) and is never saved.
 */
import type { AlertThresholds } from '../../src-shared/alert-types';
import { validateAlertThresholds } from '../operator/alerts-service';
import { UsageError } from './cli-flags';

const FLAG_THRESHOLDS = {
  'alert-balance-warning': 'balanceWarningSol',
  'alert-balance-critical': 'balanceCriticalSol',
  'alert-runway-hours': 'runwayWarningHours',
  'alert-rpc-failing-seconds': 'rpcFailingSeconds',
  'alert-loop-stalled-seconds': 'loopStalledSeconds',
  'alert-debounce-seconds': 'debounceSeconds',
  'alert-reminder-minutes': 'reminderMinutes',
  'alert-crank-failures-per-10-min': 'crankFailuresPer10Min',
  'alert-expiry-warning-slots': 'expiryWarningSlots',
} as const satisfies Record<string, keyof AlertThresholds>;
type ThresholdFlag = keyof typeof FLAG_THRESHOLDS;

/** parseArgs options for the threshold flags (spread into a command's options). */
export const ALERT_THRESHOLD_OPTIONS = Object.fromEntries(Object.keys(FLAG_THRESHOLDS).map((flag) => [flag, { type: 'string' }])) as Record<ThresholdFlag, { type: 'string' }>;

/**
 * The thresholds the flags set (undefined: none), each checked as Settings checks it.
 * @example alertThresholdFlags({ 'alert-balance-critical': '0.2' }) // { balanceCriticalSol: 0.2 }
 */
export function alertThresholdFlags(values: Partial<Record<ThresholdFlag, string>>): Partial<AlertThresholds> | undefined {
  const thresholds: Partial<AlertThresholds> = {};
  for (const [flag, key] of Object.entries(FLAG_THRESHOLDS) as [ThresholdFlag, keyof AlertThresholds][]) {
    const value = values[flag];
    if (value === undefined) continue;
    const number = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
    try {
      Object.assign(thresholds, validateAlertThresholds({ [key]: number }));
    } catch (error) {
      throw new UsageError(`--${flag}: ${(error as Error).message.replace(/, got null$/, `, got '${value}'`)}`);
    }
  }
  if (thresholds.balanceWarningSol !== undefined && thresholds.balanceCriticalSol !== undefined && thresholds.balanceCriticalSol > thresholds.balanceWarningSol)
    throw new UsageError('--alert-balance-critical must not be above --alert-balance-warning');
  return Object.keys(thresholds).length > 0 ? thresholds : undefined;
}
