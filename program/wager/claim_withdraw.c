// claim_withdraw.c: pay the USDC of a struck withdraw request to its owner, burn its escrowed shares, pay
// the claim fee to the caller and close the request (rent to the owner). Permissionless.
//
// Accounts:
//   0. [writable, signer] caller: receives the claim fee
//   1. [] config
//   2. [writable] pool
//   3. [] epoch_record: the record of the request's epoch, struck
//   4. [writable] request: a WithdrawRequest
//   5. [writable] owner: the request's owner (rent refund)
//   6. [writable] owner_usdc: USDC token account owned by the request's owner
//   7. [writable] vault
//   8. [writable] share_escrow
//   9. [writable] share_mint
//  10. [] token_program
// Data:
//   [0..8] discriminator
#include "wager.h"

typedef struct {
  u8 discriminator[8];
  SolPubkey owner;
  u64 epoch;
  u64 shares;   // shares burned
  u64 amount;   // USDC paid
} WithdrawClaimedEvent;

ProgramResult claim_withdraw(SolInput *in) {
  if (in->account_count != 11) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *caller = &in->accounts[0];
  SolAccountInfo *config_account = &in->accounts[1];
  SolAccountInfo *pool_account = &in->accounts[2];
  SolAccountInfo *record_account = &in->accounts[3];
  SolAccountInfo *request_account = &in->accounts[4];
  SolAccountInfo *owner = &in->accounts[5];
  SolAccountInfo *owner_usdc = &in->accounts[6];
  SolAccountInfo *vault = &in->accounts[7];
  SolAccountInfo *share_escrow = &in->accounts[8];
  SolAccountInfo *share_mint = &in->accounts[9];
  SolAccountInfo *token_program = &in->accounts[10];

  if (in->data_len != 8) return ERR_INVALID_INSTRUCTION;
  if (!sol_is_signer(caller)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(caller) || !sol_is_writable(pool_account) || !sol_is_writable(request_account) ||
      !sol_is_writable(owner) || !sol_is_writable(owner_usdc) || !sol_is_writable(vault) ||
      !sol_is_writable(share_escrow) || !sol_is_writable(share_mint))
    return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_is_token_program(token_program)) return ERR_INVALID_TOKEN_PROGRAM;

  Config *config;
  Pool *pool;
  LiquidityRequest *request;
  EpochRecord *record;
  ProgramResult r = load_config(config_account, in->program_id, &config);
  if (r == SUCCESS) r = load_pool(pool_account, in->program_id, &pool);
  const StruckRequestAccounts accounts = {request_account, owner, record_account, in->program_id, false};
  if (r == SUCCESS) r = load_struck_request(&accounts, &request, &record);
  if (r != SUCCESS) return r;
  if (!sol_has_key(vault, &pool->vault) || !sol_has_key(share_escrow, &pool->share_escrow) ||
      !sol_has_key(share_mint, &pool->share_mint))
    return ERR_INVALID_VAULT;
  if (!sol_is_token_account_of(owner_usdc, &config->usdc_mint)) return ERR_INVALID_MINT;
  if (!sol_bytes_eq(owner_usdc->data + SOL_TOKEN_ACCOUNT_OWNER_OFFSET, request->owner.x, 32)) return ERR_INVALID_LIQUIDITY_REQUEST;

  u64 amount;
  if (!sol_mul_div_floor(request->amount, record->liquidity + 1, record->shares + 1, &amount)) return ERR_ARITHMETIC_OVERFLOW;
  if (pool->owed_withdrawals < amount) return ERR_ARITHMETIC_OVERFLOW;
  PoolSigner signer;
  pool_signer(&signer, pool);
  const SolTokenAmount burn = {share_escrow, share_mint, pool_account, token_program, request->amount, &signer.signers};
  r = sol_token_burn(&burn);
  if (r == SUCCESS && amount > 0) {
    const SolTokenAmount pay = {vault, owner_usdc, pool_account, token_program, amount, &signer.signers};
    r = sol_token_transfer(&pay);
  }
  if (r != SUCCESS) return r;
  pool->owed_withdrawals -= amount;

  const WithdrawClaimedEvent event = {EVENT_WITHDRAW_CLAIMED, request->owner, request->epoch, request->amount, amount};
  r = debit_program_account(request_account, caller, config->liquidity_fee);
  if (r == SUCCESS) r = close_program_account(request_account, owner);
  if (r != SUCCESS) return r;
  sol_emit_event(&event, sizeof(event));
  return SUCCESS;
}
