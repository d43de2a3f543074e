// sol/types.h: fixed-width types, the runtime's C ABI structs, and the built-in program errors.
// Everything here is plain data: no allocation, no globals (SBPF v0 has no writable data).
#pragma once

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed long long i64;
typedef _Bool bool;
#define true 1
#define false 0
#define NULL ((void *)0)

/** What every instruction returns: 0 on success, otherwise a built-in or custom error. */
typedef u64 ProgramResult;
#define SUCCESS 0

// Built-in ProgramError values (index << 32), as the runtime decodes them.
#define ERROR_INVALID_ARGUMENT (2ULL << 32)
#define ERROR_INVALID_INSTRUCTION_DATA (3ULL << 32)
#define ERROR_INVALID_ACCOUNT_DATA (4ULL << 32)
#define ERROR_MISSING_REQUIRED_SIGNATURES (8ULL << 32)
#define ERROR_NOT_ENOUGH_ACCOUNT_KEYS (11ULL << 32)
#define ERROR_INVALID_SEEDS (14ULL << 32)
/** A program's own error code: surfaces as `InstructionError::Custom(code)`. Never 0. */
#define CUSTOM_ERROR(code) ((u64)(u32)(code))

/**
 * A 32-byte address. 8-byte aligned, as the runtime serializes every account key and owner (and as our
 * account layouts place them), so comparing and copying one is four u64 operations instead of 32 byte
 * operations. SBPF allows unaligned access, so the one unaligned place (the program id after the
 * instruction data) still reads correctly.
 */
typedef struct {
  u8 x[32];
} __attribute__((aligned(8))) SolPubkey;

/** One account as the runtime serialized it. Pointers point into the input buffer (zero copy). */
typedef struct {
  SolPubkey *key;
  u64 *lamports;
  u64 data_len;
  u8 *data;
  SolPubkey *owner;
  u64 rent_epoch;
  bool is_signer;
  bool is_writable;
  bool executable;
} SolAccountInfo;

typedef struct {
  const SolPubkey *pubkey;
  bool is_writable;
  bool is_signer;
} SolAccountMeta;

typedef struct {
  const SolPubkey *program_id;
  const SolAccountMeta *accounts;
  u64 account_len;
  const u8 *data;
  u64 data_len;
} SolInstruction;

/** A byte slice: syscalls that hash or log several slices take arrays of these. */
typedef struct {
  const u8 *addr;
  u64 len;
} SolBytes;

typedef struct {
  const u8 *addr;
  u64 len;
} SolSignerSeed;

typedef struct {
  const SolSignerSeed *addr;
  u64 len;
} SolSignerSeeds;

typedef struct {
  u64 slot;
  i64 epoch_start_timestamp;
  u64 epoch;
  u64 leader_schedule_epoch;
  i64 unix_timestamp;
} SolClock;
