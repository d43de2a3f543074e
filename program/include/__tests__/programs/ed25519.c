// Test program for sol/instructions_sysvar.h + sol/ed25519.h. Account: the Instructions sysvar.
// Instruction data: 16 bytes the program ignores (so the layout mirrors a one-signature precompile
// instruction's, whose offsets can then point here), public key (32), signature (64), message.
// Return data: the SolEd25519Match of sol_find_ed25519_verification, one byte.
#include "sol.h"

#define KEY_AT 16
#define SIGNATURE_AT (KEY_AT + 32)
#define MESSAGE_AT (SIGNATURE_AT + 64)

u64 entrypoint(const u8 *input) {
  SolAccountInfo accounts[1];
  SolInput in = {.accounts = accounts, .capacity = 1};
  if (!sol_parse_input(input, &in) || in.account_count != 1) return ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (!sol_is_instructions_sysvar(&accounts[0])) return ERROR_INVALID_ARGUMENT;
  if (in.data_len < MESSAGE_AT || in.data_len - MESSAGE_AT > 0xffff) return ERROR_INVALID_INSTRUCTION_DATA;

  const u8 match = (u8)sol_find_ed25519_verification(&accounts[0], (const SolPubkey *)(in.data + KEY_AT),
                                                      in.data + MESSAGE_AT, (u16)(in.data_len - MESSAGE_AT),
                                                      in.data + SIGNATURE_AT);
  sol_set_return_data(&match, 1);
  return SUCCESS;
}
