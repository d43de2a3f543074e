/**
 * Epochs from the EpochSchedule sysvar, with Agave's arithmetic (solana-epoch-schedule's
 * `get_epoch_and_slot_index` and `get_slots_in_epoch`, warmup included), so the Clock sysvar,
 * getEpochInfo and getEpochSchedule tell one story. Written here: LiteSVM keeps the sysvar but does not
 * compute epochs from it, and the JS packages have no such helper.
 */
export interface EpochScheduleFields {
  slotsPerEpoch: bigint;
  leaderScheduleSlotOffset: bigint;
  warmup: boolean;
  firstNormalEpoch: bigint;
  firstNormalSlot: bigint;
}

/** Agave's MINIMUM_SLOTS_PER_EPOCH: the first warmup epoch's length. */
const MINIMUM_SLOTS_PER_EPOCH = 32n;
const LOG2_MINIMUM = 5n;

/** log2 of the next power of two at or above n (n >= 1). */
function ceilLog2(n: bigint): bigint {
  let power = 0n;
  while (1n << power < n) power += 1n;
  return power;
}

export function epochAndSlotIndex(schedule: EpochScheduleFields, slot: bigint): { epoch: bigint; slotIndex: bigint } {
  if (slot < schedule.firstNormalSlot) {
    const epoch = ceilLog2(slot + MINIMUM_SLOTS_PER_EPOCH + 1n) - LOG2_MINIMUM - 1n;
    const epochLength = 1n << (epoch + LOG2_MINIMUM);
    return { epoch, slotIndex: slot - (epochLength - MINIMUM_SLOTS_PER_EPOCH) };
  }
  const normalSlotIndex = slot - schedule.firstNormalSlot;
  return { epoch: schedule.firstNormalEpoch + normalSlotIndex / schedule.slotsPerEpoch, slotIndex: normalSlotIndex % schedule.slotsPerEpoch };
}

export function slotsInEpoch(schedule: EpochScheduleFields, epoch: bigint): bigint {
  return epoch < schedule.firstNormalEpoch ? 1n << (epoch + LOG2_MINIMUM) : schedule.slotsPerEpoch;
}

/** The epoch whose leader schedule is known at `slot` (Agave's `get_leader_schedule_epoch`). */
export function leaderScheduleEpoch(schedule: EpochScheduleFields, slot: bigint): bigint {
  if (slot < schedule.firstNormalSlot) return epochAndSlotIndex(schedule, slot).epoch + 1n;
  const newSlotsSinceFirstNormal = slot - schedule.firstNormalSlot;
  return schedule.firstNormalEpoch + (newSlotsSinceFirstNormal + schedule.leaderScheduleSlotOffset) / schedule.slotsPerEpoch;
}
