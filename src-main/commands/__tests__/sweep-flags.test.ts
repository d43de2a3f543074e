/** The --sweep-* flags of keeper and serve: what each sets in Settings → Earnings for the run, and the refusals. */
import { describe, expect, it } from 'vitest';
import { CONSOLE_SETTINGS_DEFAULTS } from '../../runtime/console-settings';
import { effectiveSettings } from '../../runtime/operator-options';
import { validateSweepSettings } from '../../operator/sweep-service';
import { UsageError } from '../cli-flags';
import { parseDuration, sweepFlags } from '../sweep-flags';

const WALLET = '7EqQdEULxWcraVx3mXKFjc84LhCkMGZCkRuDpvcMwJeK';
const KEEPER = 'GvHeR432g7MjN9uKyX3Dzg66TqwrEWgANLnnFZXMeyyj';

describe('the sweep flags', () => {
  it('--sweep-to turns the automatic mode on; each flag wins over the saved setting for the run', () => {
    const sweep = sweepFlags({
      'sweep-to': WALLET,
      'sweep-keep': '0.2',
      'sweep-threshold': '0.5',
      'sweep-every': '6h',
    });
    expect(sweep).toEqual({
      destination: WALLET,
      automatic: true,
      keepLamports: '200000000',
      thresholdLamports: '500000000',
      everySeconds: 21_600,
    });
    const saved = {
      ...CONSOLE_SETTINGS_DEFAULTS,
      sweep: { ...CONSOLE_SETTINGS_DEFAULTS.sweep, destination: KEEPER, everySeconds: 3_600 },
    };
    expect(effectiveSettings(saved, { sweep }).sweep).toEqual(sweep);
    expect(effectiveSettings(saved, { sweep: { keepLamports: '100000000' } }).sweep).toMatchObject({
      destination: KEEPER,
      everySeconds: 3_600,
      keepLamports: '100000000',
      automatic: false,
    });
    expect(sweepFlags({})).toBeUndefined();
  });

  it('refuses what cannot be a wallet, an amount, a reserve or an interval, naming the flag', () => {
    expect(() => sweepFlags({ 'sweep-to': 'wallet' })).toThrow(UsageError);
    expect(() => sweepFlags({ 'sweep-to': WALLET, 'sweep-keep': '0.0001' })).toThrow(
      /--sweep-keep: .*rent exemption/,
    );
    expect(() => sweepFlags({ 'sweep-to': WALLET, 'sweep-threshold': '1,5' })).toThrow(
      /--sweep-threshold must be an amount of SOL/,
    );
    expect(() => sweepFlags({ 'sweep-to': WALLET, 'sweep-every': '10s' })).toThrow(
      /--sweep-every must be a duration from 1 minute/,
    );
    expect(() => sweepFlags({ 'sweep-every': '1d' })).toThrow(/go with --sweep-to/);
    expect([
      parseDuration('90s'),
      parseDuration('30m'),
      parseDuration('1d'),
      parseDuration('120'),
      parseDuration('soon'),
    ]).toEqual([90, 1_800, 86_400, 120, null]);
  });

  it('Settings → Earnings refuses the keeper’s own address and an interval under a minute when saving', () => {
    expect(() => validateSweepSettings({ destination: KEEPER }, KEEPER)).toThrow(/the keeper's own address/);
    expect(() => validateSweepSettings({ everySeconds: 30 }, KEEPER)).toThrow(/from 1 minute to 30 days/);
    expect(validateSweepSettings({ destination: ` ${WALLET} `, keepLamports: null }, KEEPER)).toEqual({
      destination: WALLET,
      keepLamports: null,
    });
  });
});
