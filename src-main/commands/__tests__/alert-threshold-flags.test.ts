/** The alert threshold flags: each sets its threshold for the run; a bad value is a usage error naming the flag and what it must be. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_THRESHOLDS } from '../../../src-shared/alert-types';
import { THRESHOLD_FIELDS } from '../../../src-renderer/src/model/alerts';
import { ALERT_THRESHOLD_OPTIONS, alertThresholdFlags } from '../alert-threshold-flags';

describe('alert threshold flags', () => {
  it('sets only the thresholds given', () => {
    expect(alertThresholdFlags({})).toBeUndefined();
    expect(alertThresholdFlags({ 'alert-balance-critical': '0.2', 'alert-debounce-seconds': '5', 'alert-reminder-minutes': '0' })).toEqual({ balanceCriticalSol: 0.2, debounceSeconds: 5, reminderMinutes: 0 });
    expect(alertThresholdFlags({ 'alert-crank-failures-per-10-min': '5', 'alert-expiry-warning-slots': '40' })).toEqual({ crankFailuresPer10Min: 5, expiryWarningSlots: 40 });
  });
  it('has a flag for every threshold Settings → Alerts has', () => {
    const set = Object.keys(ALERT_THRESHOLD_OPTIONS).flatMap((flag) => Object.keys(alertThresholdFlags({ [flag]: '1' }) ?? {}));
    expect(set.sort()).toEqual(Object.keys(DEFAULT_ALERT_THRESHOLDS).sort());
  });
  it('refuses a value that is not a threshold, naming the flag', () => {
    expect(() => alertThresholdFlags({ 'alert-rpc-failing-seconds': 'soon' })).toThrow(/--alert-rpc-failing-seconds: rpcFailingSeconds must be the seconds the RPC may fail before it alerts \(an integer from 1 to 86400\), got 'soon'/);
    expect(() => alertThresholdFlags({ 'alert-balance-warning': '0.1', 'alert-balance-critical': '0.5' })).toThrow(/--alert-balance-critical must not be above --alert-balance-warning/);
    expect(() => alertThresholdFlags({ 'alert-expiry-warning-slots': '500' })).toThrow(/--alert-expiry-warning-slots: expiryWarningSlots must be the slots before expiry .* \(an integer from 1 to 150\), got 500/);
    expect(() => alertThresholdFlags({ 'alert-crank-failures-per-10-min': '2.5' })).toThrow(/--alert-crank-failures-per-10-min: crankFailuresPer10Min must be .* \(an integer from 0 to 1000000\), got 2\.5/);
  });
  it("matches Settings → Alerts: each field's flag sets that threshold, within the same bounds", () => {
    expect(THRESHOLD_FIELDS.map((field) => field.key).sort()).toEqual(Object.keys(DEFAULT_ALERT_THRESHOLDS).sort());
    for (const field of THRESHOLD_FIELDS) {
      const flag = field.flag.replace(/^--/, '');
      expect(Object.keys(ALERT_THRESHOLD_OPTIONS)).toContain(flag);
      const set = (value: number) => () => alertThresholdFlags({ [flag]: String(value) });
      expect(set(field.min)(), field.key).toEqual({ [field.key]: field.min });
      expect(set(field.max)(), field.key).toEqual({ [field.key]: field.max });
      expect(set(field.min - 1), field.key).toThrow(field.flag);
      expect(set(field.max + 1), field.key).toThrow(field.flag);
      if (field.whole) expect(set(field.min + 0.5), field.key).toThrow(field.flag);
      else expect(set(field.min + 0.5)(), field.key).toEqual({ [field.key]: field.min + 0.5 });
    }
  });
});
