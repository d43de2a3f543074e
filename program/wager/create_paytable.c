// create_paytable.c: the admin creates a named paytable. Checked here, once, so every wager can trust it:
// 1..=32 buckets, every weight > 0, every multiplier <= the config's bound, the highest multiplier >= 1x
// (10 000 bps), and expected return sum(weight * multiplier) / (total weight * 10 000) <= 1 - house edge.
//
// Accounts:
//   0. [writable, signer] admin: pays the rent
//   1. [] config
//   2. [writable] paytable: PDA ["paytable", name]
//   3. [] system_program
// Data:
//   [0..8]   discriminator
//   [8..40]  name: 32 bytes, UTF-8, zero padded
//   [40]     n: bucket count
//   [41..41+8n] n x (weight u32, multiplier_bps u32)
#include "wager.h"

ProgramResult create_paytable(SolInput *in) {
  if (in->account_count != 4) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *admin = &in->accounts[0];
  SolAccountInfo *config_account = &in->accounts[1];
  SolAccountInfo *paytable_account = &in->accounts[2];
  SolAccountInfo *system_program = &in->accounts[3];
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;

  if (in->data_len < 41) return ERR_INVALID_INSTRUCTION;
  const u8 *name = in->data + 8;
  u8 n = in->data[40];
  if (in->data_len != 41 + 8 * (u64)n) return ERR_INVALID_INSTRUCTION;

  Config *config;
  ProgramResult r = load_config(config_account, in->program_id, &config);
  if (r != SUCCESS) return r;
  if (!sol_is_signer(admin)) return ERR_MISSING_SIGNATURE;
  if (!sol_pubkey_eq(admin->key, &config->admin)) return ERR_UNAUTHORIZED;
  if (!sol_is_writable(admin) || !sol_is_writable(paytable_account)) return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_has_key(system_program, &system_id)) return ERR_INVALID_SYSTEM_PROGRAM;

  // The definition: u32 weights and multipliers, at most 32 buckets, so every sum below fits in u64.
  if (n == 0 || n > PAYTABLE_MAX_BUCKETS || sol_bytes_all_zero(name, PAYTABLE_NAME_SIZE)) return ERR_INVALID_PAYTABLE_DEFINITION;
  u64 total_weight = 0, weighted_return = 0;
  u32 max_multiplier = 0;
  for (u8 i = 0; i < n; i++) {
    u32 weight = sol_read_u32(in->data + 41 + 8 * (u64)i);
    u32 multiplier = sol_read_u32(in->data + 45 + 8 * (u64)i);
    if (weight == 0 || multiplier > config->max_multiplier_bps) return ERR_INVALID_PAYTABLE_DEFINITION;
    total_weight += weight;
    weighted_return += (u64)weight * multiplier;
    if (multiplier > max_multiplier) max_multiplier = multiplier;
  }
  if (weighted_return > total_weight * (BPS - config->house_edge_bps)) return ERR_INVALID_PAYTABLE_DEFINITION;
  // Some bucket must pay at least the stake back: under 1x, max payout < stake, so the stake would back
  // other wagers while its own is open (and settlement could then find the liquidity short).
  if (max_multiplier < BPS) return ERR_INVALID_PAYTABLE_DEFINITION;

  u8 bump;
  const SolSignerSeed find[2] = {{(const u8 *)SEED_PAYTABLE, sizeof(SEED_PAYTABLE) - 1}, {name, PAYTABLE_NAME_SIZE}};
  if (!sol_find_program_address_of(paytable_account->key, find, 2, in->program_id, &bump)) return ERR_INVALID_PAYTABLE;
  if (sol_is_owned_by(paytable_account, in->program_id)) return ERR_ALREADY_INITIALIZED;
  const SolSignerSeed seeds[3] = {find[0], find[1], {&bump, 1}};
  const SolSignerSeeds pda = {seeds, 3};
  const SolSigners signers = {&pda, 1};
  SolCreateAccount create = {admin, paytable_account, system_program, 0, sizeof(Paytable), in->program_id, &signers};
  r = create_account_at_pda(&create);
  if (r != SUCCESS) return r;

  Paytable *paytable = (Paytable *)paytable_account->data; // created above with exactly sizeof(Paytable) bytes
  const u8 disc[8] = PAYTABLE_DISCRIMINATOR;
  __builtin_memcpy(paytable->discriminator, disc, 8);
  __builtin_memcpy(paytable->name, name, PAYTABLE_NAME_SIZE);
  paytable->total_weight = total_weight;
  paytable->max_multiplier_bps = max_multiplier;
  paytable->bucket_count = n;
  paytable->bump = bump;
  sol_copy(paytable->buckets, in->data + 41, 8 * (u64)n);
  return SUCCESS;
}
