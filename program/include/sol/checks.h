// sol/checks.h: the account checks every instruction spells out, one line per rule.
// Each returns a plain bool so the instruction maps a failure to its own named error where it checks.
#pragma once
#include "pubkey.h"

static inline bool sol_is_signer(const SolAccountInfo *a) { return a->is_signer; }
static inline bool sol_is_writable(const SolAccountInfo *a) { return a->is_writable; }
static inline bool sol_is_owned_by(const SolAccountInfo *a, const SolPubkey *owner) {
  return sol_pubkey_eq(a->owner, owner);
}
static inline bool sol_has_key(const SolAccountInfo *a, const SolPubkey *key) { return sol_pubkey_eq(a->key, key); }

/** True for an address that holds nothing yet: no lamports, no data, owned by the System program. */
static inline bool sol_is_uninitialized(const SolAccountInfo *a) {
  const SolPubkey system = SOL_SYSTEM_PROGRAM_ID;
  return *a->lamports == 0 && a->data_len == 0 && sol_pubkey_eq(a->owner, &system);
}

/** True when the account data is at least `min_len` bytes and starts with the 8-byte discriminator. */
static inline bool sol_has_discriminator(const SolAccountInfo *a, const u8 disc[8], u64 min_len) {
  return a->data_len >= min_len && a->data_len >= 8 && sol_read_u64(a->data) == sol_read_u64(disc);
}

/**
 * True when `key` is the program address of `seeds` (which already end with the stored bump seed):
 * one hash, instead of the bump search of sol_try_find_program_address.
 */
static inline bool sol_is_program_address(const SolPubkey *key, const SolSignerSeed *seeds, u64 seed_count,
                                          const SolPubkey *program_id) {
  SolPubkey derived;
  if (sol_create_program_address(seeds, seed_count, program_id, &derived) != SUCCESS) return false;
  return sol_pubkey_eq(&derived, key);
}

/**
 * Finds the program address of `seeds` and its bump; true when it equals `key`. For addresses whose bump
 * is not stored anywhere yet (an account about to be created); costs about 1 500 CU per bump tried.
 */
static inline bool sol_find_program_address_of(const SolPubkey *key, const SolSignerSeed *seeds, u64 seed_count,
                                               const SolPubkey *program_id, u8 *bump) {
  SolPubkey derived;
  if (sol_try_find_program_address(seeds, seed_count, program_id, &derived, bump) != SUCCESS) return false;
  return sol_pubkey_eq(&derived, key);
}
