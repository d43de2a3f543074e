// open_wager.c: open a wager. The app (integrator authority) and the stake owner sign; the stake moves
// into the pool vault; the payer prefunds every later step into the wager's fee account.
//
// Accounts:
//   0. [writable, signer] payer: pays the wager's rent and the prefund; gets the unspent part back
//   1. [signer] stake_owner: owner (or delegate) of stake_source
//   2. [signer] integrator_authority: the app
//   3. [] config
//   4. [writable] pool
//   5. [] paytable
//   6. [writable] wager: PDA ["wager", integrator_authority, nonce]
//   7. [writable] wager_fees: PDA ["wager-fees", wager], system-owned
//   8. [writable] stake_source: USDC token account
//   9. [writable] vault: the pool's USDC vault
//  10. [] beneficiary: USDC token account that will receive the payout
//  11. [] oracle_network_state: the configured oracle's NetworkState (its request fee is prefunded)
//  12. [] token_program
//  13. [] system_program
// Data:
//   [0..8]   discriminator
//   [8..16]  stake: u64 USDC base units
//   [16..24] nonce: u64, chosen by the app; with the authority it names the wager
//   [24]     wager_bump: u8, bump of the wager PDA (the client finds it; one hash checks it here)
//   [25]     fees_bump: u8, bump of the fee account PDA
//
// Why bumps in the data: checking a given bump costs one hash (~1 500 CU) where finding it costs one per
// bump tried (~3 000 on average, ~30 000 at worst). Any bump that yields a valid PDA is accepted: the
// address and its bump are what the wager records, so a non-canonical one gains the caller nothing.
//
// Prefund = request_fee + max(settle_fee, expire_fee) + oracle fee + rent of the oracle's request
// account + the fee account's own rent-exempt minimum (it must stay rent-exempt until it is closed).
#include "wager.h"

typedef struct {
  u8 discriminator[8];
  SolPubkey wager;
  SolPubkey integrator_authority;
  SolPubkey paytable;
  SolPubkey beneficiary;
  SolPubkey payer;
  u64 stake;
  u64 max_payout;
  u64 open_slot;
  u64 expiry_slot;
  u64 nonce;
} WagerOpenedEvent;

static ProgramResult compute_prefund(const Config *config, const SolAccountInfo *network, u64 *prefund) {
  const u8 network_disc[8] = ORACLE_NETWORK_STATE_DISCRIMINATOR;
  if (!sol_is_owned_by(network, &config->oracle_program)) return ERR_INVALID_ORACLE_ACCOUNT;
  if (!sol_has_discriminator(network, network_disc, ORACLE_NETWORK_FEE_OFFSET + 8)) return ERR_INVALID_ORACLE_ACCOUNT;
  u64 oracle_fee = sol_read_u64(network->data + ORACLE_NETWORK_FEE_OFFSET);
  u64 request_rent, own_rent, total;
  if (!sol_rent_exempt_minimum(config->oracle_request_size, &request_rent) || !sol_rent_exempt_minimum(0, &own_rent))
    return ERR_UNSUPPORTED_RENT;
  u64 closing_fee = config->settle_fee > config->expire_fee ? config->settle_fee : config->expire_fee;
  if (!sol_add_checked(config->request_fee, closing_fee, &total) || !sol_add_checked(total, oracle_fee, &total) ||
      !sol_add_checked(total, request_rent, &total) || !sol_add_checked(total, own_rent, &total))
    return ERR_ARITHMETIC_OVERFLOW;
  *prefund = total;
  return SUCCESS;
}

/** Liquidity that can back new wagers: LP liquidity plus open stakes, minus what open wagers may pay
 *  and minus what pending withdrawals will take at today's share price. */
static u64 free_liquidity(const Pool *pool) {
  u64 backing = pool->liquidity + pool->open_stakes;
  if (backing <= pool->locked_liability) return 0;
  u64 free = backing - pool->locked_liability, reserve;
  // Virtual share and unit (+1) keep the price defined at zero shares or zero liquidity.
  if (!sol_mul_div_floor(pool->pending_withdraw_shares, pool->liquidity + 1, pool->total_shares + 1, &reserve)) return 0;
  return free > reserve ? free - reserve : 0;
}

ProgramResult open_wager(SolInput *in) {
  if (in->account_count != 14) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *payer = &in->accounts[0];
  SolAccountInfo *stake_owner = &in->accounts[1];
  SolAccountInfo *integrator = &in->accounts[2];
  SolAccountInfo *config_account = &in->accounts[3];
  SolAccountInfo *pool_account = &in->accounts[4];
  SolAccountInfo *paytable_account = &in->accounts[5];
  SolAccountInfo *wager_account = &in->accounts[6];
  SolAccountInfo *fees = &in->accounts[7];
  SolAccountInfo *stake_source = &in->accounts[8];
  SolAccountInfo *vault = &in->accounts[9];
  SolAccountInfo *beneficiary = &in->accounts[10];
  SolAccountInfo *network = &in->accounts[11];
  SolAccountInfo *token_program = &in->accounts[12];
  SolAccountInfo *system_program = &in->accounts[13];
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;

  if (in->data_len != 26) return ERR_INVALID_INSTRUCTION;
  u64 stake = sol_read_u64(in->data + 8);
  const u8 *nonce_bytes = in->data + 16;
  u8 bump = in->data[24], fees_bump = in->data[25];

  if (!sol_is_signer(payer) || !sol_is_signer(stake_owner) || !sol_is_signer(integrator)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(payer) || !sol_is_writable(pool_account) || !sol_is_writable(wager_account) ||
      !sol_is_writable(fees) || !sol_is_writable(stake_source) || !sol_is_writable(vault))
    return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_has_key(system_program, &system_id)) return ERR_INVALID_SYSTEM_PROGRAM;
  if (!sol_is_token_program(token_program)) return ERR_INVALID_TOKEN_PROGRAM;

  Config *config;
  Pool *pool;
  Paytable *paytable;
  ProgramResult r = load_config(config_account, in->program_id, &config);
  if (r == SUCCESS) r = load_pool(pool_account, in->program_id, &pool);
  if (r == SUCCESS) r = load_paytable(paytable_account, in->program_id, &paytable);
  if (r != SUCCESS) return r;
  if (config->paused) return ERR_PAUSED;
  if (!sol_has_key(vault, &pool->vault)) return ERR_INVALID_VAULT;
  if (!sol_is_token_account_of(stake_source, &config->usdc_mint)) return ERR_INVALID_MINT;
  if (sol_has_key(beneficiary, &pool->vault) || sol_has_key(beneficiary, &pool->escrow)) return ERR_DUPLICATE_ACCOUNT;
  if (!sol_token_account_can_receive(beneficiary, &config->usdc_mint)) return ERR_INVALID_BENEFICIARY;

  u64 max_payout, prefund;
  if (stake == 0 || !sol_mul_div_floor(stake, paytable->max_multiplier_bps, BPS, &max_payout)) return ERR_INVALID_STAKE;
  // The architecture's rule: the max payout itself (not payout - stake) within the cap's share of free liquidity.
  u64 allowed;
  if (!sol_mul_div_floor(free_liquidity(pool), config->per_wager_cap_bps, BPS, &allowed) || max_payout > allowed)
    return ERR_PER_WAGER_CAP;
  r = compute_prefund(config, network, &prefund);
  if (r != SUCCESS) return r;

  const SolSignerSeed wager_seeds[4] = {
      {(const u8 *)SEED_WAGER, sizeof(SEED_WAGER) - 1}, {integrator->key->x, 32}, {nonce_bytes, 8}, {&bump, 1}};
  if (!sol_is_program_address(wager_account->key, wager_seeds, 4, in->program_id)) return ERR_INVALID_WAGER_ADDRESS;
  if (sol_is_owned_by(wager_account, in->program_id)) return ERR_WAGER_EXISTS;
  const SolSignerSeed fees_seeds[3] = {
      {(const u8 *)SEED_WAGER_FEES, sizeof(SEED_WAGER_FEES) - 1}, {wager_account->key->x, 32}, {&fees_bump, 1}};
  if (!sol_is_program_address(fees->key, fees_seeds, 3, in->program_id)) return ERR_INVALID_WAGER_ADDRESS;
  if (!sol_is_owned_by(fees, &system_id) || fees->data_len != 0) return ERR_INVALID_WAGER_ADDRESS;

  u64 wager_rent, needed;
  if (!sol_rent_exempt_minimum(sizeof(Wager), &wager_rent)) return ERR_UNSUPPORTED_RENT;
  if (!sol_add_checked(wager_rent, prefund, &needed) || *payer->lamports < needed) return ERR_INSUFFICIENT_FUNDS;

  const SolSignerSeeds wager_pda = {wager_seeds, 4};
  const SolSigners wager_signer = {&wager_pda, 1};
  SolCreateAccount create = {payer, wager_account, system_program, 0, sizeof(Wager), in->program_id, &wager_signer};
  r = create_account_at_pda(&create);
  if (r == SUCCESS) r = sol_system_transfer(payer, fees, system_program, prefund, NULL);
  if (r == SUCCESS) {
    const SolTokenAmount transfer = {stake_source, vault, stake_owner, token_program, stake, NULL};
    r = sol_token_transfer(&transfer);
  }
  if (r != SUCCESS) return r;

  u64 now = sol_current_slot(), expiry_slot;
  if (!sol_add_checked(now, config->t_settle, &expiry_slot)) return ERR_ARITHMETIC_OVERFLOW;
  u64 epoch = now <= pool->epoch_close_slot ? pool->epoch : pool->epoch + 1;
  if (!sol_add_checked(pool->open_stakes, stake, &pool->open_stakes) ||
      !sol_add_checked(pool->locked_liability, max_payout, &pool->locked_liability))
    return ERR_ARITHMETIC_OVERFLOW;
  pool->open_wagers[epoch & 1] += 1;

  Wager *w = (Wager *)wager_account->data; // created above with exactly sizeof(Wager) bytes
  const u8 disc[8] = WAGER_DISCRIMINATOR;
  __builtin_memcpy(w->discriminator, disc, 8);
  w->status = WAGER_STATUS_OPEN;
  w->bump = bump;
  w->fees_bump = fees_bump;
  w->nonce = sol_read_u64(nonce_bytes);
  w->open_slot = now;
  w->expiry_slot = expiry_slot;
  w->stake = stake;
  w->max_payout = max_payout;
  w->epoch = epoch;
  w->prefund = prefund;
  w->beneficiary = *beneficiary->key;
  w->payer = *payer->key;
  w->stake_owner = *stake_owner->key;
  w->integrator_authority = *integrator->key;
  w->paytable = *paytable_account->key;
  w->fee_account = *fees->key;

  const WagerOpenedEvent event = {EVENT_WAGER_OPENED, *wager_account->key, *integrator->key, *paytable_account->key,
                                  *beneficiary->key, *payer->key, stake, max_payout, w->open_slot, w->expiry_slot, w->nonce};
  sol_emit_event(&event, sizeof(event));
  return SUCCESS;
}
