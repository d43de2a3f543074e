/** Settings → Earnings' form, as pure functions: SOL and intervals as people type them, and the changes to save. */
import type { SweepSettings } from '@shared/contract/sweep';
import { isSweepEvery, RESERVE_DAYS, SWEEP_EVERY_EXAMPLES, SWEEP_EVERY_WORDS } from '@shared/settings/sweep';
import { formatDurationSeconds, formatSolDecimal, parseDuration, parseSol } from '@shared/units';

export interface SweepForm {
  destination: string;
  /** SOL; empty: the measured reserve. */
  keep: string;
  threshold: string;
  every: string;
}

/** "0.5" → "500000000"; null when it is not an amount of SOL (at most 9 decimals). */
export function solToLamports(text: string): string | null {
  return parseSol(text)?.toString() ?? null;
}

/** "500000000" → "0.5" (what the form shows). */
export const lamportsToSol = (lamports: string): string => formatSolDecimal(BigInt(lamports));

export const sweepFormOf = (settings: SweepSettings): SweepForm => ({
  destination: settings.destination,
  keep: settings.keepLamports === null ? '' : lamportsToSol(settings.keepLamports),
  threshold: lamportsToSol(settings.thresholdLamports),
  every: formatDurationSeconds(settings.everySeconds),
});

/** The changed fields (fixed ones left out), or what is wrong with each field. */
export function parseSweepForm(form: SweepForm, saved: SweepSettings, fixed: (keyof SweepSettings)[]) {
  const errors: Partial<Record<keyof SweepForm, string>> = {};
  const changes: Partial<SweepSettings> = {};
  const destination = form.destination.trim();
  if (destination !== saved.destination && !fixed.includes('destination')) {
    if (destination !== '' && !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(destination))
      errors.destination = 'a Solana address is 32 to 44 base58 characters: paste it from your wallet';
    else changes.destination = destination;
  }
  const keep = form.keep.trim() === '' ? null : solToLamports(form.keep);
  if (form.keep.trim() !== '' && keep === null)
    errors.keep = `an amount of SOL like 0.5, or empty for ${RESERVE_DAYS} days of fees at the measured spend`;
  else if (keep !== saved.keepLamports && !fixed.includes('keepLamports')) changes.keepLamports = keep;
  const threshold = solToLamports(form.threshold);
  if (threshold === null) errors.threshold = 'an amount of SOL like 0.1';
  else if (threshold !== saved.thresholdLamports && !fixed.includes('thresholdLamports'))
    changes.thresholdLamports = threshold;
  const every = parseDuration(form.every);
  if (!isSweepEvery(every)) errors.every = `${SWEEP_EVERY_WORDS}, ${SWEEP_EVERY_EXAMPLES}`;
  else if (every !== saved.everySeconds && !fixed.includes('everySeconds')) changes.everySeconds = every;
  return { errors, changes };
}
