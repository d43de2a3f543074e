// Test program for sol/input.h. Instruction data: capacity (u8, at most 8), write index, read index,
// value, then anything. When both indices name parsed accounts, writes `value` to byte 0 of the data
// of account `write index`, then reads byte 0 of the data of account `read index`.
// Return data: parse result u8 | account_count u64 | data_len u64 | program id (32) | value read u8 |
// pointers shared by the two accounts u8 (bit 0 key, 1 lamports, 2 data, 3 owner) |
// key of each parsed account (32 each) | the instruction data as parsed.
#include "sol.h"

#define MAX_CAPACITY 8
#define DATA_HEADER 4
#define MAX_RETURN_DATA 1024

u64 entrypoint(const u8 *input) {
  SolAccountInfo accounts[MAX_CAPACITY];
  // The capacity under test is in the instruction data, which only a parse can find: a first parse
  // locates it (the parser walks every account even past its capacity), the second one is under test.
  SolInput locate = {.accounts = accounts, .capacity = MAX_CAPACITY};
  sol_parse_input(input, &locate);
  if (locate.data_len < DATA_HEADER || locate.data[0] > MAX_CAPACITY) return ERROR_INVALID_INSTRUCTION_DATA;
  const u64 write_index = locate.data[1], read_index = locate.data[2];
  const u8 value = locate.data[3];

  const u8 capacity = locate.data[0];
  sol_zero(accounts, sizeof accounts); // nothing of the first parse may stand in for the second

  SolInput in = {.accounts = accounts, .capacity = capacity};
  const bool parsed = sol_parse_input(input, &in);
  const u64 filled = in.account_count < in.capacity ? in.account_count : in.capacity;

  u8 out[MAX_RETURN_DATA];
  u64 used = 0;
  out[used++] = parsed;
  sol_write_u64(out + used, in.account_count);
  used += 8;
  sol_write_u64(out + used, in.data_len);
  used += 8;
  sol_copy(out + used, in.program_id->x, 32);
  used += 32;

  u8 read = 0, shared = 0;
  if (write_index < filled && read_index < filled) {
    const SolAccountInfo *w = &accounts[write_index], *r = &accounts[read_index];
    if (w->data_len < 1 || r->data_len < 1) return ERROR_INVALID_ACCOUNT_DATA;
    w->data[0] = value;
    read = r->data[0];
    shared = (w->key == r->key) | (w->lamports == r->lamports) << 1 | (w->data == r->data) << 2 |
             (w->owner == r->owner) << 3;
  }
  out[used++] = read;
  out[used++] = shared;

  if (used + filled * 32 + in.data_len > MAX_RETURN_DATA) return ERROR_INVALID_INSTRUCTION_DATA;
  for (u64 i = 0; i < filled; i++, used += 32) sol_copy(out + used, accounts[i].key->x, 32);
  sol_copy(out + used, in.data, in.data_len);
  used += in.data_len;
  sol_set_return_data(out, used);
  return SUCCESS;
}
