// Test program for sol/sysvars.h sol_rent_exempt_minimum and sol_rent_rate / sol_rent_minimum_at.
// Instruction data: account sizes (u64 each). Return data: per size, ok u8 and the minimum balance u64
// of sol_rent_exempt_minimum, then ok u8 and the minimum u64 of sol_rent_minimum_at (one rate read).
#include "sol.h"

#define RESULT_SIZE 18
#define MAX_RETURN_DATA 1024

u64 entrypoint(const u8 *input) {
  SolInput in = {.accounts = NULL, .capacity = 0};
  if (!sol_parse_input(input, &in) || in.data_len % 8 != 0 || in.data_len / 8 * RESULT_SIZE > MAX_RETURN_DATA)
    return ERROR_INVALID_INSTRUCTION_DATA;

  u8 out[MAX_RETURN_DATA];
  u64 used = 0;
  SolRentRate rate;
  bool rate_ok = sol_rent_rate(&rate);
  for (u64 at = 0; at < in.data_len; at += 8, used += RESULT_SIZE) {
    u64 lamports = 0, space = sol_read_u64(in.data + at);
    out[used] = sol_rent_exempt_minimum(space, &lamports);
    sol_write_u64(out + used + 1, lamports);
    out[used + 9] = rate_ok;
    sol_write_u64(out + used + 10, rate_ok ? sol_rent_minimum_at(&rate, space) : 0);
  }
  sol_set_return_data(out, used);
  return SUCCESS;
}
