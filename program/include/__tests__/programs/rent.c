// Test program for sol/sysvars.h sol_rent_exempt_minimum. Instruction data: account sizes (u64 each).
// Return data: per size, ok u8 and the minimum balance u64.
#include "sol.h"

#define RESULT_SIZE 9
#define MAX_RETURN_DATA 1024

u64 entrypoint(const u8 *input) {
  SolInput in = {.accounts = NULL, .capacity = 0};
  if (!sol_parse_input(input, &in) || in.data_len % 8 != 0 || in.data_len / 8 * RESULT_SIZE > MAX_RETURN_DATA)
    return ERROR_INVALID_INSTRUCTION_DATA;

  u8 out[MAX_RETURN_DATA];
  u64 used = 0;
  for (u64 at = 0; at < in.data_len; at += 8, used += RESULT_SIZE) {
    u64 lamports = 0;
    out[used] = sol_rent_exempt_minimum(sol_read_u64(in.data + at), &lamports);
    sol_write_u64(out + used + 1, lamports);
  }
  sol_set_return_data(out, used);
  return SUCCESS;
}
