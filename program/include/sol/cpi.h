// sol/cpi.h: cross-program invocations of the System and SPL Token programs, optionally signed by PDAs.
// BPF passes at most 5 arguments in registers, so helpers with more inputs take one struct.
#pragma once
#include "checks.h"

#define SOL_CPI_MAX_ACCOUNTS 8

/** The program addresses signing a CPI (each entry: the seeds including the bump). */
typedef struct {
  const SolSignerSeeds *list;
  u64 count;
} SolSigners;

/**
 * Invokes `ix` with the given accounts, signed by `signers` (NULL: no program address signs).
 * Why a copy: the runtime writes each account's new data length back into the SolAccountInfo array it
 * was given; copying the array and the lengths back keeps the caller's views current after a CPI that
 * creates or resizes an account.
 */
ProgramResult sol_invoke(const SolInstruction *ix, SolAccountInfo *const *accounts, u64 count, const SolSigners *signers);

/** Inputs of an account creation: `space` bytes owned by `owner`, `lamports` paid by `payer`. */
typedef struct {
  SolAccountInfo *payer;
  SolAccountInfo *account;
  SolAccountInfo *system_program;
  u64 lamports;
  u64 space;
  const SolPubkey *owner;
  const SolSigners *signers; // the new account's PDA seeds, when it is a program address
} SolCreateAccount;

/** System program CreateAccount (instruction 0). */
ProgramResult sol_system_create_account(const SolCreateAccount *c);

/** System program Transfer (instruction 2): `lamports` from `from` (a signer, or a PDA in `signers`). */
ProgramResult sol_system_transfer(SolAccountInfo *from, SolAccountInfo *to, SolAccountInfo *system_program, u64 lamports, const SolSigners *signers);

/** System program Allocate (instruction 8): give `account` (no data yet) `space` bytes. */
ProgramResult sol_system_allocate(SolAccountInfo *account, SolAccountInfo *system_program, u64 space, const SolSigners *signers);

/** System program Assign (instruction 1): make `owner` the owner of `account`. */
ProgramResult sol_system_assign(SolAccountInfo *account, SolAccountInfo *system_program, const SolPubkey *owner, const SolSigners *signers);

/**
 * Creates a program-owned account at a PDA even when someone sent lamports there first (which makes a
 * plain CreateAccount fail): tops it up to `lamports`, then allocates and assigns.
 */
ProgramResult sol_create_pda_account(const SolCreateAccount *c);

/** Inputs of an SPL Token instruction that moves an amount: accounts a (w), b (w), authority (signer). */
typedef struct {
  SolAccountInfo *a;
  SolAccountInfo *b;
  SolAccountInfo *authority;
  SolAccountInfo *token_program;
  u64 amount;
  const SolSigners *signers; // when the authority is a PDA
} SolTokenAmount;

#define SOL_TOKEN_TRANSFER 3
#define SOL_TOKEN_MINT_TO 7
#define SOL_TOKEN_BURN 8

ProgramResult sol_token_amount_ix(u8 tag, const SolTokenAmount *t);

/** Transfer: a = source, b = destination, authority = source owner or delegate. */
ProgramResult sol_token_transfer(const SolTokenAmount *t);
ProgramResult sol_token_mint_to(const SolTokenAmount *t);
ProgramResult sol_token_burn(const SolTokenAmount *t);