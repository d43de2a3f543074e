// oracle_request.c: reading the oracle's request account at ["orao-vrf-randomness-request", seed], the one
// step request_randomness, settle_wager and expire_wager share.
//
// Two account types can live at that PDA, both created by the oracle program for a seed:
//   RandomnessV2 (request_v2, what this program's CPI makes): discriminator, variant (0 pending,
//     1 fulfilled) at 8, client 9..41, seed 41..73, then, once fulfilled, the randomness at 73..137.
//     While pending the rest is the responses collected so far, whose length is ORAO's business: only the
//     seed's 73 bytes are required to accept it, the 137 only to read a fulfilled one.
//   Randomness (ORAO's deprecated v1 `request`, still callable on mainnet): discriminator, seed 8..40,
//     randomness 40..104 (all zero until fulfilled), then the responses vector.
// The seed is public, so anyone may have created either first; each is as good as ours (the oracle
// fulfils a seed the same way whoever paid) and is read here by its discriminator.
#include "wager.h"

bool read_oracle_request(const SolAccountInfo *request, const SolPubkey *oracle_program, const u8 seed[32],
                         const u8 **randomness) {
  if (!sol_is_owned_by(request, oracle_program)) return false;
  const u8 v2_disc[8] = ORACLE_RANDOMNESS_DISCRIMINATOR;
  const u8 legacy_disc[8] = ORACLE_LEGACY_RANDOMNESS_DISCRIMINATOR;
  if (sol_has_discriminator(request, v2_disc, ORACLE_RANDOMNESS_VALUE_OFFSET)) { // holds the seed
    if (!sol_bytes_eq(request->data + ORACLE_RANDOMNESS_SEED_OFFSET, seed, 32)) return false;
    if (request->data[ORACLE_RANDOMNESS_VARIANT_OFFSET] != ORACLE_RANDOMNESS_FULFILLED) {
      *randomness = NULL;
      return true;
    }
    if (request->data_len < ORACLE_RANDOMNESS_VALUE_OFFSET + 64) return false; // fulfilled without its randomness
    *randomness = request->data + ORACLE_RANDOMNESS_VALUE_OFFSET;
    return true;
  }
  if (sol_has_discriminator(request, legacy_disc, ORACLE_LEGACY_VALUE_OFFSET + 64)) {
    if (!sol_bytes_eq(request->data + ORACLE_LEGACY_SEED_OFFSET, seed, 32)) return false;
    const u8 *value = request->data + ORACLE_LEGACY_VALUE_OFFSET;
    *randomness = sol_bytes_all_zero(value, 64) ? NULL : value;
    return true;
  }
  return false;
}
