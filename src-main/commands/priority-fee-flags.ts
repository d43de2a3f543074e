/**
 * The priority fee flags of `keeper` (issue 27): `--priority-fee auto|MICROLAMPORTS`, and how auto bids:
 * `--priority-fee-percentile P` (default 75), `--priority-fee-multiplier X` (default 1), `--min-priority-fee`
 * (the floor) and `--max-priority-fee` (the cap), micro-lamports per compute unit. Without --priority-fee
 * the keeper bids auto on a public cluster (devnet, testnet, mainnet-beta) and nothing on a localnet;
 * either way a crank's fee never exceeds what it pays the keeper.
 */
import type { AutoPriorityFeePolicy } from '../chain/priority-fee-estimate';
import type { OperatorFlags } from '../runtime/operator-options';
import { UsageError } from './cli-flags';

/** parseArgs options for the priority fee flags (spread into a command's options). */
export const PRIORITY_FEE_OPTIONS = {
  'priority-fee': { type: 'string' },
  'priority-fee-percentile': { type: 'string' },
  'priority-fee-multiplier': { type: 'string' },
  'min-priority-fee': { type: 'string' },
  'max-priority-fee': { type: 'string' },
} as const;

/** The most a flag may bid (micro-lamports per CU): Settings' own limit. */
const MAX_MICRO_LAMPORTS = 100_000_000;

const microLamportsFlag = (flag: string, value: string): bigint => {
  if (!/^\d+$/.test(value.trim()) || Number(value) > MAX_MICRO_LAMPORTS)
    throw new UsageError(
      `--${flag} must be micro-lamports per compute unit, 0 to ${MAX_MICRO_LAMPORTS} (got '${value}')`,
    );
  return BigInt(value.trim());
};

/**
 * The flags as the operator service takes them (nothing when none is given).
 * @example priorityFeeFlags({ 'priority-fee': 'auto', 'max-priority-fee': '50000' }) // { priorityFeeAuto: true, priorityFeePolicy: { maxMicroLamports: 50000n } }
 */
export function priorityFeeFlags(
  values: Partial<Record<keyof typeof PRIORITY_FEE_OPTIONS, string>>,
): Pick<OperatorFlags, 'priorityFeeMicroLamports' | 'priorityFeeAuto' | 'priorityFeePolicy'> {
  const fee = values['priority-fee']?.trim();
  const policy: Partial<AutoPriorityFeePolicy> = {};
  const percentile = values['priority-fee-percentile'];
  if (percentile !== undefined) {
    const parsed = Number(percentile);
    if (!/^\d+(\.\d+)?$/.test(percentile.trim()) || parsed < 1 || parsed > 100)
      throw new UsageError(
        `--priority-fee-percentile must be a percentile from 1 to 100, like 75 (got '${percentile}')`,
      );
    policy.percentile = parsed;
  }
  const multiplier = values['priority-fee-multiplier'];
  if (multiplier !== undefined) {
    const parsed = Number(multiplier);
    if (!/^\d+(\.\d+)?$/.test(multiplier.trim()) || parsed <= 0 || parsed > 100)
      throw new UsageError(
        `--priority-fee-multiplier must be a number above 0, like 1.2 (got '${multiplier}')`,
      );
    policy.multiplier = parsed;
  }
  if (values['min-priority-fee'] !== undefined)
    policy.minMicroLamports = microLamportsFlag('min-priority-fee', values['min-priority-fee']);
  if (values['max-priority-fee'] !== undefined)
    policy.maxMicroLamports = microLamportsFlag('max-priority-fee', values['max-priority-fee']);
  if (
    policy.minMicroLamports !== undefined &&
    policy.maxMicroLamports !== undefined &&
    policy.minMicroLamports > policy.maxMicroLamports
  )
    throw new UsageError(
      `--min-priority-fee (${policy.minMicroLamports}) is above --max-priority-fee (${policy.maxMicroLamports}): the floor must be at most the cap`,
    );
  const bounds = Object.keys(policy).length > 0 ? { priorityFeePolicy: policy } : {};
  if (fee === undefined) return bounds;
  if (fee === 'auto') return { priorityFeeAuto: true, ...bounds };
  if (Object.keys(bounds).length > 0)
    throw new UsageError(
      `--priority-fee ${fee} is a fixed fee: --priority-fee-percentile, --priority-fee-multiplier, --min-priority-fee and --max-priority-fee go with --priority-fee auto`,
    );
  return { priorityFeeAuto: false, priorityFeeMicroLamports: Number(microLamportsFlag('priority-fee', fee)) };
}
