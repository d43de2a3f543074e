// liquidity.c: the steps deposit and withdraw requests and their claims share.
//
// Share price: an epoch is struck at (L, S) = the pool's liquidity and shares at the strike. A deposit of
// d gets floor(d * (S + 1) / (L + 1)) shares; a withdrawal of w shares gets floor(w * (L + 1) / (S + 1))
// USDC. The virtual unit and share (+1) keep the price defined when the pool is empty and stop the first
// depositor from inflating it. Every rounding is down. The strike moves the aggregate amounts, each claim
// its own floor, so the claims never exceed what the strike set aside; the difference (under one base
// unit per request) stays behind: USDC in owed_withdrawals, shares in total_shares that nobody holds.
// Neither can be taken by anyone; both are documented in docs/wager-program.md.
#include "wager.h"

static void epoch_seed(u64 epoch, u8 out[8]) { sol_write_u64(out, epoch); }

ProgramResult ensure_live_epoch_record(const LiquidityRequestContext *c) {
  const u8 disc[8] = EPOCH_RECORD_DISCRIMINATOR;
  if (c->pool->live_epoch_has_record) {
    // Created by this program for the live epoch: owner, type and epoch identify it.
    if (!sol_is_owned_by(c->epoch_record, c->program_id) || !sol_has_discriminator(c->epoch_record, disc, sizeof(EpochRecord)))
      return ERR_INVALID_EPOCH_RECORD;
    if (c->epoch_record->data_len != sizeof(EpochRecord) || ((EpochRecord *)c->epoch_record->data)->epoch != c->pool->epoch)
      return ERR_INVALID_EPOCH_RECORD;
    return SUCCESS;
  }
  u8 epoch_bytes[8], bump;
  epoch_seed(c->pool->epoch, epoch_bytes);
  const SolSignerSeed find[2] = {{(const u8 *)SEED_EPOCH, sizeof(SEED_EPOCH) - 1}, {epoch_bytes, 8}};
  if (!sol_find_program_address_of(c->epoch_record->key, find, 2, c->program_id, &bump)) return ERR_INVALID_EPOCH_RECORD;
  if (sol_is_owned_by(c->epoch_record, c->program_id)) return ERR_INVALID_EPOCH_RECORD;
  const SolSignerSeed seeds[3] = {find[0], find[1], {&bump, 1}};
  const SolSignerSeeds pda = {seeds, 3};
  const SolSigners signers = {&pda, 1};
  SolCreateAccount create = {c->owner, c->epoch_record, c->system_program, 0, sizeof(EpochRecord), c->program_id, &signers};
  ProgramResult r = create_account_at_pda(&create);
  // The strike fee rides on the record: strike_epoch pays it to its caller.
  if (r == SUCCESS) r = sol_system_transfer(c->owner, c->epoch_record, c->system_program, c->config->liquidity_fee, NULL);
  if (r != SUCCESS) return r;
  EpochRecord *record = (EpochRecord *)c->epoch_record->data; // created above with exactly sizeof(EpochRecord) bytes
  __builtin_memcpy(record->discriminator, disc, 8);
  record->epoch = c->pool->epoch;
  record->bump = bump;
  c->pool->live_epoch_has_record = 1;
  return SUCCESS;
}

ProgramResult load_or_create_request(const LiquidityRequestContext *c, LiquidityRequest **out) {
  const u8 deposit_disc[8] = DEPOSIT_REQUEST_DISCRIMINATOR;
  const u8 withdraw_disc[8] = WITHDRAW_REQUEST_DISCRIMINATOR;
  const u8 *disc = c->deposit ? deposit_disc : withdraw_disc;
  if (sol_is_owned_by(c->request, c->program_id)) {
    if (c->request->data_len != sizeof(LiquidityRequest) || !sol_has_discriminator(c->request, disc, sizeof(LiquidityRequest)))
      return ERR_INVALID_LIQUIDITY_REQUEST;
    LiquidityRequest *existing = (LiquidityRequest *)c->request->data;
    if (!sol_pubkey_eq(&existing->owner, c->owner->key) || existing->epoch != c->pool->epoch) return ERR_INVALID_LIQUIDITY_REQUEST;
    *out = existing;
    return SUCCESS;
  }
  u8 epoch_bytes[8], bump;
  epoch_seed(c->pool->epoch, epoch_bytes);
  const char *seed = c->deposit ? SEED_DEPOSIT : SEED_WITHDRAW;
  u64 seed_len = c->deposit ? sizeof(SEED_DEPOSIT) - 1 : sizeof(SEED_WITHDRAW) - 1;
  const SolSignerSeed find[3] = {{(const u8 *)seed, seed_len}, {c->owner->key->x, 32}, {epoch_bytes, 8}};
  if (!sol_find_program_address_of(c->request->key, find, 3, c->program_id, &bump)) return ERR_INVALID_LIQUIDITY_REQUEST;
  const SolSignerSeed seeds[4] = {find[0], find[1], find[2], {&bump, 1}};
  const SolSignerSeeds pda = {seeds, 4};
  const SolSigners signers = {&pda, 1};
  SolCreateAccount create = {c->owner, c->request, c->system_program, 0, sizeof(LiquidityRequest), c->program_id, &signers};
  ProgramResult r = create_account_at_pda(&create);
  // The claim fee rides on the request: claim_deposit / claim_withdraw pay it to their caller.
  if (r == SUCCESS) r = sol_system_transfer(c->owner, c->request, c->system_program, c->config->liquidity_fee, NULL);
  if (r != SUCCESS) return r;
  LiquidityRequest *request = (LiquidityRequest *)c->request->data; // created above with exactly sizeof(LiquidityRequest) bytes
  __builtin_memcpy(request->discriminator, disc, 8);
  request->owner = *c->owner->key;
  request->epoch = c->pool->epoch;
  request->bump = bump;
  *out = request;
  return SUCCESS;
}

ProgramResult load_struck_request(const StruckRequestAccounts *a, LiquidityRequest **out, EpochRecord **record_out) {
  const u8 deposit_disc[8] = DEPOSIT_REQUEST_DISCRIMINATOR;
  const u8 withdraw_disc[8] = WITHDRAW_REQUEST_DISCRIMINATOR;
  const u8 record_disc[8] = EPOCH_RECORD_DISCRIMINATOR;
  if (!sol_is_owned_by(a->request, a->program_id) || a->request->data_len != sizeof(LiquidityRequest) ||
      !sol_has_discriminator(a->request, a->deposit ? deposit_disc : withdraw_disc, sizeof(LiquidityRequest)))
    return ERR_INVALID_LIQUIDITY_REQUEST;
  LiquidityRequest *request = (LiquidityRequest *)a->request->data;
  if (!sol_pubkey_eq(a->owner->key, &request->owner)) return ERR_INVALID_LIQUIDITY_REQUEST;
  if (!sol_is_owned_by(a->epoch_record, a->program_id) || a->epoch_record->data_len != sizeof(EpochRecord) ||
      !sol_has_discriminator(a->epoch_record, record_disc, sizeof(EpochRecord)))
    return ERR_INVALID_EPOCH_RECORD;
  EpochRecord *record = (EpochRecord *)a->epoch_record->data;
  if (record->epoch != request->epoch) return ERR_INVALID_EPOCH_RECORD;
  if (!record->struck) return ERR_EPOCH_NOT_STRUCK;
  *out = request;
  *record_out = record;
  return SUCCESS;
}
