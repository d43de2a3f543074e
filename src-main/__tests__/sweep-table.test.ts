/** Settings → Earnings' one table: the interval's bounds refused alike by the core, the flags and the form; defaults, flags and the reserve floor from it. */
import { describe, expect, it } from 'vitest';
import { LOW_BALANCE_LAMPORTS } from '../../src-shared/contract/status';
import { DEFAULT_SWEEP_SETTINGS, isSweepEvery, RESERVE_FLOOR_LAMPORTS, SWEEP_EVERY_EXAMPLES, SWEEP_EVERY_SECONDS, SWEEP_EVERY_WORDS, SWEEP_SETTING_FLAGS, SWEEP_SETTINGS_TABLE } from '../../src-shared/settings/sweep';
import { CONSOLE_SETTINGS_DEFAULTS } from '../runtime/console-settings';
import { validateSweepSettings } from '../operator/sweep-service';
import { SWEEP_FLAG_OPTIONS, sweepFlags } from '../commands/sweep-flags';
import { reserveFor } from '../sweep/sweep-plan';
import { parseSweepForm, sweepFormOf } from '../../src-renderer/src/model/sweep';

const WALLET = '7EqQdEULxWcraVx3mXKFjc84LhCkMGZCkRuDpvcMwJeK';
const KEEPER = 'GvHeR432g7MjN9uKyX3Dzg66TqwrEWgANLnnFZXMeyyj';

describe('the sweep settings table', () => {
  it('refuses an interval past each bound in the core, the flags and the form, in the same words', () => {
    const { min, max } = SWEEP_EVERY_SECONDS;
    for (const seconds of [min - 1, max + 1]) {
      expect(isSweepEvery(seconds)).toBe(false);
      expect(() => validateSweepSettings({ everySeconds: seconds }, KEEPER)).toThrow(`the interval must be ${SWEEP_EVERY_WORDS}`);
      expect(() => sweepFlags({ 'sweep-to': WALLET, 'sweep-every': String(seconds) })).toThrow(`--sweep-every must be a duration ${SWEEP_EVERY_WORDS}, ${SWEEP_EVERY_EXAMPLES}`);
      const form = { ...sweepFormOf(DEFAULT_SWEEP_SETTINGS), every: String(seconds) };
      expect(parseSweepForm(form, DEFAULT_SWEEP_SETTINGS, []).errors.every).toBe(`${SWEEP_EVERY_WORDS}, ${SWEEP_EVERY_EXAMPLES}`);
    }
    for (const seconds of [min, max]) {
      expect(validateSweepSettings({ everySeconds: seconds }, KEEPER)).toEqual({ everySeconds: seconds });
      expect(sweepFlags({ 'sweep-to': WALLET, 'sweep-every': String(seconds) })?.everySeconds).toBe(seconds);
    }
  });

  it('gives the saved defaults, each field its flag, and the flags their options', () => {
    expect(CONSOLE_SETTINGS_DEFAULTS.sweep).toEqual(DEFAULT_SWEEP_SETTINGS);
    expect(DEFAULT_SWEEP_SETTINGS).toEqual({ destination: '', keepLamports: null, automatic: false, thresholdLamports: '100000000', everySeconds: 86_400 });
    for (const [key, rule] of Object.entries(SWEEP_SETTINGS_TABLE)) {
      expect(SWEEP_SETTING_FLAGS[key as keyof typeof SWEEP_SETTINGS_TABLE]).toBe(`--${rule.flag}`);
      expect(SWEEP_FLAG_OPTIONS).toHaveProperty(rule.flag, { type: 'string' });
    }
    expect(Object.keys(SWEEP_FLAG_OPTIONS).sort()).toEqual(['sweep-every', 'sweep-keep', 'sweep-threshold', 'sweep-to']);
  });

  it("keeps the reserve at least at the console's low-balance line", () => {
    expect(RESERVE_FLOOR_LAMPORTS).toBe(BigInt(LOW_BALANCE_LAMPORTS));
    expect(reserveFor(null, { feeLamports: 0n, days: 1 })).toMatchObject({ lamports: RESERVE_FLOOR_LAMPORTS, source: 'floor' });
  });
});
