// set_guardian.c: the admin names the guardian (who may pause and unpause new wagers).
//
// Accounts:
//   0. [signer] admin
//   1. [writable] config
// Data:
//   [0..8]  discriminator
//   [8..40] guardian
#include "wager.h"

ProgramResult set_guardian(SolInput *in) {
  if (in->account_count != 2) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *admin = &in->accounts[0];
  SolAccountInfo *config_account = &in->accounts[1];
  if (in->data_len != 8 + 32) return ERR_INVALID_INSTRUCTION;

  Config *config;
  ProgramResult r = load_config(config_account, in->program_id, &config);
  if (r != SUCCESS) return r;
  if (!sol_is_writable(config_account)) return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_is_signer(admin)) return ERR_MISSING_SIGNATURE;
  if (!sol_pubkey_eq(admin->key, &config->admin)) return ERR_UNAUTHORIZED;

  __builtin_memcpy(config->guardian.x, in->data + 8, 32);
  return SUCCESS;
}
