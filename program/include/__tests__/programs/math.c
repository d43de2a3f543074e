// Test program for sol/math.h. Instruction data: one op byte, then fixed-size little-endian records;
// return data: one result per record, in order. The test compares every result with BigInt.
//   OP_MUL      (a u64, b u64)           -> sol_mul_u64: lo u64, hi u64
//   OP_DIV      (n.lo u64, n.hi u64, d)  -> sol_div_u128_u64: ok u8, quotient u64
//   OP_MUL_DIV  (a u64, b u64, d u64)    -> sol_mul_div_floor: ok u8, result u64
//   OP_ADD      (a u64, b u64)           -> sol_add_checked: ok u8, sum u64
#include "sol.h"

#define OP_MUL 0
#define OP_DIV 1
#define OP_MUL_DIV 2
#define OP_ADD 3
#define MAX_RETURN_DATA 1024

static void put_flagged(u8 *out, bool ok, u64 value) {
  out[0] = ok;
  sol_write_u64(out + 1, value);
}

u64 entrypoint(const u8 *input) {
  SolInput in = {.accounts = NULL, .capacity = 0};
  if (!sol_parse_input(input, &in) || in.data_len < 1) return ERROR_INVALID_INSTRUCTION_DATA;
  const u8 op = in.data[0];
  const u8 *record = in.data + 1;
  const u64 length = in.data_len - 1;
  const u64 record_size = op == OP_DIV || op == OP_MUL_DIV ? 24 : 16;
  const u64 result_size = op == OP_MUL ? 16 : 9;
  if (op > OP_ADD || length % record_size != 0 || length / record_size * result_size > MAX_RETURN_DATA)
    return ERROR_INVALID_INSTRUCTION_DATA;

  u8 out[MAX_RETURN_DATA];
  u64 used = 0;
  for (u64 at = 0; at < length; at += record_size, used += result_size) {
    const u64 x = sol_read_u64(record + at), y = sol_read_u64(record + at + 8);
    u64 value = 0;
    if (op == OP_MUL) {
      const SolU128 product = sol_mul_u64(x, y);
      sol_write_u64(out + used, product.lo);
      sol_write_u64(out + used + 8, product.hi);
    } else if (op == OP_DIV) {
      const SolU128 n = {.lo = x, .hi = y};
      const bool ok = sol_div_u128_u64(n, sol_read_u64(record + at + 16), &value);
      put_flagged(out + used, ok, value);
    } else if (op == OP_MUL_DIV) {
      const bool ok = sol_mul_div_floor(x, y, sol_read_u64(record + at + 16), &value);
      put_flagged(out + used, ok, value);
    } else {
      const bool ok = sol_add_checked(x, y, &value);
      put_flagged(out + used, ok, value);
    }
  }
  sol_set_return_data(out, used);
  return SUCCESS;
}
