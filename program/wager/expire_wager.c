// expire_wager.c: close a wager whose randomness never came. Permissionless, after open_slot + T_SETTLE.
// Forfeiture: the stake stays in the pool. Pays the expire fee to the caller and returns the unspent
// prefund and the wager's rent to the payer. Refused with AlreadyFulfilled once the randomness arrived,
// even late: such a wager stays settleable.
//
// Accounts:
//   0. [writable, signer] caller: receives the expire fee
//   1. [] config
//   2. [writable] pool
//   3. [writable] wager
//   4. [writable] wager_fees
//   5. [writable] payer: the wager's payer (refund)
//   6. [] oracle_request: the wager's oracle request when it was requested (any account otherwise)
//   7. [] system_program
// Data:
//   [0..8] discriminator
#include "wager.h"

typedef struct {
  u8 discriminator[8];
  SolPubkey wager;
  u64 stake;
  u8 was_requested;
  u8 padding[7];
} WagerExpiredEvent;

ProgramResult expire_wager(SolInput *in) {
  if (in->account_count != 8) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *caller = &in->accounts[0];
  SolAccountInfo *config_account = &in->accounts[1];
  SolAccountInfo *pool_account = &in->accounts[2];
  SolAccountInfo *wager_account = &in->accounts[3];
  SolAccountInfo *fees = &in->accounts[4];
  SolAccountInfo *payer = &in->accounts[5];
  SolAccountInfo *request = &in->accounts[6];
  SolAccountInfo *system_program = &in->accounts[7];
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;

  if (in->data_len != 8) return ERR_INVALID_INSTRUCTION;
  if (!sol_is_signer(caller)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(caller) || !sol_is_writable(pool_account) || !sol_is_writable(wager_account) ||
      !sol_is_writable(fees) || !sol_is_writable(payer))
    return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_has_key(system_program, &system_id)) return ERR_INVALID_SYSTEM_PROGRAM;

  Config *config;
  Pool *pool;
  Wager *w;
  ProgramResult r = load_config(config_account, in->program_id, &config);
  if (r == SUCCESS) r = load_pool(pool_account, in->program_id, &pool);
  if (r == SUCCESS) r = load_wager(wager_account, in->program_id, &w);
  if (r != SUCCESS) return r;
  if (w->status != WAGER_STATUS_OPEN && w->status != WAGER_STATUS_REQUESTED) return ERR_INVALID_WAGER_STATUS;
  if (!sol_has_key(fees, &w->fee_account)) return ERR_INVALID_WAGER_ADDRESS;
  if (!sol_has_key(payer, &w->payer)) return ERR_WRONG_PAYER;
  if (sol_current_slot() <= w->expiry_slot) return ERR_NOT_EXPIRED;

  bool was_requested = w->status == WAGER_STATUS_REQUESTED;
  if (was_requested) {
    // Never fulfilled, whichever type the stored request is (see oracle_request.c).
    const u8 *randomness;
    if (!sol_has_key(request, &w->oracle_request) || !read_oracle_request(request, &config->oracle_program, w->seed, &randomness))
      return ERR_INVALID_ORACLE_ACCOUNT;
    if (randomness != NULL) return ERR_ALREADY_FULFILLED;
  }

  r = book_outcome(pool, w, 0); // forfeiture: the stake becomes the LPs'
  if (r == SUCCESS) r = release_wager(pool, w);
  if (r != SUCCESS) return r;

  WagerFeesSigner signer;
  wager_fees_signer(&signer, wager_account, w->fees_bump);
  r = pay_from_wager_fees(fees, caller, system_program, &signer, config->expire_fee);
  if (r == SUCCESS) r = pay_from_wager_fees(fees, payer, system_program, &signer, *fees->lamports);
  if (r != SUCCESS) return r;

  const WagerExpiredEvent event = {EVENT_WAGER_EXPIRED, *wager_account->key, w->stake, was_requested, {0}};
  sol_emit_event(&event, sizeof(event));
  return close_program_account(wager_account, payer);
}
