// sol/sysvars.h: Clock and Rent through their syscalls, without passing the sysvar accounts.
#pragma once
#include "bytes.h"

// Rent sysvar as serialized: u64 lamports_per_byte_year, f64 exemption_threshold, u8 burn_percent.
#define SOL_RENT_SIZE 17
// Every account is charged for 128 bytes of metadata on top of its data.
#define SOL_ACCOUNT_STORAGE_OVERHEAD 128
// 2.0 as IEEE-754 bits: the only exemption threshold Solana clusters use. BPF has no floating point, so
// the threshold is compared bit for bit instead of multiplied.
#define SOL_RENT_THRESHOLD_TWO_BITS 0x4000000000000000ULL

/** Lamports that make an account of `space` bytes rent-exempt; false if the Rent sysvar is unusual. */
static inline bool sol_rent_exempt_minimum(u64 space, u64 *lamports) {
  u8 rent[24];
  if (sol_get_rent_sysvar(rent) != SUCCESS) return false;
  u64 per_byte_year = sol_read_u64(rent);
  if (sol_read_u64(rent + 8) != SOL_RENT_THRESHOLD_TWO_BITS) return false;
  *lamports = (SOL_ACCOUNT_STORAGE_OVERHEAD + space) * per_byte_year * 2;
  return true;
}

/** The current slot. */
static inline u64 sol_current_slot(void) {
  SolClock clock;
  sol_get_clock_sysvar(&clock);
  return clock.slot;
}
