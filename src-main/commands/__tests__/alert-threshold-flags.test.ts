/** The alert threshold flags: each sets its threshold for the run; a bad value is a usage error naming the flag and what it must be. */
import { describe, expect, it } from 'vitest';
import { alertThresholdFlags } from '../alert-threshold-flags';

describe('alert threshold flags', () => {
  it('sets only the thresholds given', () => {
    expect(alertThresholdFlags({})).toBeUndefined();
    expect(alertThresholdFlags({ 'alert-balance-critical': '0.2', 'alert-debounce-seconds': '5', 'alert-reminder-minutes': '0' })).toEqual({ balanceCriticalSol: 0.2, debounceSeconds: 5, reminderMinutes: 0 });
  });
  it('refuses a value that is not a threshold, naming the flag', () => {
    expect(() => alertThresholdFlags({ 'alert-rpc-failing-seconds': 'soon' })).toThrow(/--alert-rpc-failing-seconds: rpcFailingSeconds must be the seconds the RPC may fail before it alerts \(an integer from 1 to 86400\), got 'soon'/);
    expect(() => alertThresholdFlags({ 'alert-balance-warning': '0.1', 'alert-balance-critical': '0.5' })).toThrow(/--alert-balance-critical must not be above --alert-balance-warning/);
  });
});
