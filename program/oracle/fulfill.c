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
  if (!oracle_is_fulfilment_authority(network, authority_count, authority->key->x)) return ERR_UNAUTHORIZED_FULFILLMENT_AUTHORITY;

  const u8 disc[8] = RANDOMNESS_DISCRIMINATOR;
  if (!sol_is_owned_by(request, in->program_id)) return ERR_INVALID_REQUEST_STATE;
  if (!sol_has_discriminator(request, disc, RANDOMNESS_ACCOUNT_SIZE)) return ERR_INVALID_REQUEST_STATE;
  if (request->data[RANDOMNESS_VARIANT_OFFSET] != RANDOMNESS_PENDING) return ERR_ALREADY_FULFILLED;

  const u8 *seed = request->data + RANDOMNESS_SEED_OFFSET;
  SolEd25519Match m = sol_find_ed25519_verification(instructions, authority->key, seed, 32, randomness);
  if (m == SOL_ED25519_NO_MATCH) return ERR_MISSING_ED25519_SIG_VERIFY_INSTRUCTION;
  if (m != SOL_ED25519_MATCH) return ERR_RANDOMNESS_VERIFICATION_FAILED;

  oracle_complete_request(request, randomness);
  return SUCCESS;
}
