// sol/instructions_sysvar.h: read the other instructions of the running transaction from the
// Instructions sysvar account (introspection), with every offset bounds-checked.
//
// Layout: u16 count | u16 offset[count] | each instruction: u16 account_count, account_count x
// (u8 flags, 32-byte key), 32-byte program id, u16 data_len, data | ... | u16 current index (last 2 bytes).
#pragma once
#include "checks.h"

typedef struct {
  const SolPubkey *program_id;
  const u8 *data;
  u16 data_len;
} SolInstructionView;

/** True when `a` really is the Instructions sysvar (a caller could pass any account in its place). */
static inline bool sol_is_instructions_sysvar(const SolAccountInfo *a) {
  const SolPubkey id = SOL_SYSVAR_INSTRUCTIONS_ID;
  return sol_pubkey_eq(a->key, &id);
}

/** Number of instructions in the transaction; 0 when the data is malformed. */
static inline u16 sol_instruction_count(const SolAccountInfo *sysvar) {
  return sysvar->data_len >= 2 ? sol_read_u16(sysvar->data) : 0;
}

/** Loads instruction `index` into `out`; false when it does not exist or the data is malformed. */
static inline bool sol_load_instruction(const SolAccountInfo *sysvar, u16 index, SolInstructionView *out) {
  const u8 *d = sysvar->data;
  u64 len = sysvar->data_len;
  if (index >= sol_instruction_count(sysvar) || 2 + 2 * (u64)index + 2 > len) return false;
  u64 at = sol_read_u16(d + 2 + 2 * (u64)index);
  if (at + 2 > len) return false;
  u64 account_count = sol_read_u16(d + at);
  at += 2 + account_count * 33;
  if (at + 32 + 2 > len) return false;
  out->program_id = (const SolPubkey *)(d + at);
  at += 32;
  out->data_len = sol_read_u16(d + at);
  at += 2;
  if (at + out->data_len > len) return false;
  out->data = d + at;
  return true;
}
