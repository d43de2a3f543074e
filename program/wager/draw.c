// draw.c: the bucket drawn from the oracle's 64 bytes of randomness, by cumulative weight.
//
// r = the first 8 bytes as a u64 (little endian); point = floor(r * total_weight / 2^64), a value in
// [0, total_weight); the bucket is the first whose cumulative weight exceeds point. A multiply-high
// instead of a modulo: the bias is at most total_weight / 2^64 (< 2^-27 for the largest allowed total),
// far below anything measurable. src-main/protocol/wager/draw-bucket.ts computes the same.
#include "wager.h"

u8 draw_bucket(const Paytable *paytable, const u8 randomness[64]) {
  u64 r = sol_read_u64(randomness);
  u64 point = sol_mul_u64(r, paytable->total_weight).hi;
  u64 cumulative = 0;
  for (u8 i = 0; i < paytable->bucket_count; i++) {
    cumulative += paytable->buckets[i].weight;
    if (point < cumulative) return i;
  }
  return paytable->bucket_count - 1; // unreachable: point < total_weight
}
