/**
 * The wager timing rules (spec T_SETTLE), once: when randomness may be requested and when an unfulfilled
 * wager expires.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */

/** T_SETTLE (spec): the request window is open+2 .. open+150; past open+150 an unfulfilled wager expires. */
export const REQUEST_DELAY_SLOTS = 2;

export const T_SETTLE_SLOTS = 150;

/** The latest a guardian may pause new wagers after a request started waiting: before waiting wagers expire. */
export const GUARDIAN_PAUSE_MAX_SLOTS = T_SETTLE_SLOTS - 1;

/** The longest a fleet member waits past another shard's due slot: a dead member's wager waits it twice (request, then settle), both inside T_SETTLE. */
export const SHARD_TAKEOVER_MAX_SLOTS = Math.floor((T_SETTLE_SLOTS - 1) / 2);

/** `openSlot` plus `slots`, in the caller's kind of number (the chain's bigint or the console's number). */
const after = <T extends bigint | number>(openSlot: T, slots: number): T =>
  (typeof openSlot === 'bigint' ? openSlot + BigInt(slots) : (openSlot as number) + slots) as T;

/** The first slot at which randomness may be requested for a wager opened at `openSlot` (open + 2). */
export function requestOpensAt(openSlot: bigint): bigint;
export function requestOpensAt(openSlot: number): number;
export function requestOpensAt(openSlot: bigint | number): bigint | number {
  return after(openSlot, REQUEST_DELAY_SLOTS);
}

/** The slot at which a wager opened at `openSlot` expires unless settled (open + T_SETTLE; the request window closes). */
export function expiresAt(openSlot: bigint): bigint;
export function expiresAt(openSlot: number): number;
export function expiresAt(openSlot: bigint | number): bigint | number {
  return after(openSlot, T_SETTLE_SLOTS);
}
