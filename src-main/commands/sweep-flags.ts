/**
 * The sweep flags of `keeper` and `serve` (issue 28): `--sweep-to ADDRESS --sweep-keep SOL
 * --sweep-threshold SOL --sweep-every DURATION`. --sweep-to turns the automatic mode on for this run: it
 * sends whatever exceeds the reserve + threshold, at most once per interval. Each flag wins over Settings →
 * Earnings for this run (shown read-only there) and is never saved.
 */
import { isAddress } from '@solana/kit';
import { checkReserve, SweepRefusal } from '../sweep/sweep-plan';
import { parseDuration, parseSol } from '../../src-shared/units';
import type { SweepSettings } from '../../src-shared/contract/sweep';
import { isSweepEvery, SWEEP_EVERY_EXAMPLES, SWEEP_EVERY_WORDS, SWEEP_SETTINGS_TABLE, type SweepFlag } from '../../src-shared/settings/sweep';
import { UsageError } from './cli-flags';

/** A duration as people write it (90s, 30m, 6h, 1d, bare seconds): src-shared/units.ts. */
export { parseDuration };

/** parseArgs options for the sweep flags (spread into a command's options). */
export const SWEEP_FLAG_OPTIONS = Object.fromEntries(
  Object.values(SWEEP_SETTINGS_TABLE).map((rule) => [rule.flag, { type: 'string' }]),
) as Readonly<Record<SweepFlag, { readonly type: 'string' }>>;

/** SOL from a flag, or a usage error naming it. */
export function solFlag(flag: string, value: string): bigint {
  const lamports = parseSol(value);
  if (lamports === null)
    throw new UsageError(`--${flag} must be an amount of SOL like 0.5 (at most 9 decimals), got '${value}'`);
  return lamports;
}

/**
 * Settings → Earnings as the flags set it (undefined: no flag).
 * @example sweepFlags({ 'sweep-to': WALLET, 'sweep-every': '1d' }) // { destination: WALLET, automatic: true, everySeconds: 86400 }
 */
export function sweepFlags(
  values: Partial<Record<keyof typeof SWEEP_FLAG_OPTIONS, string>>,
): Partial<SweepSettings> | undefined {
  const sweep: Partial<SweepSettings> = {};
  const to = values['sweep-to'];
  if (to !== undefined) {
    if (!isAddress(to.trim()))
      throw new UsageError(`--sweep-to must be your wallet's address (base58), got '${to}'`);
    Object.assign(sweep, { destination: to.trim(), automatic: true });
  } else if (values['sweep-threshold'] !== undefined || values['sweep-every'] !== undefined) {
    throw new UsageError(
      '--sweep-threshold and --sweep-every go with --sweep-to ADDRESS (the wallet the automatic mode sends to)',
    );
  }
  if (values['sweep-keep'] !== undefined) {
    try {
      sweep.keepLamports = checkReserve(solFlag('sweep-keep', values['sweep-keep'])).toString();
    } catch (error) {
      if (error instanceof SweepRefusal) throw new UsageError(`--sweep-keep: ${error.message}`);
      throw error;
    }
  }
  if (values['sweep-threshold'] !== undefined)
    sweep.thresholdLamports = solFlag('sweep-threshold', values['sweep-threshold']).toString();
  const every = values['sweep-every'];
  if (every !== undefined) {
    const seconds = parseDuration(every);
    if (!isSweepEvery(seconds))
      throw new UsageError(
        `--sweep-every must be a duration ${SWEEP_EVERY_WORDS}, ${SWEEP_EVERY_EXAMPLES}, got '${every}'`,
      );
    sweep.everySeconds = seconds;
  }
  return Object.keys(sweep).length > 0 ? sweep : undefined;
}
