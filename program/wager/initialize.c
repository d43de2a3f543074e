// initialize.c: create the config, the pool, its USDC vault and payout escrow, the LP share mint and the
// share escrow. Only the program's upgrade authority can, once.
//
// Accounts:
//   0. [writable, signer] admin: the program's upgrade authority; pays every account's rent
//   1. [writable] config: PDA ["config"]
//   2. [writable] pool: PDA ["pool"]
//   3. [writable] vault: PDA ["vault"], USDC token account owned by the pool
//   4. [writable] escrow: PDA ["escrow"], USDC token account owned by the pool
//   5. [writable] share_mint: PDA ["share-mint"], the USDC mint's decimals, mint authority the pool
//   6. [writable] share_escrow: PDA ["share-escrow"], share token account owned by the pool
//   7. [] usdc_mint
//   8. [] program_data: this program's ProgramData account
//   9. [] token_program
//  10. [] system_program
// Data:
//   [0..8]     discriminator
//   [8..40]    guardian
//   [40..72]   oracle_program
//   [72..80]   request_fee u64      [80..88] settle_fee u64      [88..96] expire_fee u64
//   [96..104]  liquidity_fee u64    [104..112] t_settle u64      [112..120] epoch_length u64
//   [120..128] oracle_request_size u64
//   [128..130] per_wager_cap_bps u16  [130..132] house_edge_bps u16  [132..136] max_multiplier_bps u32
#include "wager.h"

#define INITIALIZE_DATA_SIZE 136

/** Who pays for the accounts initialize creates. */
typedef struct {
  SolAccountInfo *payer;
  SolAccountInfo *system_program;
  const SolPubkey *program_id;
} Creator;

/** A singleton account at PDA [seed] of this program: its size and owner once created. */
typedef struct {
  SolAccountInfo *account;
  const char *seed;
  u64 seed_len;
  u64 space;
  const SolPubkey *owner;
  ProgramResult wrong_address; // the error for an account that is not the PDA
} Singleton;

#define SINGLETON(account, seed, space, owner, error) {(account), (seed), sizeof(seed) - 1, (space), (owner), (error)}

/** Creates `s->account` at its PDA, refusing an address already in use. */
static ProgramResult create_singleton(const Creator *c, const Singleton *s, u8 *bump) {
  const SolSignerSeed find[1] = {{(const u8 *)s->seed, s->seed_len}};
  if (!sol_find_program_address_of(s->account->key, find, 1, c->program_id, bump)) return s->wrong_address;
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;
  // Lamports sent to the address beforehand are fine (the creation tops up); an owner or data is not.
  if (!sol_is_owned_by(s->account, &system_id) || s->account->data_len != 0) return ERR_ALREADY_INITIALIZED;
  const SolSignerSeed seeds[2] = {find[0], {bump, 1}};
  const SolSignerSeeds pda = {seeds, 2};
  const SolSigners signers = {&pda, 1};
  SolCreateAccount create = {c->payer, s->account, c->system_program, 0, s->space, s->owner, &signers};
  return create_account_at_pda(&create);
}

ProgramResult initialize(SolInput *in) {
  if (in->account_count != 11) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *admin = &in->accounts[0];
  SolAccountInfo *config_account = &in->accounts[1];
  SolAccountInfo *pool_account = &in->accounts[2];
  SolAccountInfo *vault = &in->accounts[3];
  SolAccountInfo *escrow = &in->accounts[4];
  SolAccountInfo *share_mint = &in->accounts[5];
  SolAccountInfo *share_escrow = &in->accounts[6];
  SolAccountInfo *usdc_mint = &in->accounts[7];
  SolAccountInfo *program_data = &in->accounts[8];
  SolAccountInfo *token_program = &in->accounts[9];
  SolAccountInfo *system_program = &in->accounts[10];
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;
  const u8 *d = in->data;

  if (in->data_len != INITIALIZE_DATA_SIZE) return ERR_INVALID_INSTRUCTION;
  u64 t_settle = sol_read_u64(d + 104), epoch_length = sol_read_u64(d + 112), request_size = sol_read_u64(d + 120);
  u16 cap_bps = sol_read_u16(d + 128), edge_bps = sol_read_u16(d + 130);
  u32 max_multiplier = sol_read_u32(d + 132);
  // T_SETTLE bounded: at least one slot to request in, and a stake never waits unboundedly for randomness.
  if (t_settle < T_SETTLE_MIN || t_settle > T_SETTLE_MAX) return ERR_INVALID_CONFIG_VALUES;
  if (epoch_length == 0 || request_size == 0 || request_size > SOL_MAX_PERMITTED_DATA_INCREASE)
    return ERR_INVALID_CONFIG_VALUES;
  if (cap_bps == 0 || cap_bps > BPS || edge_bps >= BPS) return ERR_INVALID_CONFIG_VALUES;
  if (max_multiplier < BPS || max_multiplier > MAX_MULTIPLIER_BPS_LIMIT) return ERR_INVALID_CONFIG_VALUES;

  if (!sol_is_signer(admin)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(admin) || !sol_is_writable(config_account) || !sol_is_writable(pool_account) ||
      !sol_is_writable(vault) || !sol_is_writable(escrow) || !sol_is_writable(share_mint) || !sol_is_writable(share_escrow))
    return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_has_key(system_program, &system_id)) return ERR_INVALID_SYSTEM_PROGRAM;
  if (!sol_is_token_program(token_program)) return ERR_INVALID_TOKEN_PROGRAM;
  if (!sol_is_mint(usdc_mint)) return ERR_INVALID_MINT;
  if (!sol_is_upgrade_authority(program_data, admin->key, in->program_id)) return ERR_UNAUTHORIZED;

  const Creator creator = {admin, system_program, in->program_id};
  const SolPubkey token_id = SOL_TOKEN_PROGRAM_ID;
  const Singleton config_pda = SINGLETON(config_account, SEED_CONFIG, sizeof(Config), in->program_id, ERR_INVALID_CONFIG);
  const Singleton pool_pda = SINGLETON(pool_account, SEED_POOL, sizeof(Pool), in->program_id, ERR_INVALID_POOL);
  const Singleton vault_pda = SINGLETON(vault, SEED_VAULT, SOL_TOKEN_ACCOUNT_SIZE, &token_id, ERR_INVALID_VAULT);
  const Singleton escrow_pda = SINGLETON(escrow, SEED_ESCROW, SOL_TOKEN_ACCOUNT_SIZE, &token_id, ERR_INVALID_VAULT);
  const Singleton mint_pda = SINGLETON(share_mint, SEED_SHARE_MINT, SOL_MINT_SIZE, &token_id, ERR_INVALID_VAULT);
  const Singleton share_escrow_pda = SINGLETON(share_escrow, SEED_SHARE_ESCROW, SOL_TOKEN_ACCOUNT_SIZE, &token_id, ERR_INVALID_VAULT);
  u8 config_bump, pool_bump, bump;
  ProgramResult r = create_singleton(&creator, &config_pda, &config_bump);
  if (r == SUCCESS) r = create_singleton(&creator, &pool_pda, &pool_bump);
  if (r == SUCCESS) r = create_singleton(&creator, &vault_pda, &bump);
  if (r == SUCCESS) r = sol_token_initialize_account3(vault, usdc_mint, pool_account->key, token_program);
  if (r == SUCCESS) r = create_singleton(&creator, &escrow_pda, &bump);
  if (r == SUCCESS) r = sol_token_initialize_account3(escrow, usdc_mint, pool_account->key, token_program);
  if (r == SUCCESS) r = create_singleton(&creator, &mint_pda, &bump);
  if (r == SUCCESS) r = sol_token_initialize_mint2(share_mint, usdc_mint->data[SOL_MINT_DECIMALS_OFFSET], pool_account->key, token_program);
  if (r == SUCCESS) r = create_singleton(&creator, &share_escrow_pda, &bump);
  if (r == SUCCESS) r = sol_token_initialize_account3(share_escrow, share_mint, pool_account->key, token_program);
  if (r != SUCCESS) return r;

  Config *config = (Config *)config_account->data; // created above with exactly sizeof(Config) bytes
  const u8 config_disc[8] = CONFIG_DISCRIMINATOR;
  __builtin_memcpy(config->discriminator, config_disc, 8);
  config->admin = *admin->key;
  __builtin_memcpy(config->guardian.x, d + 8, 32);
  config->usdc_mint = *usdc_mint->key;
  __builtin_memcpy(config->oracle_program.x, d + 40, 32);
  config->request_fee = sol_read_u64(d + 72);
  config->settle_fee = sol_read_u64(d + 80);
  config->expire_fee = sol_read_u64(d + 88);
  config->liquidity_fee = sol_read_u64(d + 96);
  config->t_settle = t_settle;
  config->epoch_length = epoch_length;
  config->oracle_request_size = request_size;
  config->per_wager_cap_bps = cap_bps;
  config->house_edge_bps = edge_bps;
  config->max_multiplier_bps = max_multiplier;
  config->paused = 0;
  config->bump = config_bump;

  Pool *pool = (Pool *)pool_account->data; // created above with exactly sizeof(Pool) bytes
  const u8 pool_disc[8] = POOL_DISCRIMINATOR;
  __builtin_memcpy(pool->discriminator, pool_disc, 8);
  pool->vault = *vault->key;
  pool->escrow = *escrow->key;
  pool->share_mint = *share_mint->key;
  pool->share_escrow = *share_escrow->key;
  pool->epoch = 0;
  if (!sol_add_checked(sol_current_slot(), epoch_length, &pool->epoch_close_slot)) return ERR_ARITHMETIC_OVERFLOW;
  pool->bump = pool_bump;
  return SUCCESS;
}
