// Test program for sol/slot_hashes.h. Instruction data: slots (u64 each, at most 21) to look up.
// Return data: entry count u64, then per slot: index i64 (-1 when absent), and for a found slot the
// entry's slot u64 and hash (32), zeros otherwise.
#include "sol.h"

#define RESULT_SIZE (8 + SOL_SLOT_HASH_ENTRY_SIZE)
#define MAX_RETURN_DATA 1024

u64 entrypoint(const u8 *input) {
  SolInput in = {.accounts = NULL, .capacity = 0};
  if (!sol_parse_input(input, &in) || in.data_len % 8 != 0 || 8 + in.data_len / 8 * RESULT_SIZE > MAX_RETURN_DATA)
    return ERROR_INVALID_INSTRUCTION_DATA;

  u8 out[MAX_RETURN_DATA];
  const u64 count = sol_slot_hashes_count();
  sol_write_u64(out, count);
  u64 used = 8;
  for (u64 at = 0; at < in.data_len; at += 8, used += RESULT_SIZE) {
    SolSlotHash entry;
    const i64 index = sol_slot_hashes_find(sol_read_u64(in.data + at), count, &entry);
    sol_write_u64(out + used, (u64)index);
    if (index >= 0) {
      sol_write_u64(out + used + 8, entry.slot);
      sol_copy(out + used + 16, entry.hash, 32);
    } else {
      sol_zero(out + used + 8, SOL_SLOT_HASH_ENTRY_SIZE);
    }
  }
  sol_set_return_data(out, used);
  return SUCCESS;
}
