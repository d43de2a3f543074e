// sol/math.h: 64x64 -> 128-bit multiply and 128/64 division, written out because BPF has no 128-bit
// multiply or divide (clang-19 refuses __int128 mul/div for this target). Checked, never wrapping.
#pragma once
#include "types.h"

typedef struct {
  u64 lo;
  u64 hi;
} SolU128;

/** a * b as 128 bits, from four 32x32 partial products. */
static inline SolU128 sol_mul_u64(u64 a, u64 b) {
  u64 a_lo = a & 0xffffffffULL, a_hi = a >> 32;
  u64 b_lo = b & 0xffffffffULL, b_hi = b >> 32;
  u64 lo_lo = a_lo * b_lo;
  u64 hi_lo = a_hi * b_lo;
  u64 lo_hi = a_lo * b_hi;
  u64 hi_hi = a_hi * b_hi;
  u64 cross = (lo_lo >> 32) + (hi_lo & 0xffffffffULL) + lo_hi;
  SolU128 r;
  r.lo = (cross << 32) | (lo_lo & 0xffffffffULL);
  r.hi = hi_hi + (hi_lo >> 32) + (cross >> 32);
  return r;
}

/**
 * floor(n / d) into *quotient; false when d is 0 or the quotient does not fit in 64 bits.
 * Shift-subtract long division: 128 iterations at most, a few thousand CU in the worst case.
 */
static inline bool sol_div_u128_u64(SolU128 n, u64 d, u64 *quotient) {
  if (d == 0 || n.hi >= d) return false; // n.hi >= d means the quotient needs more than 64 bits
  if (n.hi == 0) { // the common case (amounts times basis points fit in 64 bits): one native division
    *quotient = n.lo / d;
    return true;
  }
  u64 rem = n.hi, q = 0;
  for (int i = 63; i >= 0; i--) {
    u64 carry = rem >> 63;
    rem = (rem << 1) | ((n.lo >> i) & 1);
    q <<= 1;
    if (carry || rem >= d) {
      rem -= d;
      q |= 1;
    }
  }
  *quotient = q;
  return true;
}

/** floor(a * b / d) into *out; false on division by zero or a result above 2^64 - 1. */
static inline bool sol_mul_div_floor(u64 a, u64 b, u64 d, u64 *out) { return sol_div_u128_u64(sol_mul_u64(a, b), d, out); }

/** a + b into *out; false on overflow. */
static inline bool sol_add_checked(u64 a, u64 b, u64 *out) {
  *out = a + b;
  return *out >= a;
}
