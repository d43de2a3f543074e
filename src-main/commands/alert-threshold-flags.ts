/**
 * The alert threshold flags of `keeper` and `serve` (issue 26): `--alert-balance-warning SOL
 * --alert-balance-critical SOL --alert-runway-hours H --alert-rpc-failing-seconds S
 * --alert-loop-stalled-seconds S --alert-debounce-seconds S --alert-reminder-minutes M
 * --alert-crank-failures-per-10-min N --alert-expiry-warning-slots N`: every threshold of Settings → Alerts.
 * Each wins over Settings → Alerts for this run (shown read-only there) and is never saved.
 */
import type { AlertThresholds } from '../../src-shared/alert-types';
import { ALERT_THRESHOLD_KEYS, ALERT_THRESHOLD_TABLE, checkAlertThresholds, criticalAboveWarning, type AlertThresholdFlag } from '../../src-shared/settings/alert-thresholds';
import { UsageError } from './cli-flags';

// Each flag and the threshold it sets, from the one table of Settings → Alerts.
const FLAG_THRESHOLDS = Object.fromEntries(ALERT_THRESHOLD_KEYS.map((key) => [ALERT_THRESHOLD_TABLE[key].flag, key])) as Record<AlertThresholdFlag, keyof AlertThresholds>;

/** parseArgs options for the threshold flags (spread into a command's options). */
export const ALERT_THRESHOLD_OPTIONS = Object.fromEntries(Object.keys(FLAG_THRESHOLDS).map((flag) => [flag, { type: 'string' }])) as Record<AlertThresholdFlag, { type: 'string' }>;

/**
 * The thresholds the flags set (undefined: none), each checked as Settings checks it.
 * @example alertThresholdFlags({ 'alert-balance-critical': '0.2' }) // { balanceCriticalSol: 0.2 }
 */
export function alertThresholdFlags(values: Partial<Record<AlertThresholdFlag, string>>): Partial<AlertThresholds> | undefined {
  const thresholds: Partial<AlertThresholds> = {};
  for (const [flag, key] of Object.entries(FLAG_THRESHOLDS) as [AlertThresholdFlag, keyof AlertThresholds][]) {
    const value = values[flag];
    if (value === undefined) continue;
    const number = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
    try {
      Object.assign(thresholds, checkAlertThresholds({ [key]: number }));
    } catch (error) {
      throw new UsageError(`--${flag}: ${(error as Error).message.replace(/, got null$/, `, got '${value}'`)}`);
    }
  }
  const { balanceCriticalSol, balanceWarningSol } = thresholds;
  if (balanceWarningSol !== undefined && balanceCriticalSol !== undefined && criticalAboveWarning({ balanceCriticalSol, balanceWarningSol }))
    throw new UsageError('--alert-balance-critical must not be above --alert-balance-warning');
  return Object.keys(thresholds).length > 0 ? thresholds : undefined;
}
