// fulfill.c: fulfil a pending request. The randomness is the fulfilment authority's ed25519 signature
// over the seed, checked by the Ed25519 precompile instruction in the same transaction (found through
// the Instructions sysvar), so anyone can verify it later with the authority's public key.
//
// Accounts:
//   0. [signer] authority: one of the network's fulfilment authorities
//   1. [] network_state: PDA ["orao-vrf-network-configuration"]
//   2. [writable] request: a pending RandomnessV2 account of this program
//   3. [] instructions: the Instructions sysvar
// Data:
//   [0..8]   discriminator
//   [8..72]  randomness: [u8; 64], the authority's signature over the request's seed
#include "oracle.h"

static bool is_fulfilment_authority(const SolAccountInfo *network, u32 authority_count, const SolPubkey *key) {
  for (u32 i = 0; i < authority_count; i++) {
    if (sol_bytes_eq(network->data + NETWORK_AUTHORITIES_OFFSET + 32 * (u64)i, key->x, 32)) return true;
  }
  return false;
}

ProgramResult oracle_fulfill(SolInput *in) {
  if (in->account_count != 4) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *authority = &in->accounts[0];
  SolAccountInfo *network = &in->accounts[1];
  SolAccountInfo *request = &in->accounts[2];
  SolAccountInfo *instructions = &in->accounts[3];

  if (in->data_len != 8 + 64) return ERR_INVALID_INSTRUCTION;
  const u8 *randomness = in->data + 8;

  if (!sol_is_signer(authority)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(request)) return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_is_instructions_sysvar(instructions)) return ERR_INVALID_INSTRUCTIONS_SYSVAR;

  u32 authority_count;
  ProgramResult r = oracle_load_network_state(network, in->program_id, &authority_count);
  if (r != SUCCESS) return r;
  if (!is_fulfilment_authority(network, authority_count, authority->key)) return ERR_UNAUTHORIZED_FULFILLER;

  const u8 disc[8] = RANDOMNESS_DISCRIMINATOR;
  if (!sol_is_owned_by(request, in->program_id)) return ERR_INVALID_REQUEST_STATE;
  if (!sol_has_discriminator(request, disc, RANDOMNESS_ACCOUNT_SIZE)) return ERR_INVALID_REQUEST_STATE;
  if (request->data[RANDOMNESS_VARIANT_OFFSET] != RANDOMNESS_PENDING) return ERR_ALREADY_FULFILLED;

  const u8 *seed = request->data + RANDOMNESS_SEED_OFFSET;
  SolEd25519Match m = sol_find_ed25519_verification(instructions, authority->key, seed, 32, randomness);
  if (m == SOL_ED25519_NO_MATCH) return ERR_MISSING_SIGNATURE_VERIFICATION;
  if (m != SOL_ED25519_MATCH) return ERR_RANDOMNESS_MISMATCH;

  request->data[RANDOMNESS_VARIANT_OFFSET] = RANDOMNESS_FULFILLED;
  __builtin_memcpy(request->data + RANDOMNESS_VALUE_OFFSET, randomness, 64);

  // RandomnessFulfilled { seed, randomness, authority }: the account keeps ORAO's layout, which does not
  // say who fulfilled; the event does, so the randomness can be verified offline against that one key.
  u8 event[8 + 32 + 64 + 32];
  const u8 event_disc[8] = RANDOMNESS_FULFILLED_EVENT_DISCRIMINATOR;
  __builtin_memcpy(event, event_disc, 8);
  __builtin_memcpy(event + 8, seed, 32);
  __builtin_memcpy(event + 40, randomness, 64);
  __builtin_memcpy(event + 104, authority->key->x, 32);
  sol_emit_event(event, sizeof(event));
  return SUCCESS;
}
