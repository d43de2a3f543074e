// init_network.c: create the network configuration. Only the program's upgrade authority may do this,
// so nobody can front-run the configuration of a freshly deployed oracle.
//
// Accounts:
//   0. [writable, signer] payer: the program's upgrade authority; pays the account's rent
//   1. [writable] network_state: PDA ["orao-vrf-network-configuration"]
//   2. [] program_data: this program's ProgramData account (BPF upgradeable loader)
//   3. [] system_program
// Data:
//   [0..8]   discriminator
//   [8..16]  request_fee: u64 LE lamports
//   [16..48] authority
//   [48..80] treasury
//   [80..84] n: u32 LE, 1..=8 fulfilment authorities
//   [84..84+32n] fulfilment authorities
#include "oracle.h"

ProgramResult oracle_init_network(SolInput *in) {
  if (in->account_count != 4) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *payer = &in->accounts[0];
  SolAccountInfo *network = &in->accounts[1];
  SolAccountInfo *program_data = &in->accounts[2];
  SolAccountInfo *system_program = &in->accounts[3];
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;

  if (in->data_len < 84) return ERR_INVALID_INSTRUCTION;
  u64 request_fee = sol_read_u64(in->data + 8);
  u32 n = sol_read_u32(in->data + 80);
  if (n == 0 || n > ORACLE_MAX_AUTHORITIES) return ERR_INVALID_AUTHORITIES;
  if (in->data_len != 84 + 32 * (u64)n) return ERR_INVALID_INSTRUCTION;
  for (u32 i = 0; i < n; i++) {
    if (sol_bytes_all_zero(in->data + 84 + 32 * (u64)i, 32)) return ERR_INVALID_AUTHORITIES;
  }

  if (!sol_is_signer(payer)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(payer) || !sol_is_writable(network)) return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_has_key(system_program, &system_id)) return ERR_INVALID_SYSTEM_PROGRAM;
  if (!sol_is_upgrade_authority(program_data, payer->key, in->program_id)) return ERR_NOT_UPGRADE_AUTHORITY;
  if (sol_is_owned_by(network, in->program_id)) return ERR_NETWORK_ALREADY_INITIALIZED;

  u8 bump;
  const SolSignerSeed find[1] = {{(const u8 *)ORACLE_NETWORK_SEED, sizeof(ORACLE_NETWORK_SEED) - 1}};
  if (!sol_find_program_address_of(network->key, find, 1, in->program_id, &bump)) return ERR_INVALID_NETWORK_STATE;

  u64 size = NETWORK_STATE_SIZE(n), rent;
  if (!sol_rent_exempt_minimum(size, &rent)) return ERR_UNSUPPORTED_RENT;
  const SolSignerSeed seeds[2] = {find[0], {&bump, 1}};
  const SolSignerSeeds pda = {seeds, 2};
  const SolSigners signers = {&pda, 1};
  const SolCreateAccount create = {payer, network, system_program, rent, size, in->program_id, &signers};
  ProgramResult r = sol_create_pda_account(&create);
  if (r != SUCCESS) return r;

  u8 *d = network->data;
  const u8 disc[8] = NETWORK_STATE_DISCRIMINATOR;
  __builtin_memcpy(d, disc, 8);
  __builtin_memcpy(d + NETWORK_AUTHORITY_OFFSET, in->data + 16, 32);
  __builtin_memcpy(d + NETWORK_TREASURY_OFFSET, in->data + 48, 32);
  sol_write_u64(d + NETWORK_REQUEST_FEE_OFFSET, request_fee);
  sol_write_u32(d + NETWORK_AUTHORITY_COUNT_OFFSET, n);
  sol_copy(d + NETWORK_AUTHORITIES_OFFSET, in->data + 84, 32 * (u64)n);
  d[NETWORK_NUM_RECEIVED_OFFSET(n) - 1] = 0; // token fee config: None
  sol_write_u64(d + NETWORK_NUM_RECEIVED_OFFSET(n), 0);
  d[NETWORK_BUMP_OFFSET(n)] = bump;
  return SUCCESS;
}
