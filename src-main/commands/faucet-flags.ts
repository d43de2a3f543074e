/**
 * `--faucet-sol-per-day SOL` of `keeper` and `serve` (issue 33): what the faucet's claims may cost the
 * keeper's key in one UTC day (top-ups, token account rent, fees), 0.5 SOL without it; 0 turns the faucet's
 * spending off (every claim refused until the flag changes). Never saved.
 */
import { solFlag } from './sweep-flags';

/** parseArgs options for the faucet flags (spread into a command's options). */
export const FAUCET_FLAG_OPTIONS = {
  'faucet-sol-per-day': { type: 'string' },
} as const;

/** The flags as OperatorFlags, or a usage error naming the flag. */
export function faucetFlags(values: { 'faucet-sol-per-day'?: string }): { faucetSolPerDayLamports?: bigint } {
  const value = values['faucet-sol-per-day'];
  return value === undefined ? {} : { faucetSolPerDayLamports: solFlag('faucet-sol-per-day', value) };
}
