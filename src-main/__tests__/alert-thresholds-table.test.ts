/**
 * Settings → Alerts' one table: a threshold past either bound is refused by the core's check and by its
 * flag with the same sentence, and by the form at the same bound; the critical level above the warning
 * one is refused by all three.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_THRESHOLDS } from '../../src-shared/alert-types';
import { ALERT_THRESHOLD_KEYS, ALERT_THRESHOLD_TABLE, checkAlertThresholds, criticalAboveWarning, thresholdFault } from '../../src-shared/settings/alert-thresholds';
import { alertThresholdFlags } from '../commands/alert-threshold-flags';
import { parseThresholdsForm, thresholdsFormOf, type ThresholdsForm } from '../../src-renderer/src/model/alerts';

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('the alert thresholds table', () => {
  it('holds every threshold, with its default', () => {
    expect(ALERT_THRESHOLD_KEYS.sort()).toEqual(Object.keys(DEFAULT_ALERT_THRESHOLDS).sort());
    for (const key of ALERT_THRESHOLD_KEYS) expect(ALERT_THRESHOLD_TABLE[key].default).toBe(DEFAULT_ALERT_THRESHOLDS[key]);
  });

  it('refuses a value past each bound with the same sentence in the core and the flags, and at the same bound in the form', () => {
    const form = thresholdsFormOf(DEFAULT_ALERT_THRESHOLDS);
    for (const key of ALERT_THRESHOLD_KEYS) {
      const { min, max, flag, unit } = ALERT_THRESHOLD_TABLE[key];
      for (const past of [min - 1, max + 1]) {
        expect(thresholdFault(key, past), key).toBe('outOfRange');
        const core = refusal(() => checkAlertThresholds({ [key]: past }));
        expect(core, key).toMatch(new RegExp(`^${key} must be the .* from ${min} to ${max}\\), got ${past}$`));
        const sentence = core.replace(/, got .*$/, '');
        expect(refusal(() => alertThresholdFlags({ [flag]: String(past) })), key).toContain(`--${flag}: ${sentence}, got `);
        const { errors } = parseThresholdsForm({ ...form, [key]: String(past) } as ThresholdsForm, DEFAULT_ALERT_THRESHOLDS);
        expect(errors[key], key).toBe(`Must be from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')} ${unit}`);
      }
      expect(checkAlertThresholds({ [key]: min }), key).toEqual({ [key]: min });
      expect(checkAlertThresholds({ [key]: max }), key).toEqual({ [key]: max });
    }
  });

  it('refuses a critical balance above the warning one everywhere, and takes them equal', () => {
    expect(criticalAboveWarning({ balanceCriticalSol: 0.5, balanceWarningSol: 0.1 })).toBe(true);
    expect(criticalAboveWarning({ balanceCriticalSol: 0.1, balanceWarningSol: 0.1 })).toBe(false);
    expect(() => alertThresholdFlags({ 'alert-balance-warning': '0.1', 'alert-balance-critical': '0.5' })).toThrow(/must not be above/);
    expect(alertThresholdFlags({ 'alert-balance-warning': '0.1', 'alert-balance-critical': '0.1' })).toEqual({ balanceWarningSol: 0.1, balanceCriticalSol: 0.1 });
    const form = { ...thresholdsFormOf(DEFAULT_ALERT_THRESHOLDS), balanceWarningSol: '0.1', balanceCriticalSol: '0.5' };
    expect(parseThresholdsForm(form, DEFAULT_ALERT_THRESHOLDS).errors.balanceCriticalSol).toMatch(/^Must not be above the warning level/);
  });
});
