// entrypoint.c: parse the input once and dispatch on the 8-byte instruction discriminator.
#include "wager.h"

typedef struct {
  u8 discriminator[8];
  ProgramResult (*handler)(SolInput *in);
} Route;

u64 entrypoint(const u8 *input) {
  SolAccountInfo accounts[WAGER_MAX_ACCOUNTS];
  SolInput in = {.accounts = accounts, .capacity = WAGER_MAX_ACCOUNTS};
  if (!sol_parse_input(input, &in)) return ERR_TOO_MANY_ACCOUNTS;
  if (in.data_len < 8) return ERR_INVALID_INSTRUCTION;

  // The hot path first: the keeper's steps run far more often than administration.
  const Route routes[] = {
      {IX_REQUEST_RANDOMNESS, request_randomness}, {IX_SETTLE_WAGER, settle_wager},
      {IX_OPEN_WAGER, open_wager},                 {IX_EXPIRE_WAGER, expire_wager},
      {IX_CLAIM_PAYOUT, claim_payout},             {IX_REQUEST_DEPOSIT, request_deposit},
      {IX_REQUEST_WITHDRAW, request_withdraw},     {IX_STRIKE_EPOCH, strike_epoch},
      {IX_CLAIM_DEPOSIT, claim_deposit},           {IX_CLAIM_WITHDRAW, claim_withdraw},
      {IX_CREATE_PAYTABLE, create_paytable},       {IX_SET_PAUSED, set_paused},
      {IX_SET_GUARDIAN, set_guardian},             {IX_INITIALIZE, initialize},
  };
  u64 tag = sol_read_u64(in.data);
  for (u64 i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
    if (sol_read_u64(routes[i].discriminator) == tag) return routes[i].handler(&in);
  }
  return ERR_INVALID_INSTRUCTION;
}
