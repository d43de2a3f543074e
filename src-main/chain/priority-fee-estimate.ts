/**
 * The priority fee that follows the market (`--priority-fee auto`, issue 27): a percentile of what
 * getRecentPrioritizationFees says it took to write the accounts a crank writes, times a multiplier,
 * between a floor and a cap. Only the last RECENT_SLOTS slots count (the market now, not a minute ago:
 * a p75 over all 150 slots would rise only after a quarter of a minute of load and fall as late), and each
 * account set is asked about at most once per `maxAgeMs` (about a slot), with concurrent asks shared, so
 * a burst of cranks costs one RPC call. The pay rule (a crank's fee never above its pay) and the urgent
 * raise stay with the send path, which lowers whatever this returns within them.
 *
 * A slot's answer is the lowest price paid to write the accounts, and the keeper's own cranks write them
 * too: a slot where the answer is exactly what one of its own cranks paid there says only "the keeper
 * landed at that price", not what anyone else paid. Counted, it would hold the fee up by itself after a
 * load (the keeper's cranks at the raised price are then the slot's lowest) and pull it down during one
 * (its cheap cranks in the load's slots). So such slots are left out (`ownFees`); with none left the last
 * estimate for those accounts stands (the keeper landed every slot at it: no evidence to move it).
 */
import type { Address, GetRecentPrioritizationFeesApi, Rpc } from '@solana/kit';

export interface AutoPriorityFeePolicy {
  /** 0..100: which percentile of the recent slots' fees (75: three slots in four needed no more). */
  percentile: number;
  /** Applied to the percentile (1.2 bids 20 % above it). */
  multiplier: number;
  /** The floor, micro-lamports per compute unit (`--min-priority-fee`). */
  minMicroLamports: bigint;
  /** The cap, micro-lamports per compute unit (`--max-priority-fee`); none when undefined. */
  maxMicroLamports?: bigint;
}

export const DEFAULT_AUTO_PRIORITY_FEE: AutoPriorityFeePolicy = {
  percentile: 75,
  multiplier: 1,
  minMicroLamports: 0n,
};

/** How many of the most recent slots the percentile is taken over (about 8 s at 400 ms slots). */
export const RECENT_SLOTS = 20;
/** An estimate serves this long (about one slot) before the accounts are asked about again. */
export const ESTIMATE_MAX_AGE_MS = 400;

/** The fee in use and why, for the status line and the console. */
export interface PriorityFeeStatus {
  mode: 'fixed' | 'auto';
  microLamports: number;
  why: string;
  /** When it was estimated (ISO); null for a fixed fee. */
  at: string | null;
}

export interface PriorityFeeChoice {
  microLamports: bigint;
  why: string;
}

/** 1234567n -> "1 234 567" (the console's grouping). */
const grouped = (value: bigint) => value.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** The nearest-rank percentile of `values` (0 for none). */
export function percentileOf(values: readonly bigint[], percentile: number): bigint {
  if (values.length === 0) return 0n;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = Math.ceil((Math.min(Math.max(percentile, 0), 100) / 100) * sorted.length);
  return sorted[Math.min(Math.max(rank - 1, 0), sorted.length - 1)]!;
}

/**
 * The price to bid from recent slots' fees (oldest first or not: each is a slot's fee) under `policy`.
 * @example priorityFeeFromRecent([0n, 1_000n, 1_000n, 1_000n], { percentile: 75, multiplier: 1.2, minMicroLamports: 0n })
 *   // { microLamports: 1_200n, why: 'p75 of recent fees for the accounts cranked (1 000 µL/CU) × 1.2' }
 */
export function priorityFeeFromRecent(
  fees: readonly bigint[],
  policy: AutoPriorityFeePolicy,
): PriorityFeeChoice {
  const percentile = percentileOf(fees, policy.percentile);
  const multiplied =
    policy.multiplier === 1 ? percentile : BigInt(Math.ceil(Number(percentile) * policy.multiplier));
  const from = `p${policy.percentile} of recent fees for the accounts cranked (${grouped(percentile)} µL/CU)${policy.multiplier === 1 ? '' : ` × ${policy.multiplier}`}`;
  if (policy.maxMicroLamports !== undefined && multiplied > policy.maxMicroLamports) {
    return {
      microLamports: policy.maxMicroLamports,
      why: `capped at --max-priority-fee (${grouped(policy.maxMicroLamports)} µL/CU; ${from})`,
    };
  }
  if (multiplied < policy.minMicroLamports) {
    return {
      microLamports: policy.minMicroLamports,
      why: `raised to --min-priority-fee (${grouped(policy.minMicroLamports)} µL/CU; ${from})`,
    };
  }
  return { microLamports: multiplied, why: from };
}

export interface PriorityFeeEstimator {
  /** The price for a crank writing `accounts` (micro-lamports per CU): cached about a slot per account set; never throws. */
  priceFor(accounts: readonly string[]): Promise<bigint>;
  /** The last estimate and why (the floor before any). */
  status(): PriorityFeeStatus;
}

export interface PriorityFeeEstimatorOptions {
  rpc: Rpc<GetRecentPrioritizationFeesApi>;
  policy: AutoPriorityFeePolicy;
  /** The prices (µL/CU) the keeper's own transactions landed at in `slot`, if any. */
  ownFees?: (slot: bigint) => ReadonlySet<bigint> | undefined;
  maxAgeMs?: number;
  now?: () => number;
}

interface CachedEstimate {
  at: number;
  choice: Promise<PriorityFeeChoice>;
}

/** Account sets remembered at most (a keeper's cranks write a handful of sets; bounded all the same). */
const MAX_CACHED_SETS = 1_000;

export function createPriorityFeeEstimator({
  rpc,
  policy,
  ownFees,
  maxAgeMs = ESTIMATE_MAX_AGE_MS,
  now = Date.now,
}: PriorityFeeEstimatorOptions): PriorityFeeEstimator {
  const cache = new Map<string, CachedEstimate>();
  const settled = new Map<string, PriorityFeeChoice>();
  let last: { choice: PriorityFeeChoice; at: number } | undefined;

  const estimate = async (key: string, accounts: readonly string[]): Promise<PriorityFeeChoice> => {
    try {
      const fees = await rpc.getRecentPrioritizationFees(accounts as Address[]).send();
      const recent = [...fees].sort((a, b) => (a.slot < b.slot ? -1 : 1)).slice(-RECENT_SLOTS);
      const outside = recent.filter(
        (fee) => !ownFees?.(BigInt(fee.slot))?.has(BigInt(fee.prioritizationFee)),
      );
      const standing = settled.get(key);
      if (outside.length === 0 && standing) return standing;
      const choice = priorityFeeFromRecent(
        outside.map((fee) => BigInt(fee.prioritizationFee)),
        policy,
      );
      settled.set(key, choice);
      last = { choice, at: now() };
      return choice;
    } catch (error) {
      // An estimate the RPC could not give must not stop a crank: the last one for these accounts, else the floor.
      const kept = settled.get(key);
      const why = `recent fees unreadable (${(error as Error).message.split('\n')[0]}): ${kept ? 'the last estimate kept' : 'the floor'}`;
      return { microLamports: kept?.microLamports ?? policy.minMicroLamports, why };
    }
  };

  return {
    async priceFor(accounts) {
      const unique = [...new Set(accounts)].sort().slice(0, 128); // Agave answers at most 128 accounts
      const key = unique.join(',');
      const cached = cache.get(key);
      if (cached && now() - cached.at < maxAgeMs) return (await cached.choice).microLamports;
      if (cache.size >= MAX_CACHED_SETS) cache.clear();
      const entry = { at: now(), choice: estimate(key, unique) };
      cache.set(key, entry);
      return (await entry.choice).microLamports;
    },
    status() {
      const choice = last?.choice ?? priorityFeeFromRecent([], policy);
      return {
        mode: 'auto',
        microLamports: Number(choice.microLamports),
        why: last ? choice.why : `no crank sent yet (${choice.why})`,
        at: last ? new Date(last.at).toISOString() : null,
      };
    },
  };
}

/** The status of a fixed fee (`--priority-fee N`, or none). */
export function fixedPriorityFeeStatus(microLamports: bigint | undefined): PriorityFeeStatus {
  return {
    mode: 'fixed',
    microLamports: Number(microLamports ?? 0n),
    why: microLamports ? 'fixed by --priority-fee' : 'none set (--priority-fee 0)',
    at: null,
  };
}
