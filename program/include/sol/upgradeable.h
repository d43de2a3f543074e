// sol/upgradeable.h: read a program's upgrade authority from its ProgramData account (BPF upgradeable
// loader), so one-time set-up instructions can require that exact signer.
#pragma once
#include "checks.h"

// ProgramData: u32 tag (3), u64 deployment slot, u8 has-authority, 32-byte upgrade authority.
#define SOL_PROGRAM_DATA_TAG 3
#define SOL_PROGRAM_DATA_HAS_AUTHORITY_OFFSET 12
#define SOL_PROGRAM_DATA_AUTHORITY_OFFSET 13

/**
 * True when `program_data` is the ProgramData account of `program_id` (owner and PDA checked) and
 * `signer` is its upgrade authority. Costs one bump search (~1 500 CU per bump tried).
 */
static inline bool sol_is_upgrade_authority(const SolAccountInfo *program_data, const SolPubkey *signer,
                                            const SolPubkey *program_id) {
  const SolPubkey loader = SOL_BPF_LOADER_UPGRADEABLE_ID;
  u8 bump;
  const SolSignerSeed seeds[1] = {{program_id->x, 32}};
  if (!sol_is_owned_by(program_data, &loader)) return false;
  if (!sol_find_program_address_of(program_data->key, seeds, 1, &loader, &bump)) return false;
  if (program_data->data_len < SOL_PROGRAM_DATA_AUTHORITY_OFFSET + 32) return false;
  if (sol_read_u32(program_data->data) != SOL_PROGRAM_DATA_TAG) return false;
  if (program_data->data[SOL_PROGRAM_DATA_HAS_AUTHORITY_OFFSET] != 1) return false;
  return sol_bytes_eq(program_data->data + SOL_PROGRAM_DATA_AUTHORITY_OFFSET, signer->x, 32);
}
