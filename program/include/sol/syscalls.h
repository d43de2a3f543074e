// sol/syscalls.h: the Agave syscalls our programs use. The loader resolves each by the murmur3 hash
// of its name; our linker refuses any name not in its list of known syscalls.
#pragma once
#include "types.h"

void sol_log_(const char *message, u64 len);
void sol_log_64_(u64 a, u64 b, u64 c, u64 d, u64 e);
void sol_log_pubkey(const SolPubkey *key);
void sol_log_compute_units_(void);
void sol_log_data(const SolBytes *slices, u64 count);
void sol_panic_(const char *file, u64 len, u64 line, u64 column);

u64 sol_sha256(const SolBytes *slices, u64 count, u8 *result);
u64 sol_create_program_address(const SolSignerSeed *seeds, u64 count, const SolPubkey *program_id,
                               SolPubkey *address);
u64 sol_try_find_program_address(const SolSignerSeed *seeds, u64 count, const SolPubkey *program_id,
                                 SolPubkey *address, u8 *bump);
u64 sol_invoke_signed_c(const SolInstruction *instruction, const SolAccountInfo *account_infos, u64 count,
                        const SolSignerSeeds *signers, u64 signer_count);

u64 sol_get_clock_sysvar(void *clock);
u64 sol_get_rent_sysvar(void *rent);
/** Reads `length` bytes at `offset` of a sysvar without passing its account (cheaper for SlotHashes). */
u64 sol_get_sysvar(const u8 *sysvar_id, u8 *result, u64 offset, u64 length);

void sol_set_return_data(const u8 *data, u64 len);
void sol_memcpy_(void *dst, const void *src, u64 n);
void sol_memmove_(void *dst, const void *src, u64 n);
void sol_memset_(void *dst, u8 value, u64 n);
void sol_memcmp_(const void *a, const void *b, u64 n, int *result);

/** Logs a string literal (no allocation, no formatting). */
#define sol_log(literal) sol_log_((literal), sizeof(literal) - 1)
