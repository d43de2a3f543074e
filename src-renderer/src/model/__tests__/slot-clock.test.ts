import { describe, expect, it } from 'vitest';
import { DEFAULT_SLOT_MS, slotMs } from '../slot-clock';

describe('the pace of slots', () => {
  it('is measured from the health samples once they span a few seconds', () => {
    expect(slotMs({ slot: 1_000, atMs: 0 }, { slot: 1_050, atMs: 5_000 })).toEqual({ ms: 100, measured: true });
    expect(slotMs({ slot: 1_000, atMs: 0 }, { slot: 1_010, atMs: 4_000 })).toEqual({ ms: 400, measured: true });
  });

  it('is the usual 400 ms until then, or when the slot does not move', () => {
    expect(slotMs(null, null)).toEqual({ ms: DEFAULT_SLOT_MS, measured: false });
    expect(slotMs({ slot: 1_000, atMs: 0 }, { slot: 1_005, atMs: 1_000 })).toEqual({ ms: DEFAULT_SLOT_MS, measured: false });
    expect(slotMs({ slot: 1_000, atMs: 0 }, { slot: 1_000, atMs: 10_000 })).toEqual({ ms: DEFAULT_SLOT_MS, measured: false });
  });
});
