/**
 * A fleet's split of the wagers (`--shard I/N`, issue 19): keeper I of N cranks first the wagers whose
 * address hashes to I, and another shard's wager only once it has waited `takeoverSlots` past its due
 * slot, so a fleet does not race itself yet loses nothing when a member dies (docs/keeper.md, *Fleets*).
 */
import { getAddressEncoder, type Address } from '@solana/kit';
import { createHash } from 'node:crypto';

/**
 * Slots another shard's wager waits past its due slot before a fleet member takes it over. A dead
 * member's wager waits this twice (its request, then its settlement) plus the oracle's few slots: about
 * 45 slots, well inside T_SETTLE = 150 and before the last 50 slots where every keeper cranks it anyway
 * (URGENT_SLOTS). And long enough that a live member's own crank (a slot or two to land, at most 4 s =
 * 10 slots of backoff after a failure) comes first.
 */
export const DEFAULT_SHARD_TAKEOVER_SLOTS = 20;

export interface Shard {
  /** This keeper's shard, 0..count-1. */
  index: number;
  /** Keepers in the fleet. */
  count: number;
  /** Slots past its due slot before another shard's wager is taken over. */
  takeoverSlots: number;
}

/** Thrown for a `--shard` value that is not `I/N` with 0 <= I < N. */
export class ShardFormatError extends Error {}

/**
 * `I/N` as written on the command line.
 * @example parseShard('1/3') // { index: 1, count: 3 }; parseShard('3/3') throws ShardFormatError
 */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) throw new ShardFormatError(`--shard must be I/N (this keeper's number I from 0 to N-1, N keepers in the fleet), got '${text}'`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (!Number.isSafeInteger(count) || count < 1) throw new ShardFormatError(`--shard I/N needs N >= 1 keepers in the fleet, got '${text}'`);
  if (!Number.isSafeInteger(index) || index >= count) throw new ShardFormatError(`--shard I/N needs I from 0 to ${count - 1} (N-1), got '${text}'`);
  return { index, count };
}

const addressEncoder = getAddressEncoder();

/**
 * The shard of a wager: the first 4 bytes of SHA-256 of its address's 32 bytes, as a big-endian unsigned
 * integer, modulo `count`. Stable across keepers, versions and languages.
 * @example shardOf(address, 3) // 0, 1 or 2, the same on every keeper
 */
export function shardOf(wager: Address, count: number): number {
  if (count <= 1) return 0;
  const digest = createHash('sha256').update(addressEncoder.encode(wager) as Uint8Array).digest();
  return digest.readUInt32BE(0) % count;
}

/** The `shard` field of the ready line and health: "I/N". */
export const shardLabel = (shard: Pick<Shard, 'index' | 'count'>): string => `${shard.index}/${shard.count}`;
