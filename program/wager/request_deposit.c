// request_deposit.c: an LP asks to deposit USDC in the live epoch. The USDC moves into the vault now; the
// shares are priced when the epoch is struck and minted by claim_deposit. Repeated requests in one
// epoch add up. Prefunds the claim fee (and, for the epoch's first request, the strike fee).
//
// Accounts:
//   0. [writable, signer] owner: the LP; pays rent and fees
//   1. [] config
//   2. [writable] pool
//   3. [writable] request: PDA ["deposit", owner, epoch]
//   4. [writable] epoch_record: PDA ["epoch", epoch] of the live epoch
//   5. [writable] source: the owner's USDC token account
//   6. [writable] vault
//   7. [] token_program
//   8. [] system_program
// Data:
//   [0..8]  discriminator
//   [8..16] amount: u64 USDC base units, > 0
#include "wager.h"

typedef struct {
  u8 discriminator[8];
  SolPubkey owner;
  u64 epoch;
  u64 amount;
  u64 total;
} LiquidityRequestedEvent;

ProgramResult request_deposit(SolInput *in) {
  if (in->account_count != 9) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *owner = &in->accounts[0];
  SolAccountInfo *config_account = &in->accounts[1];
  SolAccountInfo *pool_account = &in->accounts[2];
  SolAccountInfo *request_account = &in->accounts[3];
  SolAccountInfo *record = &in->accounts[4];
  SolAccountInfo *source = &in->accounts[5];
  SolAccountInfo *vault = &in->accounts[6];
  SolAccountInfo *token_program = &in->accounts[7];
  SolAccountInfo *system_program = &in->accounts[8];
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;

  if (in->data_len != 16) return ERR_INVALID_INSTRUCTION;
  u64 amount = sol_read_u64(in->data + 8);
  if (amount == 0) return ERR_INVALID_AMOUNT;
  if (!sol_is_signer(owner)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(owner) || !sol_is_writable(pool_account) || !sol_is_writable(request_account) ||
      !sol_is_writable(record) || !sol_is_writable(source) || !sol_is_writable(vault))
    return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_has_key(system_program, &system_id)) return ERR_INVALID_SYSTEM_PROGRAM;
  if (!sol_is_token_program(token_program)) return ERR_INVALID_TOKEN_PROGRAM;

  Config *config;
  Pool *pool;
  ProgramResult r = load_config(config_account, in->program_id, &config);
  if (r == SUCCESS) r = load_pool(pool_account, in->program_id, &pool);
  if (r != SUCCESS) return r;
  // After the close, wagers of the next epoch are open and their outcomes public once fulfilled: a
  // request now could choose its price knowing them. Requests wait for the strike (EpochClosed).
  if (sol_current_slot() > pool->epoch_close_slot) return ERR_EPOCH_CLOSED;
  if (!sol_has_key(vault, &pool->vault)) return ERR_INVALID_VAULT;
  if (!sol_is_token_account_of(source, &config->usdc_mint)) return ERR_INVALID_MINT;

  const LiquidityRequestContext context = {owner, pool_account, request_account, record, system_program, in->program_id, config, pool, true};
  LiquidityRequest *request;
  r = ensure_live_epoch_record(&context);
  if (r == SUCCESS) r = load_or_create_request(&context, &request);
  if (r != SUCCESS) return r;
  if (!sol_add_checked(request->amount, amount, &request->amount) ||
      !sol_add_checked(pool->pending_deposits, amount, &pool->pending_deposits))
    return ERR_ARITHMETIC_OVERFLOW;

  const SolTokenAmount transfer = {source, vault, owner, token_program, amount, NULL};
  r = sol_token_transfer(&transfer);
  if (r != SUCCESS) return r;

  const LiquidityRequestedEvent event = {EVENT_DEPOSIT_REQUESTED, *owner->key, pool->epoch, amount, request->amount};
  sol_emit_event(&event, sizeof(event));
  return SUCCESS;
}
