import { describe, expect, it } from 'vitest';
import { epochAndSlotIndex, leaderScheduleEpoch, slotsInEpoch } from '../epoch-schedule';

// Agave's EpochSchedule::default(): 432 000 slots per epoch after warmup epochs of 32, 64, ... slots.
const schedule = { slotsPerEpoch: 432_000n, leaderScheduleSlotOffset: 432_000n, warmup: true, firstNormalEpoch: 14n, firstNormalSlot: 524_256n };

describe('epochs as Agave computes them', () => {
  it('counts the warmup epochs (32, 64, 128 ... slots) and then normal ones', () => {
    expect(epochAndSlotIndex(schedule, 0n)).toEqual({ epoch: 0n, slotIndex: 0n });
    expect(epochAndSlotIndex(schedule, 31n)).toEqual({ epoch: 0n, slotIndex: 31n });
    expect(epochAndSlotIndex(schedule, 32n)).toEqual({ epoch: 1n, slotIndex: 0n });
    expect(epochAndSlotIndex(schedule, 95n)).toEqual({ epoch: 1n, slotIndex: 63n });
    expect(epochAndSlotIndex(schedule, 96n)).toEqual({ epoch: 2n, slotIndex: 0n });
    expect(epochAndSlotIndex(schedule, 524_255n)).toEqual({ epoch: 13n, slotIndex: 262_143n });
    expect(epochAndSlotIndex(schedule, 524_256n)).toEqual({ epoch: 14n, slotIndex: 0n });
    // The localnet's first slot, as the issue reported the schedule to say it.
    expect(epochAndSlotIndex(schedule, 447_552_305n)).toEqual({ epoch: 1048n, slotIndex: 340_049n });
    expect(slotsInEpoch(schedule, 0n)).toBe(32n);
    expect(slotsInEpoch(schedule, 13n)).toBe(262_144n);
    expect(slotsInEpoch(schedule, 1048n)).toBe(432_000n);
  });

  it('knows the leader schedule one epoch ahead', () => {
    expect(leaderScheduleEpoch(schedule, 0n)).toBe(1n);
    expect(leaderScheduleEpoch(schedule, 447_552_305n)).toBe(1049n);
  });
});
