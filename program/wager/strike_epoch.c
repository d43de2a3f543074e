// strike_epoch.c: fix the live epoch's share price and roll to the next epoch. Permissionless; allowed
// once the epoch's close slot has passed and no wager opened before the close is still open. Deposits
// of the epoch become liquidity (their shares are counted now, minted at claim); withdrawals leave the
// liquidity (their USDC is set aside, paid at claim). Pays the strike fee (prefunded by the epoch's first
// request) to the caller. See liquidity.c for the price.
//
// Accounts:
//   0. [writable, signer] caller: receives the strike fee
//   1. [] config
//   2. [writable] pool
//   3. [writable] epoch_record: the live epoch's record when it has one (any account otherwise)
// Data:
//   [0..8] discriminator
#include "wager.h"

typedef struct {
  u8 discriminator[8];
  u64 epoch;
  u64 liquidity;     // L of the price: the liquidity at the strike, before the epoch's requests and
                     // without the outcomes of wagers opened after the close
  u64 shares;        // S at the strike, before the epoch's requests
  u64 deposits;      // USDC deposited in the epoch
  u64 new_shares;    // shares those deposits get in total
  u64 withdrawn_shares;
  u64 withdrawn_value; // USDC those shares get in total
} EpochStruckEvent;

ProgramResult strike_epoch(SolInput *in) {
  if (in->account_count != 4) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *caller = &in->accounts[0];
  SolAccountInfo *config_account = &in->accounts[1];
  SolAccountInfo *pool_account = &in->accounts[2];
  SolAccountInfo *record_account = &in->accounts[3];

  if (in->data_len != 8) return ERR_INVALID_INSTRUCTION;
  if (!sol_is_signer(caller)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(caller) || !sol_is_writable(pool_account)) return ERR_ACCOUNT_NOT_WRITABLE;

  Config *config;
  Pool *pool;
  ProgramResult r = load_config(config_account, in->program_id, &config);
  if (r == SUCCESS) r = load_pool(pool_account, in->program_id, &pool);
  if (r != SUCCESS) return r;
  u64 now = sol_current_slot();
  if (now <= pool->epoch_close_slot) return ERR_EPOCH_NOT_CLOSED;
  if (pool->open_wagers[pool->epoch & 1] != 0) return ERR_EPOCH_HAS_OPEN_WAGERS;

  EpochRecord *record = NULL;
  if (pool->live_epoch_has_record) {
    const u8 disc[8] = EPOCH_RECORD_DISCRIMINATOR;
    if (!sol_is_owned_by(record_account, in->program_id) || record_account->data_len != sizeof(EpochRecord) ||
        !sol_has_discriminator(record_account, disc, sizeof(EpochRecord)))
      return ERR_INVALID_EPOCH_RECORD;
    record = (EpochRecord *)record_account->data;
    if (record->epoch != pool->epoch || record->struck) return ERR_INVALID_EPOCH_RECORD;
    if (!sol_is_writable(record_account)) return ERR_ACCOUNT_NOT_WRITABLE;
  }

  // The price excludes the outcomes of wagers opened after the close (see Pool): whether one of them
  // settled before this strike or will after it, the price is the same, so the caller cannot choose it.
  u64 liquidity, shares = pool->total_shares;
  if (!sol_add_checked(pool->liquidity, pool->post_close_debits, &liquidity)) return ERR_ARITHMETIC_OVERFLOW;
  liquidity = liquidity > pool->post_close_credits ? liquidity - pool->post_close_credits : 0;
  u64 new_shares, withdrawn_value, next_liquidity, next_shares, backing, owed;
  if (!sol_mul_div_floor(pool->pending_deposits, shares + 1, liquidity + 1, &new_shares) ||
      !sol_mul_div_floor(pool->pending_withdraw_shares, liquidity + 1, shares + 1, &withdrawn_value))
    return ERR_ARITHMETIC_OVERFLOW;
  // The next liquidity starts from the real one: those outcomes stay the LPs' of the next epoch.
  if (!sol_add_checked(pool->liquidity, pool->pending_deposits, &next_liquidity) || next_liquidity < withdrawn_value)
    return ERR_ARITHMETIC_OVERFLOW;
  next_liquidity -= withdrawn_value;
  if (!sol_add_checked(shares, new_shares, &next_shares) || next_shares < pool->pending_withdraw_shares)
    return ERR_ARITHMETIC_OVERFLOW;
  next_shares -= pool->pending_withdraw_shares;
  // The open wagers (opened after the close) must stay backed without the withdrawn liquidity.
  if (!sol_add_checked(next_liquidity, pool->open_stakes, &backing) || backing < pool->locked_liability)
    return ERR_INSUFFICIENT_FREE_LIQUIDITY;
  if (!sol_add_checked(pool->owed_withdrawals, withdrawn_value, &owed)) return ERR_ARITHMETIC_OVERFLOW;

  const EpochStruckEvent event = {EVENT_EPOCH_STRUCK, pool->epoch, liquidity, shares, pool->pending_deposits,
                                  new_shares, pool->pending_withdraw_shares, withdrawn_value};
  pool->liquidity = next_liquidity;
  pool->total_shares = next_shares;
  pool->owed_withdrawals = owed;
  pool->pending_deposits = 0;
  pool->pending_withdraw_shares = 0;
  pool->post_close_credits = 0;
  pool->post_close_debits = 0;
  pool->epoch += 1;
  u64 next_close;
  if (!sol_add_checked(pool->epoch_close_slot, config->epoch_length, &next_close)) return ERR_ARITHMETIC_OVERFLOW;
  pool->epoch_close_slot = next_close > now ? next_close : now;
  pool->live_epoch_has_record = 0;

  if (record) {
    record->liquidity = liquidity;
    record->shares = shares;
    record->struck = 1;
    u64 rent, spare;
    if (!sol_rent_exempt_minimum(sizeof(EpochRecord), &rent)) return ERR_UNSUPPORTED_RENT;
    spare = *record_account->lamports > rent ? *record_account->lamports - rent : 0;
    r = debit_program_account(record_account, caller, spare < config->liquidity_fee ? spare : config->liquidity_fee);
    if (r != SUCCESS) return r;
  }
  sol_emit_event(&event, sizeof(event));
  return SUCCESS;
}
