// settle_wager.c: pay out a fulfilled wager. Permissionless, any time after fulfilment (no deadline).
// Draws the bucket from the randomness, pays stake x multiplier to the beneficiary, or parks it in the
// escrow (status PayoutPending) when the beneficiary cannot receive: settlement never fails on the
// beneficiary. Pays the settle fee to the caller, returns the rest of the prefund to the payer and,
// unless parked, closes the wager.
//
// Accounts:
//   0. [writable, signer] caller: receives the settle fee
//   1. [] config
//   2. [writable] pool
//   3. [writable] wager
//   4. [writable] wager_fees
//   5. [writable] payer: the wager's payer (refund)
//   6. [] paytable: the wager's paytable
//   7. [] oracle_request: the wager's fulfilled oracle request (RandomnessV2 or ORAO's legacy Randomness)
//   8. [writable] vault
//   9. [writable] escrow
//  10. [writable] beneficiary: the wager's beneficiary
//  11. [] token_program
//  12. [] system_program
// Data:
//   [0..8] discriminator
#include "wager.h"

typedef struct {
  u8 discriminator[8];
  SolPubkey wager;
  u64 payout;
  u64 stake;
  u8 bucket;
  u8 pending;
  u8 padding[6];
} WagerSettledEvent;

ProgramResult settle_wager(SolInput *in) {
  if (in->account_count != 13) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *caller = &in->accounts[0];
  SolAccountInfo *config_account = &in->accounts[1];
  SolAccountInfo *pool_account = &in->accounts[2];
  SolAccountInfo *wager_account = &in->accounts[3];
  SolAccountInfo *fees = &in->accounts[4];
  SolAccountInfo *payer = &in->accounts[5];
  SolAccountInfo *paytable_account = &in->accounts[6];
  SolAccountInfo *request = &in->accounts[7];
  SolAccountInfo *vault = &in->accounts[8];
  SolAccountInfo *escrow = &in->accounts[9];
  SolAccountInfo *beneficiary = &in->accounts[10];
  SolAccountInfo *token_program = &in->accounts[11];
  SolAccountInfo *system_program = &in->accounts[12];
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;

  if (in->data_len != 8) return ERR_INVALID_INSTRUCTION;
  if (!sol_is_signer(caller)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(caller) || !sol_is_writable(pool_account) || !sol_is_writable(wager_account) ||
      !sol_is_writable(fees) || !sol_is_writable(payer) || !sol_is_writable(vault) || !sol_is_writable(escrow) ||
      !sol_is_writable(beneficiary))
    return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_has_key(system_program, &system_id)) return ERR_INVALID_SYSTEM_PROGRAM;
  if (!sol_is_token_program(token_program)) return ERR_INVALID_TOKEN_PROGRAM;

  Config *config;
  Pool *pool;
  Wager *w;
  Paytable *paytable;
  ProgramResult r = load_config(config_account, in->program_id, &config);
  if (r == SUCCESS) r = load_pool(pool_account, in->program_id, &pool);
  if (r == SUCCESS) r = load_wager(wager_account, in->program_id, &w);
  if (r == SUCCESS) r = load_paytable(paytable_account, in->program_id, &paytable);
  if (r != SUCCESS) return r;
  if (w->status != WAGER_STATUS_REQUESTED) return ERR_INVALID_WAGER_STATUS;
  if (!sol_has_key(paytable_account, &w->paytable)) return ERR_INVALID_PAYTABLE;
  if (!sol_has_key(fees, &w->fee_account)) return ERR_INVALID_WAGER_ADDRESS;
  if (!sol_has_key(payer, &w->payer)) return ERR_WRONG_PAYER;
  if (!sol_has_key(beneficiary, &w->beneficiary)) return ERR_WRONG_BENEFICIARY;
  if (!sol_has_key(vault, &pool->vault) || !sol_has_key(escrow, &pool->escrow)) return ERR_INVALID_VAULT;

  // The stored request, RandomnessV2 or legacy Randomness (see oracle_request.c), read by its type.
  const u8 *randomness;
  if (!sol_has_key(request, &w->oracle_request) || !read_oracle_request(request, &config->oracle_program, w->seed, &randomness))
    return ERR_INVALID_ORACLE_ACCOUNT;
  if (randomness == NULL) return ERR_NOT_FULFILLED;

  u8 bucket = draw_bucket(paytable, randomness);
  u64 payout;
  if (!sol_mul_div_floor(w->stake, paytable->buckets[bucket].multiplier_bps, BPS, &payout)) return ERR_ARITHMETIC_OVERFLOW;
  r = book_outcome(pool, w, payout);
  if (r == SUCCESS) r = release_wager(pool, w);
  if (r != SUCCESS) return r;

  bool pending = false;
  if (payout > 0) {
    PoolSigner signer;
    pool_signer(&signer, pool);
    pending = !sol_token_account_can_receive(beneficiary, &config->usdc_mint) || sol_has_key(beneficiary, &pool->escrow);
    SolAccountInfo *destination = pending ? escrow : beneficiary;
    const SolTokenAmount transfer = {vault, destination, pool_account, token_program, payout, &signer.signers};
    r = sol_token_transfer(&transfer);
    if (r != SUCCESS) return r;
    if (pending && !sol_add_checked(pool->pending_payouts, payout, &pool->pending_payouts)) return ERR_ARITHMETIC_OVERFLOW;
  }

  WagerFeesSigner fees_signer;
  wager_fees_signer(&fees_signer, wager_account, w->fees_bump);
  r = pay_from_wager_fees(fees, caller, system_program, &fees_signer, config->settle_fee);
  if (r == SUCCESS) r = pay_from_wager_fees(fees, payer, system_program, &fees_signer, *fees->lamports);
  if (r != SUCCESS) return r;

  const WagerSettledEvent event = {EVENT_WAGER_SETTLED, *wager_account->key, payout, w->stake, bucket, pending, {0}};
  sol_emit_event(&event, sizeof(event));

  if (pending) {
    w->status = WAGER_STATUS_PAYOUT_PENDING;
    w->bucket = bucket;
    w->payout = payout;
    return SUCCESS;
  }
  return close_program_account(wager_account, payer);
}
