// set_paused.c: the guardian pauses or unpauses new wagers (for an oracle stall; target: within 60 slots).
// Wagers already open keep settling or expiring as usual.
//
// Accounts:
//   0. [signer] guardian
//   1. [writable] config
// Data:
//   [0..8] discriminator
//   [8]    paused: 0 or 1
#include "wager.h"

ProgramResult set_paused(SolInput *in) {
  if (in->account_count != 2) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *guardian = &in->accounts[0];
  SolAccountInfo *config_account = &in->accounts[1];
  if (in->data_len != 9 || in->data[8] > 1) return ERR_INVALID_INSTRUCTION;

  Config *config;
  ProgramResult r = load_config(config_account, in->program_id, &config);
  if (r != SUCCESS) return r;
  if (!sol_is_writable(config_account)) return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_is_signer(guardian)) return ERR_MISSING_SIGNATURE;
  if (!sol_pubkey_eq(guardian->key, &config->guardian)) return ERR_UNAUTHORIZED;

  config->paused = in->data[8];
  return SUCCESS;
}
