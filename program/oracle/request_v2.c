// request_v2.c: request randomness for a 32-byte seed (ORAO VRF v2 interface). Charges the network's
// fee to its treasury and creates the pending RandomnessV2 account at the seed's PDA.
//
// Accounts:
//   0. [writable, signer] payer: pays the fee and the request account's rent; recorded as client
//   1. [writable] network_state: PDA ["orao-vrf-network-configuration"]
//   2. [writable] treasury: the configured treasury
//   3. [writable] request: PDA ["orao-vrf-randomness-request", seed], created here
//   4. [] system_program
// Data:
//   [0..8]  discriminator
//   [8..40] seed: [u8; 32], not all zero, never used before
#include "oracle.h"

ProgramResult oracle_request_v2(SolInput *in) {
  if (in->account_count != 5) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *payer = &in->accounts[0];
  SolAccountInfo *network = &in->accounts[1];
  SolAccountInfo *treasury = &in->accounts[2];
  SolAccountInfo *request = &in->accounts[3];
  SolAccountInfo *system_program = &in->accounts[4];
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;

  if (in->data_len != 8 + 32) return ERR_INVALID_INSTRUCTION;
  const u8 *seed = in->data + 8;
  if (sol_bytes_all_zero(seed, 32)) return ERR_ZERO_SEED;

  if (!sol_is_signer(payer)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(payer) || !sol_is_writable(network) || !sol_is_writable(treasury) ||
      !sol_is_writable(request))
    return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_has_key(system_program, &system_id)) return ERR_INVALID_SYSTEM_PROGRAM;

  u32 authority_count;
  ProgramResult r = oracle_load_network_state(network, in->program_id, &authority_count);
  if (r != SUCCESS) return r;
  if (!sol_bytes_eq(treasury->key->x, network->data + NETWORK_TREASURY_OFFSET, 32)) return ERR_UNKNOWN_TREASURY_GIVEN;

  u8 bump;
  const SolSignerSeed find[2] = {{(const u8 *)ORACLE_REQUEST_SEED, sizeof(ORACLE_REQUEST_SEED) - 1}, {seed, 32}};
  if (!sol_find_program_address_of(request->key, find, 2, in->program_id, &bump)) return ERR_INVALID_REQUEST_ACCOUNT;
  if (sol_is_owned_by(request, in->program_id) || request->data_len != 0) return ERR_SEED_ALREADY_IN_USE;

  u64 fee = sol_read_u64(network->data + NETWORK_REQUEST_FEE_OFFSET), total;
  SolRentRate rate;
  if (!sol_rent_rate(&rate)) return ERR_UNSUPPORTED_RENT;
  u64 rent = sol_rent_minimum_at(&rate, RANDOMNESS_ACCOUNT_SIZE);
  u64 rent_due = *request->lamports >= rent ? 0 : rent - *request->lamports;
  if (!sol_add_checked(fee, rent_due, &total) || *payer->lamports < total) return ERR_INSUFFICIENT_FUNDS;
  // The runtime fails a transaction that leaves an account with 0 < lamports < its rent-exempt minimum
  // (InsufficientFundsForRent, no name): the payer must end empty or still rent-exempt.
  u64 remainder = *payer->lamports - total;
  if (remainder != 0 && remainder < sol_rent_minimum_at(&rate, payer->data_len)) return ERR_INSUFFICIENT_FUNDS;
  // Same rule for the treasury: one that does not exist yet is created by the first fee, which must then
  // reach its rent-exempt minimum. init_network cannot check it: here it takes the treasury as data.
  u64 treasury_after;
  if (fee > 0 && (!sol_add_checked(*treasury->lamports, fee, &treasury_after) ||
                  treasury_after < sol_rent_minimum_at(&rate, treasury->data_len)))
    return ERR_TREASURY_NOT_RENT_EXEMPT;

  if (fee > 0) {
    r = sol_system_transfer(payer, treasury, system_program, fee, NULL);
    if (r != SUCCESS) return r;
  }
  const SolSignerSeed seeds[3] = {find[0], find[1], {&bump, 1}};
  const SolSignerSeeds pda = {seeds, 3};
  const SolSigners signers = {&pda, 1};
  const SolCreateAccount create = {payer, request, system_program, rent, RANDOMNESS_ACCOUNT_SIZE, in->program_id, &signers};
  r = sol_create_pda_account(&create);
  if (r != SUCCESS) return r;

  u8 *d = request->data;
  const u8 disc[8] = RANDOMNESS_DISCRIMINATOR;
  __builtin_memcpy(d, disc, 8);
  d[RANDOMNESS_VARIANT_OFFSET] = RANDOMNESS_PENDING;
  __builtin_memcpy(d + RANDOMNESS_CLIENT_OFFSET, payer->key->x, 32);
  __builtin_memcpy(d + RANDOMNESS_SEED_OFFSET, seed, 32);
  sol_zero(d + RANDOMNESS_VALUE_OFFSET, RANDOMNESS_ACCOUNT_SIZE - RANDOMNESS_VALUE_OFFSET);

  u8 *received = network->data + NETWORK_NUM_RECEIVED_OFFSET(authority_count);
  sol_write_u64(received, sol_read_u64(received) + 1);

  // ORAO's Request { seed, client, paid_with_spl: false }
  u8 event[8 + 32 + 32 + 1];
  const u8 event_disc[8] = REQUEST_EVENT_DISCRIMINATOR;
  __builtin_memcpy(event, event_disc, 8);
  __builtin_memcpy(event + 8, seed, 32);
  __builtin_memcpy(event + 40, payer->key->x, 32);
  event[72] = 0;
  sol_emit_event(event, sizeof(event));
  return SUCCESS;
}
