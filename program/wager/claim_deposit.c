// claim_deposit.c: mint the shares of a struck deposit request to its owner, pay the claim fee to the
// caller and close the request (rent to the owner). Permissionless.
//
// Accounts:
//   0. [writable, signer] caller: receives the claim fee
//   1. [] config
//   2. [] pool
//   3. [] epoch_record: the record of the request's epoch, struck
//   4. [writable] request: a DepositRequest
//   5. [writable] owner: the request's owner (rent refund)
//   6. [writable] owner_shares: share token account owned by the request's owner
//   7. [writable] share_mint
//   8. [] token_program
// Data:
//   [0..8] discriminator
#include "wager.h"

typedef struct {
  u8 discriminator[8];
  SolPubkey owner;
  u64 epoch;
  u64 amount;   // USDC deposited
  u64 shares;   // shares minted
} DepositClaimedEvent;

ProgramResult claim_deposit(SolInput *in) {
  if (in->account_count != 9) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *caller = &in->accounts[0];
  SolAccountInfo *config_account = &in->accounts[1];
  SolAccountInfo *pool_account = &in->accounts[2];
  SolAccountInfo *record_account = &in->accounts[3];
  SolAccountInfo *request_account = &in->accounts[4];
  SolAccountInfo *owner = &in->accounts[5];
  SolAccountInfo *owner_shares = &in->accounts[6];
  SolAccountInfo *share_mint = &in->accounts[7];
  SolAccountInfo *token_program = &in->accounts[8];

  if (in->data_len != 8) return ERR_INVALID_INSTRUCTION;
  if (!sol_is_signer(caller)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(caller) || !sol_is_writable(request_account) || !sol_is_writable(owner) ||
      !sol_is_writable(owner_shares) || !sol_is_writable(share_mint))
    return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_is_token_program(token_program)) return ERR_INVALID_TOKEN_PROGRAM;

  Config *config;
  Pool *pool;
  LiquidityRequest *request;
  EpochRecord *record;
  ProgramResult r = load_config(config_account, in->program_id, &config);
  if (r == SUCCESS) r = load_pool(pool_account, in->program_id, &pool);
  const StruckRequestAccounts accounts = {request_account, owner, record_account, in->program_id, true};
  if (r == SUCCESS) r = load_struck_request(&accounts, &request, &record);
  if (r != SUCCESS) return r;
  if (!sol_has_key(share_mint, &pool->share_mint)) return ERR_INVALID_VAULT;
  if (!sol_is_token_account_of(owner_shares, &pool->share_mint)) return ERR_INVALID_MINT;
  if (!sol_bytes_eq(owner_shares->data + SOL_TOKEN_ACCOUNT_OWNER_OFFSET, request->owner.x, 32)) return ERR_INVALID_LIQUIDITY_REQUEST;

  u64 shares;
  if (!sol_mul_div_floor(request->amount, record->shares + 1, record->liquidity + 1, &shares)) return ERR_ARITHMETIC_OVERFLOW;
  if (shares > 0) {
    PoolSigner signer;
    pool_signer(&signer, pool);
    const SolTokenAmount mint = {share_mint, owner_shares, pool_account, token_program, shares, &signer.signers};
    r = sol_token_mint_to(&mint);
    if (r != SUCCESS) return r;
  }

  const DepositClaimedEvent event = {EVENT_DEPOSIT_CLAIMED, request->owner, request->epoch, request->amount, shares};
  r = debit_program_account(request_account, caller, config->liquidity_fee);
  if (r == SUCCESS) r = close_program_account(request_account, owner);
  if (r != SUCCESS) return r;
  sol_emit_event(&event, sizeof(event));
  return SUCCESS;
}
