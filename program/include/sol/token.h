// sol/token.h: read SPL Token accounts and mints in place, and the initialise instructions the programs
// use to create their own token accounts and mints (InitializeAccount3 / InitializeMint2: no Rent
// sysvar account needed).
#pragma once
#include "cpi.h"

// Token account (165 bytes): mint 0..32, owner 32..64, amount 64..72, delegate option 72..108,
// state 108 (0 uninitialized, 1 initialized, 2 frozen), ...
#define SOL_TOKEN_ACCOUNT_SIZE 165
#define SOL_TOKEN_ACCOUNT_MINT_OFFSET 0
#define SOL_TOKEN_ACCOUNT_OWNER_OFFSET 32
#define SOL_TOKEN_ACCOUNT_AMOUNT_OFFSET 64
#define SOL_TOKEN_ACCOUNT_STATE_OFFSET 108
#define SOL_TOKEN_STATE_INITIALIZED 1
#define SOL_TOKEN_STATE_FROZEN 2
// Mint (82 bytes): mint authority option 0..36, supply 36..44, decimals 44, is_initialized 45, ...
#define SOL_MINT_SIZE 82
#define SOL_MINT_SUPPLY_OFFSET 36
#define SOL_MINT_DECIMALS_OFFSET 44
#define SOL_MINT_INITIALIZED_OFFSET 45

static inline bool sol_is_token_program(const SolAccountInfo *a) {
  const SolPubkey token = SOL_TOKEN_PROGRAM_ID;
  return sol_pubkey_eq(a->key, &token);
}

/** True for an initialized (not frozen) SPL Token account of `mint`: one that can receive `mint` now. */
static inline bool sol_token_account_can_receive(const SolAccountInfo *a, const SolPubkey *mint) {
  const SolPubkey token = SOL_TOKEN_PROGRAM_ID;
  return *a->lamports > 0 && sol_pubkey_eq(a->owner, &token) && a->data_len == SOL_TOKEN_ACCOUNT_SIZE &&
         sol_bytes_eq(a->data + SOL_TOKEN_ACCOUNT_MINT_OFFSET, mint->x, 32) &&
         a->data[SOL_TOKEN_ACCOUNT_STATE_OFFSET] == SOL_TOKEN_STATE_INITIALIZED;
}

/** True for an SPL Token account (any state) of `mint`; its owner and amount can then be read. */
static inline bool sol_is_token_account_of(const SolAccountInfo *a, const SolPubkey *mint) {
  const SolPubkey token = SOL_TOKEN_PROGRAM_ID;
  return sol_pubkey_eq(a->owner, &token) && a->data_len == SOL_TOKEN_ACCOUNT_SIZE &&
         sol_bytes_eq(a->data + SOL_TOKEN_ACCOUNT_MINT_OFFSET, mint->x, 32);
}

static inline u64 sol_token_account_amount(const SolAccountInfo *a) {
  return sol_read_u64(a->data + SOL_TOKEN_ACCOUNT_AMOUNT_OFFSET);
}

/** True for an initialized SPL Token mint. */
static inline bool sol_is_mint(const SolAccountInfo *a) {
  const SolPubkey token = SOL_TOKEN_PROGRAM_ID;
  return sol_pubkey_eq(a->owner, &token) && a->data_len == SOL_MINT_SIZE && a->data[SOL_MINT_INITIALIZED_OFFSET] == 1;
}

/** InitializeAccount3 (tag 18): make `account` (already allocated, token-owned) a token account. */
static inline ProgramResult sol_token_initialize_account3(SolAccountInfo *account, SolAccountInfo *mint,
                                                          const SolPubkey *owner, SolAccountInfo *token_program) {
  u8 data[33];
  data[0] = 18;
  __builtin_memcpy(data + 1, owner->x, 32);
  const SolAccountMeta metas[2] = {{account->key, true, false}, {mint->key, false, false}};
  const SolInstruction ix = {token_program->key, metas, 2, data, sizeof(data)};
  SolAccountInfo *const accounts[3] = {account, mint, token_program};
  return sol_invoke(&ix, accounts, 3, NULL);
}

/** InitializeMint2 (tag 20): make `mint` a mint with `decimals` and `authority`, no freeze authority. */
static inline ProgramResult sol_token_initialize_mint2(SolAccountInfo *mint, u8 decimals, const SolPubkey *authority,
                                                       SolAccountInfo *token_program) {
  u8 data[35];
  data[0] = 20;
  data[1] = decimals;
  __builtin_memcpy(data + 2, authority->x, 32);
  data[34] = 0; // no freeze authority
  const SolAccountMeta metas[1] = {{mint->key, true, false}};
  const SolInstruction ix = {token_program->key, metas, 1, data, sizeof(data)};
  SolAccountInfo *const accounts[2] = {mint, token_program};
  return sol_invoke(&ix, accounts, 2, NULL);
}
