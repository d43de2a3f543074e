/**
 * The bucket a settlement draws and what it pays, exactly as program/wager/draw.c and settle_wager.c
 * compute them: point = floor(r * total_weight / 2^64) with r the first 8 randomness bytes (u64 LE);
 * the bucket is the first whose cumulative weight exceeds point; payout = floor(stake * multiplier / 10 000).
 */
import type { ReadonlyUint8Array } from '@solana/kit';

export interface PaytableBuckets {
  totalWeight: bigint;
  bucketCount: number;
  buckets: readonly { weight: number; multiplierBps: number }[];
}

export function drawBucket(paytable: PaytableBuckets, randomness: ReadonlyUint8Array): number {
  const view = new DataView(randomness.buffer, randomness.byteOffset, 8);
  const r = view.getBigUint64(0, true);
  const point = (r * paytable.totalWeight) >> 64n;
  let cumulative = 0n;
  for (let i = 0; i < paytable.bucketCount; i++) {
    cumulative += BigInt(paytable.buckets[i]!.weight);
    if (point < cumulative) return i;
  }
  return paytable.bucketCount - 1;
}

export const payoutFor = (stake: bigint, multiplierBps: number): bigint => (stake * BigInt(multiplierBps)) / 10_000n;
