// fulfill_v2.c: ORAO VRF's own fulfilment instruction, so ORAO's fulfilment tooling (its SDK's
// FulfillBuilder) works against the local oracle. No arguments: the randomness is the signature of the
// Ed25519 precompile instruction in the same transaction that verified a fulfilment authority's
// signature over the request's seed (found through the Instructions sysvar).
//
// Accounts (ORAO's order):
//   0. [writable, signer] payer: pays the transaction (any key)
//   1. [] instructions: the Instructions sysvar
//   2. [writable] network_state: PDA ["orao-vrf-network-configuration"] (ORAO marks it writable; not written here)
//   3. [writable] request: a pending RandomnessV2 account of this program
//   4. [writable] client: the request's client, as recorded in it
//   5. [] system_program
// Data:
//   [0..8] discriminator
#include "oracle.h"

ProgramResult oracle_fulfill_v2(SolInput *in) {
  if (in->account_count != 6) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *payer = &in->accounts[0];
  SolAccountInfo *instructions = &in->accounts[1];
  SolAccountInfo *network = &in->accounts[2];
  SolAccountInfo *request = &in->accounts[3];
  SolAccountInfo *client = &in->accounts[4];
  SolAccountInfo *system_program = &in->accounts[5];
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;

  if (in->data_len != 8) return ERR_INVALID_INSTRUCTION;
  if (!sol_is_signer(payer)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(request)) return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_is_instructions_sysvar(instructions)) return ERR_INVALID_INSTRUCTIONS_SYSVAR;
  if (!sol_has_key(system_program, &system_id)) return ERR_INVALID_SYSTEM_PROGRAM;

  u32 authority_count;
  ProgramResult r = oracle_load_network_state(network, in->program_id, &authority_count);
  if (r != SUCCESS) return r;

  const u8 disc[8] = RANDOMNESS_DISCRIMINATOR;
  if (!sol_is_owned_by(request, in->program_id)) return ERR_INVALID_REQUEST_STATE;
  if (!sol_has_discriminator(request, disc, RANDOMNESS_ACCOUNT_SIZE)) return ERR_INVALID_REQUEST_STATE;
  if (!sol_bytes_eq(client->key->x, request->data + RANDOMNESS_CLIENT_OFFSET, 32)) return ERR_INVALID_CLIENT;

  // The first precompile signature over the seed by a fulfilment authority is the randomness. Otherwise
  // the refusal names what was there: an authority signing something else, or a stranger's signature.
  // Who signed is judged before the request's state, as ORAO's program does: a stranger is
  // UnauthorizedFulfillmentAuthority (6005) whether or not the request was fulfilled already.
  const u8 *seed = request->data + RANDOMNESS_SEED_OFFSET;
  ProgramResult refusal = ERR_MISSING_ED25519_SIG_VERIFY_INSTRUCTION;
  u16 count = sol_instruction_count(instructions);
  for (u16 i = 0; i < count; i++) {
    SolInstructionView ix;
    SolEd25519Entry e;
    if (!sol_load_instruction(instructions, i, &ix) || !sol_ed25519_entry(&ix, &e)) continue;
    bool over_seed = e.message_len == 32 && sol_bytes_eq(e.message, seed, 32);
    bool authority = oracle_is_fulfilment_authority(network, authority_count, e.key);
    if (over_seed && authority) {
      if (request->data[RANDOMNESS_VARIANT_OFFSET] != RANDOMNESS_PENDING) return ERR_ALREADY_FULFILLED;
      oracle_complete_request(request, e.signature);
      return SUCCESS;
    }
    if (authority) refusal = ERR_INVALID_FULFILL_MESSAGE;
    else if (over_seed && refusal == ERR_MISSING_ED25519_SIG_VERIFY_INSTRUCTION) refusal = ERR_UNAUTHORIZED_FULFILLMENT_AUTHORITY;
  }
  return refusal;
}
