/**
 * How long a number of slots takes on the cluster the console watches, from the slots the health events
 * report (the cluster's measured pace, not a constant: a localnet may run at 100 ms per slot). Until enough
 * time has passed to measure, the usual 400 ms per slot.
 */
export const DEFAULT_SLOT_MS = 400;
/** Samples closer together than this give no pace yet. */
const MIN_SPAN_MS = 3_000;

export interface SlotSample {
  slot: number;
  atMs: number;
}

/** Milliseconds per slot between the first and the last sample; the default while they are too close. */
export function slotMs(first: SlotSample | null, last: SlotSample | null): { ms: number; measured: boolean } {
  if (!first || !last || last.atMs - first.atMs < MIN_SPAN_MS || last.slot <= first.slot) return { ms: DEFAULT_SLOT_MS, measured: false };
  return { ms: (last.atMs - first.atMs) / (last.slot - first.slot), measured: true };
}
