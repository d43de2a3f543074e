// sol/sysvars.h: Clock and Rent through their syscalls, without passing the sysvar accounts.
#pragma once
#include "bytes.h"

// Rent sysvar as serialized: u64 lamports_per_byte_year, f64 exemption_threshold, u8 burn_percent.
#define SOL_RENT_SIZE 17
// Every account is charged for 128 bytes of metadata on top of its data.
#define SOL_ACCOUNT_STORAGE_OVERHEAD 128
// The exemption thresholds clusters use, as IEEE-754 bits: 2.0 (historic) and 1.0 (SIMD-0194, with
// lamports_per_byte_year doubled). BPF has no floating point, so the threshold is matched bit for bit.
#define SOL_RENT_THRESHOLD_ONE_BITS 0x3ff0000000000000ULL
#define SOL_RENT_THRESHOLD_TWO_BITS 0x4000000000000000ULL

/** Lamports that make an account of `space` bytes rent-exempt; false for a threshold other than 1 or 2. */
static inline bool sol_rent_exempt_minimum(u64 space, u64 *lamports) {
  u8 rent[24];
  if (sol_get_rent_sysvar(rent) != SUCCESS) return false;
  u64 per_byte_year = sol_read_u64(rent);
  u64 threshold = sol_read_u64(rent + 8);
  u64 years;
  if (threshold == SOL_RENT_THRESHOLD_ONE_BITS) years = 1;
  else if (threshold == SOL_RENT_THRESHOLD_TWO_BITS) years = 2;
  else return false;
  *lamports = (SOL_ACCOUNT_STORAGE_OVERHEAD + space) * per_byte_year * years;
  return true;
}

/**
 * Rent exemption for several sizes from one syscall: lamports per byte with the threshold applied, so the
 * minimum of `space` bytes is (SOL_ACCOUNT_STORAGE_OVERHEAD + space) * per_byte.
 */
typedef struct {
  u64 per_byte;
} SolRentRate;

/** Reads the Rent sysvar once; false for a threshold other than 1 or 2 (as sol_rent_exempt_minimum). */
static inline bool sol_rent_rate(SolRentRate *rate) {
  u64 overhead_only;
  if (!sol_rent_exempt_minimum(0, &overhead_only)) return false;
  rate->per_byte = overhead_only / SOL_ACCOUNT_STORAGE_OVERHEAD; // exact: overhead * per_byte_year * years
  return true;
}

/** Lamports that make an account of `space` bytes rent-exempt at `rate`. */
static inline u64 sol_rent_minimum_at(const SolRentRate *rate, u64 space) {
  return (SOL_ACCOUNT_STORAGE_OVERHEAD + space) * rate->per_byte;
}

/** The current slot. */
static inline u64 sol_current_slot(void) {
  SolClock clock;
  sol_get_clock_sysvar(&clock);
  return clock.slot;
}
