/**
 * Settings → Earnings as one table (issue 35): each sweep setting's flag and default, the automatic
 * interval's bounds, and the reserve's floor and days. The core's check (operator/sweep-service.ts), the
 * `--sweep-*` flags (commands/sweep-flags.ts) and the console's form (model/sweep.ts) all read it.
 */
import type { SweepSettings } from '../contract/sweep';
import { LOW_BALANCE_LAMPORTS } from '../contract/status';
import { DAY_MS, LAMPORTS_PER_SOL } from '../units';

/** One sweep setting: the `keeper`/`serve` flag that sets it for a run (without dashes) and its default. */
export interface SweepSettingRule<V> {
  flag: string;
  default: V;
}

/** Every field of Settings → Earnings. --sweep-to sets the destination and turns the automatic mode on. */
export const SWEEP_SETTINGS_TABLE = {
  destination: { flag: 'sweep-to', default: '' },
  automatic: { flag: 'sweep-to', default: false },
  keepLamports: { flag: 'sweep-keep', default: null },
  thresholdLamports: { flag: 'sweep-threshold', default: String(LAMPORTS_PER_SOL / 10) },
  everySeconds: { flag: 'sweep-every', default: DAY_MS / 1000 },
} as const satisfies { [K in keyof SweepSettings]: SweepSettingRule<SweepSettings[K]> };

/** A sweep flag's name (without dashes), as a literal type for parseArgs. */
export type SweepFlag = (typeof SWEEP_SETTINGS_TABLE)[keyof SweepSettings]['flag'];

/** Settings → Earnings before a person sets it: no destination, the measured reserve, automatic off (0.1 SOL threshold, once a day). */
export const DEFAULT_SWEEP_SETTINGS: SweepSettings = {
  destination: SWEEP_SETTINGS_TABLE.destination.default,
  keepLamports: SWEEP_SETTINGS_TABLE.keepLamports.default,
  automatic: SWEEP_SETTINGS_TABLE.automatic.default,
  thresholdLamports: SWEEP_SETTINGS_TABLE.thresholdLamports.default,
  everySeconds: SWEEP_SETTINGS_TABLE.everySeconds.default,
};

/** The `keeper`/`serve` flag that sets each of Settings → Earnings' fields (a flag wins for its run; Settings shows it read-only). */
export const SWEEP_SETTING_FLAGS = Object.fromEntries(
  Object.entries(SWEEP_SETTINGS_TABLE).map(([key, rule]) => [key, `--${rule.flag}`]),
) as Readonly<Record<keyof SweepSettings, string>>;

/** The automatic interval in seconds: at least a minute, at most 30 days. */
export const SWEEP_EVERY_SECONDS = { min: 60, max: 30 * 86_400 } as const;
/** The interval's bounds in words, and how people write one (every refusal of an interval says them). */
export const SWEEP_EVERY_WORDS = 'from 1 minute to 30 days';
export const SWEEP_EVERY_EXAMPLES = 'like 30m, 6h or 1d';

/** Whether `seconds` is an automatic interval the table allows (whole seconds, within the bounds). */
export const isSweepEvery = (seconds: unknown): seconds is number =>
  typeof seconds === 'number' &&
  Number.isInteger(seconds) &&
  seconds >= SWEEP_EVERY_SECONDS.min &&
  seconds <= SWEEP_EVERY_SECONDS.max;

/** The reserve never goes below the console's low-balance line (0.05 SOL), whatever the measured spend. */
export const RESERVE_FLOOR_LAMPORTS = BigInt(LOW_BALANCE_LAMPORTS);
/** The default reserve pays this many days of fees at the measured spend. */
export const RESERVE_DAYS = 7;
