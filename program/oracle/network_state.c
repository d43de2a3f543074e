// network_state.c: the one loader of the network configuration, shared by every instruction.
//
// Why no PDA hash here: only this program writes into accounts it owns, and it writes the NetworkState
// discriminator only in init_network, into the PDA ["orao-vrf-network-configuration"] (checked there).
// Owner + discriminator therefore identify the one configuration; re-deriving it would cost ~1 500 CU.
#include "oracle.h"

ProgramResult oracle_load_network_state(const SolAccountInfo *network, const SolPubkey *program_id,
                                        u32 *authority_count) {
  const u8 disc[8] = NETWORK_STATE_DISCRIMINATOR;
  if (!sol_is_owned_by(network, program_id)) return ERR_INVALID_NETWORK_STATE;
  if (!sol_has_discriminator(network, disc, NETWORK_AUTHORITIES_OFFSET)) return ERR_INVALID_NETWORK_STATE;
  u32 n = sol_read_u32(network->data + NETWORK_AUTHORITY_COUNT_OFFSET);
  if (n == 0 || n > ORACLE_MAX_AUTHORITIES) return ERR_INVALID_NETWORK_STATE;
  if (network->data_len != NETWORK_STATE_SIZE(n)) return ERR_INVALID_NETWORK_STATE;
  *authority_count = n;
  return SUCCESS;
}
