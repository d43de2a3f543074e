// sol/bytes.h: little-endian loads and stores at any alignment, and byte helpers.
// Why: instruction data and account data carry no alignment promise; a fixed-size
// __builtin_memcpy compiles to plain loads, which BPF allows at any address.
#pragma once
#include "syscalls.h"

static inline u16 sol_read_u16(const u8 *p) { u16 v; __builtin_memcpy(&v, p, 2); return v; }
static inline u32 sol_read_u32(const u8 *p) { u32 v; __builtin_memcpy(&v, p, 4); return v; }
static inline u64 sol_read_u64(const u8 *p) { u64 v; __builtin_memcpy(&v, p, 8); return v; }
static inline void sol_write_u32(u8 *p, u32 v) { __builtin_memcpy(p, &v, 4); }
static inline void sol_write_u64(u8 *p, u64 v) { __builtin_memcpy(p, &v, 8); }

/** Copies n bytes (n known only at run time): the memcpy syscall, since BPF has no libc. */
static inline void sol_copy(void *dst, const void *src, u64 n) { sol_memcpy_(dst, src, n); }
static inline void sol_zero(void *dst, u64 n) { sol_memset_(dst, 0, n); }

/** True when the n bytes at a and b are equal. */
static inline bool sol_bytes_eq(const void *a, const void *b, u64 n) {
  int result = 0;
  sol_memcmp_(a, b, n, &result);
  return result == 0;
}

static inline bool sol_bytes_all_zero(const u8 *p, u64 n) {
  for (u64 i = 0; i < n; i++) {
    if (p[i] != 0) return false;
  }
  return true;
}
