// claim_payout.c: deliver a parked payout (status PayoutPending) from the escrow to the wager's
// beneficiary, once it can receive again, and close the wager (rent to the payer). Permissionless.
//
// Accounts:
//   0. [signer] caller
//   1. [] config
//   2. [writable] pool
//   3. [writable] wager
//   4. [writable] payer: the wager's payer (receives the wager's rent)
//   5. [writable] escrow
//   6. [writable] beneficiary: the wager's beneficiary
//   7. [] token_program
// Data:
//   [0..8] discriminator
#include "wager.h"

typedef struct {
  u8 discriminator[8];
  SolPubkey wager;
  SolPubkey beneficiary;
  u64 payout;
} PayoutClaimedEvent;

ProgramResult claim_payout(SolInput *in) {
  if (in->account_count != 8) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *caller = &in->accounts[0];
  SolAccountInfo *config_account = &in->accounts[1];
  SolAccountInfo *pool_account = &in->accounts[2];
  SolAccountInfo *wager_account = &in->accounts[3];
  SolAccountInfo *payer = &in->accounts[4];
  SolAccountInfo *escrow = &in->accounts[5];
  SolAccountInfo *beneficiary = &in->accounts[6];
  SolAccountInfo *token_program = &in->accounts[7];

  if (in->data_len != 8) return ERR_INVALID_INSTRUCTION;
  if (!sol_is_signer(caller)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(pool_account) || !sol_is_writable(wager_account) || !sol_is_writable(payer) ||
      !sol_is_writable(escrow) || !sol_is_writable(beneficiary))
    return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_is_token_program(token_program)) return ERR_INVALID_TOKEN_PROGRAM;

  Config *config;
  Pool *pool;
  Wager *w;
  ProgramResult r = load_config(config_account, in->program_id, &config);
  if (r == SUCCESS) r = load_pool(pool_account, in->program_id, &pool);
  if (r == SUCCESS) r = load_wager(wager_account, in->program_id, &w);
  if (r != SUCCESS) return r;
  if (w->status != WAGER_STATUS_PAYOUT_PENDING) return ERR_INVALID_WAGER_STATUS;
  if (!sol_has_key(payer, &w->payer)) return ERR_WRONG_PAYER;
  if (!sol_has_key(beneficiary, &w->beneficiary)) return ERR_WRONG_BENEFICIARY;
  if (!sol_has_key(escrow, &pool->escrow)) return ERR_INVALID_VAULT;
  if (!sol_token_account_can_receive(beneficiary, &config->usdc_mint)) return ERR_BENEFICIARY_CANNOT_RECEIVE;
  if (pool->pending_payouts < w->payout) return ERR_ARITHMETIC_OVERFLOW;

  PoolSigner signer;
  pool_signer(&signer, pool);
  const SolTokenAmount transfer = {escrow, beneficiary, pool_account, token_program, w->payout, &signer.signers};
  r = sol_token_transfer(&transfer);
  if (r != SUCCESS) return r;
  pool->pending_payouts -= w->payout;

  const PayoutClaimedEvent event = {EVENT_PAYOUT_CLAIMED, *wager_account->key, *beneficiary->key, w->payout};
  sol_emit_event(&event, sizeof(event));
  return close_program_account(wager_account, payer);
}
