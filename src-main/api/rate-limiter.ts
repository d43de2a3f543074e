/**
 * Token buckets per (route class, client): a bucket holds up to `burst` tokens and refills at
 * `perMinute` tokens a minute; each request takes one. An empty bucket answers with the ms until the next
 * token. Idle buckets are forgotten once they would be full again, so memory follows active clients.
 */

export interface BucketConfig {
  /** Sustained rate: tokens added per minute. */
  perMinute: number;
  /** Bucket size: requests allowed at once after a quiet period. */
  burst: number;
}

export type TakeResult = { allowed: true } | { allowed: false; retryAfterMs: number };

export interface RateLimiter {
  take(key: string, config: BucketConfig): TakeResult;
  /** Number of buckets held (for tests and metrics). */
  size(): number;
}

interface Bucket {
  tokens: number;
  at: number;
  config: BucketConfig;
}

/** Forget idle buckets at most this often. */
const SWEEP_INTERVAL_MS = 60_000;

export function createRateLimiter(now: () => number): RateLimiter {
  const buckets = new Map<string, Bucket>();
  let lastSweep = now();

  const refill = (bucket: Bucket, at: number): number => {
    const elapsed = Math.max(0, at - bucket.at);
    return Math.min(bucket.config.burst, bucket.tokens + (elapsed * bucket.config.perMinute) / 60_000);
  };

  const sweep = (at: number) => {
    if (at - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = at;
    for (const [key, bucket] of buckets) if (refill(bucket, at) >= bucket.config.burst) buckets.delete(key);
  };

  return {
    take(key, config) {
      const at = now();
      sweep(at);
      const bucket = buckets.get(key) ?? { tokens: config.burst, at, config };
      bucket.tokens = refill(bucket, at);
      bucket.at = at;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true };
      }
      return { allowed: false, retryAfterMs: Math.ceil(((1 - bucket.tokens) * 60_000) / config.perMinute) };
    },
    size: () => buckets.size,
  };
}
