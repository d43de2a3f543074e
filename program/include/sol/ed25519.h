// sol/ed25519.h: recognise an Ed25519 signature-verify precompile instruction that checked a given
// (public key, message, signature). The precompile fails the whole transaction on a bad signature, so
// finding a matching instruction in the same transaction proves the signature is valid.
//
// Precompile data: u8 count, u8 padding, then per signature 7 x u16: signature_offset,
// signature_instruction_index, public_key_offset, public_key_instruction_index, message_data_offset,
// message_data_size, message_instruction_index. Index 0xFFFF means "inside this instruction's data".
#pragma once
#include "instructions_sysvar.h"

#define SOL_ED25519_OFFSETS_START 2
#define SOL_ED25519_THIS_INSTRUCTION 0xffff

typedef enum {
  SOL_ED25519_NO_MATCH = 0,       // not a precompile instruction for this key and message
  SOL_ED25519_MATCH = 1,          // verified this key, message and exactly this signature
  SOL_ED25519_OTHER_SIGNATURE = 2 // verified this key and message, but a different signature
} SolEd25519Match;

/** What one precompile instruction verified: pointers into its data. */
typedef struct {
  const u8 *key;       // 32 bytes
  const u8 *message;   // message_len bytes
  u16 message_len;
  const u8 *signature; // 64 bytes
} SolEd25519Entry;

/**
 * Reads the (key, message, signature) one precompile instruction verified. Only the single-signature form
 * with all data inside the instruction itself is accepted: offsets pointing into other instructions
 * would let the bytes we read differ from the bytes the precompile checked.
 */
static inline bool sol_ed25519_entry(const SolInstructionView *ix, SolEd25519Entry *entry) {
  const SolPubkey precompile = SOL_ED25519_PROGRAM_ID;
  if (!sol_pubkey_eq(ix->program_id, &precompile)) return false;
  const u8 *d = ix->data;
  if (ix->data_len < SOL_ED25519_OFFSETS_START + 14 || d[0] != 1) return false;
  const u8 *o = d + SOL_ED25519_OFFSETS_START;
  u16 sig_at = sol_read_u16(o), sig_ix = sol_read_u16(o + 2);
  u16 key_at = sol_read_u16(o + 4), key_ix = sol_read_u16(o + 6);
  u16 msg_at = sol_read_u16(o + 8), msg_len = sol_read_u16(o + 10), msg_ix = sol_read_u16(o + 12);
  if (sig_ix != SOL_ED25519_THIS_INSTRUCTION || key_ix != SOL_ED25519_THIS_INSTRUCTION ||
      msg_ix != SOL_ED25519_THIS_INSTRUCTION)
    return false;
  if ((u64)sig_at + 64 > ix->data_len || (u64)key_at + 32 > ix->data_len || (u64)msg_at + msg_len > ix->data_len)
    return false;
  *entry = (SolEd25519Entry){d + key_at, d + msg_at, msg_len, d + sig_at};
  return true;
}

/** Compares one precompile instruction with (key, message, signature). */
static inline SolEd25519Match sol_ed25519_instruction_matches(const SolInstructionView *ix, const SolPubkey *key,
                                                              const u8 *message, u16 message_len,
                                                              const u8 signature[64]) {
  SolEd25519Entry e;
  if (!sol_ed25519_entry(ix, &e)) return SOL_ED25519_NO_MATCH;
  if (e.message_len != message_len || !sol_bytes_eq(e.key, key->x, 32) || !sol_bytes_eq(e.message, message, message_len))
    return SOL_ED25519_NO_MATCH;
  return sol_bytes_eq(e.signature, signature, 64) ? SOL_ED25519_MATCH : SOL_ED25519_OTHER_SIGNATURE;
}

/** Searches the whole transaction for a precompile instruction over (key, message); best result wins. */
static inline SolEd25519Match sol_find_ed25519_verification(const SolAccountInfo *instructions_sysvar,
                                                            const SolPubkey *key, const u8 *message,
                                                            u16 message_len, const u8 signature[64]) {
  SolEd25519Match best = SOL_ED25519_NO_MATCH;
  u16 count = sol_instruction_count(instructions_sysvar);
  for (u16 i = 0; i < count; i++) {
    SolInstructionView ix;
    if (!sol_load_instruction(instructions_sysvar, i, &ix)) continue;
    SolEd25519Match m = sol_ed25519_instruction_matches(&ix, key, message, message_len, signature);
    if (m == SOL_ED25519_MATCH) return m;
    if (m > best) best = m;
  }
  return best;
}
