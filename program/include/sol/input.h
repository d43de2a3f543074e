// sol/input.h: zero-copy parsing of the program input (the aligned layout of the upgradeable loader).
// Account structs point into the input buffer; nothing is copied but the pointers.
#pragma once
#include "bytes.h"

#define SOL_MAX_PERMITTED_DATA_INCREASE (1024 * 10)
#define SOL_NON_DUP_MARKER 0xff

typedef struct {
  SolAccountInfo *accounts; // caller-owned array of `capacity` entries
  u64 capacity;
  u64 account_count;        // accounts passed by the transaction (may exceed capacity)
  const u8 *data;
  u64 data_len;
  const SolPubkey *program_id;
} SolInput;

/**
 * Parses the serialized input into `in`. Fills at most `in->capacity` accounts but always walks them
 * all (the instruction data follows the last one). Returns false when more accounts were passed than
 * fit: an instruction then refuses rather than silently ignoring some.
 */
static inline bool sol_parse_input(const u8 *input, SolInput *in) {
  u64 count = sol_read_u64(input);
  input += 8;
  in->account_count = count;
  for (u64 i = 0; i < count; i++) {
    u8 dup = *input++;
    if (dup == SOL_NON_DUP_MARKER) {
      SolAccountInfo a;
      a.is_signer = input[0];
      a.is_writable = input[1];
      a.executable = input[2];
      input += 3 + 4; // flags, then 4 bytes of original data length we do not need
      a.key = (SolPubkey *)input;
      input += 32;
      a.owner = (SolPubkey *)input;
      input += 32;
      a.lamports = (u64 *)input;
      input += 8;
      a.data_len = sol_read_u64(input);
      input += 8;
      a.data = (u8 *)input;
      input += a.data_len + SOL_MAX_PERMITTED_DATA_INCREASE;
      input = (const u8 *)(((u64)input + 7) & ~7ULL);
      a.rent_epoch = sol_read_u64(input);
      input += 8;
      if (i < in->capacity) in->accounts[i] = a;
    } else {
      input += 7;
      // A duplicate refers to an earlier position; it shares that account's pointers.
      if (i < in->capacity && dup < in->capacity) in->accounts[i] = in->accounts[dup];
    }
  }
  in->data_len = sol_read_u64(input);
  input += 8;
  in->data = input;
  input += in->data_len;
  in->program_id = (const SolPubkey *)input;
  return count <= in->capacity;
}

/** True when the instruction data starts with the 8-byte discriminator `disc`. */
static inline bool sol_data_has_discriminator(const SolInput *in, const u8 disc[8]) {
  return in->data_len >= 8 && sol_read_u64(in->data) == sol_read_u64(disc);
}
