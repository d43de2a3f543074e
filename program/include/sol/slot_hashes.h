// sol/slot_hashes.h: look up entries of the SlotHashes sysvar through sol_get_sysvar, without the
// sysvar account (cheaper, and no account a caller could fake).
// Layout: u64 count, then count x (u64 slot, 32-byte hash), newest (highest slot) first.
#pragma once
#include "pubkey.h"

#define SOL_SLOT_HASH_ENTRY_SIZE 40

typedef struct {
  u64 slot;
  u8 hash[32];
} SolSlotHash;

/** Number of entries, or 0 when the sysvar cannot be read. */
static inline u64 sol_slot_hashes_count(void) {
  const SolPubkey id = SOL_SYSVAR_SLOT_HASHES_ID;
  u8 buf[8];
  if (sol_get_sysvar(id.x, buf, 0, 8) != SUCCESS) return 0;
  return sol_read_u64(buf);
}

/** Reads entry `index` (0 = newest); false when it cannot be read. */
static inline bool sol_slot_hashes_entry(u64 index, SolSlotHash *out) {
  const SolPubkey id = SOL_SYSVAR_SLOT_HASHES_ID;
  u8 buf[SOL_SLOT_HASH_ENTRY_SIZE];
  if (sol_get_sysvar(id.x, buf, 8 + index * SOL_SLOT_HASH_ENTRY_SIZE, SOL_SLOT_HASH_ENTRY_SIZE) != SUCCESS) return false;
  out->slot = sol_read_u64(buf);
  __builtin_memcpy(out->hash, buf + 8, 32);
  return true;
}

/**
 * Finds the entry for `slot` by binary search (entries are sorted by slot, descending). Returns its index
 * or -1 when the slot is not in the sysvar (skipped, or too old).
 */
static inline i64 sol_slot_hashes_find(u64 slot, u64 count, SolSlotHash *out) {
  u64 lo = 0, hi = count;
  while (lo < hi) {
    u64 mid = lo + (hi - lo) / 2;
    if (!sol_slot_hashes_entry(mid, out)) return -1;
    if (out->slot == slot) return (i64)mid;
    if (out->slot > slot) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

#define SOL_SLOT_HASHES_HINT_STEPS 8

/**
 * Like sol_slot_hashes_find, starting from `hint`: the index the caller saw the slot at. Entries only move
 * to higher indices as new slots are recorded, so a short walk from the hint finds it in one or two reads
 * (~120 CU each) instead of a binary search's nine or ten; a wrong hint falls back to the search.
 */
static inline i64 sol_slot_hashes_find_from(u64 slot, u64 count, u64 hint, SolSlotHash *out) {
  for (u64 i = hint, steps = 0; i < count && steps < SOL_SLOT_HASHES_HINT_STEPS; i++, steps++) {
    if (!sol_slot_hashes_entry(i, out)) return -1;
    if (out->slot == slot) return (i64)i;
    if (out->slot < slot) break; // walked past it: the hint was too high
  }
  return sol_slot_hashes_find(slot, count, out);
}
