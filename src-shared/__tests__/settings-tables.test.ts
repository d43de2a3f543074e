/**
 * The settings tables' own checks, pure (src-main/__tests__/*-table.test.ts run the same values through
 * the core, the flags and the form): each bound, the balance levels' rule, the sweep interval, the
 * reserve's floor and the endpoint URL rules.
 */
import { describe, expect, it } from 'vitest';
import { LOW_BALANCE_LAMPORTS } from '../contract/status';
import { ALERT_THRESHOLD_KEYS, ALERT_THRESHOLD_TABLE, checkAlertThresholds, criticalAboveWarning, thresholdFault } from '../settings/alert-thresholds';
import { hasProtocol, RPC_URL_PROTOCOLS, trimEndpointUrl, WS_URL_PROTOCOLS } from '../settings/rpc-endpoints';
import { DEFAULT_SWEEP_SETTINGS, isSweepEvery, RESERVE_FLOOR_LAMPORTS, SWEEP_EVERY_SECONDS, SWEEP_SETTING_FLAGS } from '../settings/sweep';

describe('the alert thresholds table', () => {
  it('refuses a value past each bound, a fraction where a whole number goes, and an unknown threshold, naming what to enter', () => {
    for (const key of ALERT_THRESHOLD_KEYS) {
      const { min, max, whole } = ALERT_THRESHOLD_TABLE[key];
      expect([thresholdFault(key, min), thresholdFault(key, max)], key).toEqual([null, null]);
      expect([thresholdFault(key, min - 1), thresholdFault(key, max + 1), thresholdFault(key, Number.NaN)], key).toEqual(['outOfRange', 'outOfRange', 'notANumber']);
      expect(thresholdFault(key, min + 0.5), key).toBe(whole ? 'notWhole' : null);
      expect(() => checkAlertThresholds({ [key]: max + 1 }), key).toThrow(`${key} must be the ${ALERT_THRESHOLD_TABLE[key].what} (${whole ? 'an integer' : 'a number'} from ${min} to ${max}), got ${max + 1}`);
    }
    expect(() => checkAlertThresholds({ soonSeconds: 1 } as never)).toThrow(/^unknown alert threshold 'soonSeconds'; the thresholds are balanceWarningSol, /);
    expect(checkAlertThresholds({ debounceSeconds: 5, balanceWarningSol: 0.25 })).toEqual({ debounceSeconds: 5, balanceWarningSol: 0.25 });
  });

  it('keeps the critical balance at or below the warning one', () => {
    expect(criticalAboveWarning({ balanceCriticalSol: 0.5, balanceWarningSol: 0.1 })).toBe(true);
    expect(criticalAboveWarning({ balanceCriticalSol: 0.1, balanceWarningSol: 0.1 })).toBe(false);
  });
});

describe('the sweep settings table', () => {
  it('takes an automatic interval of whole seconds from a minute to 30 days', () => {
    expect(SWEEP_EVERY_SECONDS).toEqual({ min: 60, max: 2_592_000 });
    expect([59, 60, 90.5, 2_592_000, 2_592_001, '60', null].map(isSweepEvery)).toEqual([false, true, false, true, false, false, false]);
  });

  it('derives the defaults and the flags, and keeps the reserve at least at the low-balance line', () => {
    expect(DEFAULT_SWEEP_SETTINGS).toEqual({ destination: '', keepLamports: null, automatic: false, thresholdLamports: '100000000', everySeconds: 86_400 });
    expect(SWEEP_SETTING_FLAGS).toEqual({ destination: '--sweep-to', automatic: '--sweep-to', keepLamports: '--sweep-keep', thresholdLamports: '--sweep-threshold', everySeconds: '--sweep-every' });
    expect(RESERVE_FLOOR_LAMPORTS).toBe(BigInt(LOW_BALANCE_LAMPORTS));
  });
});

describe('the RPC endpoints table', () => {
  it('takes http(s) for RPC and ws(s) for WebSocket endpoints, nothing else, and lists an endpoint once', () => {
    expect(['http://a', ' https://a ', 'ftp://a', 'a'].map((url) => hasProtocol(url, RPC_URL_PROTOCOLS))).toEqual([true, true, false, false]);
    expect(['ws://a', 'wss://a', 'https://a'].map((url) => hasProtocol(url, WS_URL_PROTOCOLS))).toEqual([true, true, false]);
    expect(trimEndpointUrl(' https://a.example// ')).toBe('https://a.example');
  });
});
