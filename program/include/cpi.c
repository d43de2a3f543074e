// cpi.c: the CPI helpers of sol/cpi.h, compiled once and linked into every program (inlined into
// each instruction file they would be copied many times over).
#include "sol.h"

ProgramResult sol_invoke(const SolInstruction *ix, SolAccountInfo *const *accounts, u64 count, const SolSigners *signers) {
  if (count > SOL_CPI_MAX_ACCOUNTS) return ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo infos[SOL_CPI_MAX_ACCOUNTS];
  for (u64 i = 0; i < count; i++) infos[i] = *accounts[i];
  ProgramResult result = signers ? sol_invoke_signed_c(ix, infos, count, signers->list, signers->count)
                                 : sol_invoke_signed_c(ix, infos, count, NULL, 0);
  for (u64 i = 0; i < count; i++) accounts[i]->data_len = infos[i].data_len;
  return result;
}

ProgramResult sol_system_create_account(const SolCreateAccount *c) {
  u8 data[52]; // u32 instruction, u64 lamports, u64 space, owner
  sol_write_u32(data, 0);
  sol_write_u64(data + 4, c->lamports);
  sol_write_u64(data + 12, c->space);
  __builtin_memcpy(data + 20, c->owner->x, 32);
  const SolAccountMeta metas[2] = {{c->payer->key, true, true}, {c->account->key, true, true}};
  const SolInstruction ix = {c->system_program->key, metas, 2, data, sizeof(data)};
  SolAccountInfo *const accounts[3] = {c->payer, c->account, c->system_program};
  return sol_invoke(&ix, accounts, 3, c->signers);
}

ProgramResult sol_system_transfer(SolAccountInfo *from, SolAccountInfo *to, SolAccountInfo *system_program, u64 lamports, const SolSigners *signers) {
  u8 data[12]; // u32 instruction, u64 lamports
  sol_write_u32(data, 2);
  sol_write_u64(data + 4, lamports);
  const SolAccountMeta metas[2] = {{from->key, true, true}, {to->key, true, false}};
  const SolInstruction ix = {system_program->key, metas, 2, data, sizeof(data)};
  SolAccountInfo *const accounts[3] = {from, to, system_program};
  return sol_invoke(&ix, accounts, 3, signers);
}

ProgramResult sol_system_allocate(SolAccountInfo *account, SolAccountInfo *system_program, u64 space, const SolSigners *signers) {
  u8 data[12]; // u32 instruction, u64 space
  sol_write_u32(data, 8);
  sol_write_u64(data + 4, space);
  const SolAccountMeta metas[1] = {{account->key, true, true}};
  const SolInstruction ix = {system_program->key, metas, 1, data, sizeof(data)};
  SolAccountInfo *const accounts[2] = {account, system_program};
  return sol_invoke(&ix, accounts, 2, signers);
}

ProgramResult sol_system_assign(SolAccountInfo *account, SolAccountInfo *system_program, const SolPubkey *owner, const SolSigners *signers) {
  u8 data[36]; // u32 instruction, owner
  sol_write_u32(data, 1);
  __builtin_memcpy(data + 4, owner->x, 32);
  const SolAccountMeta metas[1] = {{account->key, true, true}};
  const SolInstruction ix = {system_program->key, metas, 1, data, sizeof(data)};
  SolAccountInfo *const accounts[2] = {account, system_program};
  return sol_invoke(&ix, accounts, 2, signers);
}

ProgramResult sol_create_pda_account(const SolCreateAccount *c) {
  u64 existing = *c->account->lamports;
  if (existing == 0) return sol_system_create_account(c);
  ProgramResult r = SUCCESS;
  if (existing < c->lamports) r = sol_system_transfer(c->payer, c->account, c->system_program, c->lamports - existing, NULL);
  if (r == SUCCESS) r = sol_system_allocate(c->account, c->system_program, c->space, c->signers);
  if (r == SUCCESS) r = sol_system_assign(c->account, c->system_program, c->owner, c->signers);
  return r;
}

ProgramResult sol_token_amount_ix(u8 tag, const SolTokenAmount *t) {
  u8 data[9];
  data[0] = tag;
  sol_write_u64(data + 1, t->amount);
  const SolAccountMeta metas[3] = {{t->a->key, true, false}, {t->b->key, true, false}, {t->authority->key, false, true}};
  const SolInstruction ix = {t->token_program->key, metas, 3, data, sizeof(data)};
  SolAccountInfo *const accounts[4] = {t->a, t->b, t->authority, t->token_program};
  return sol_invoke(&ix, accounts, 4, t->signers);
}

ProgramResult sol_token_transfer(const SolTokenAmount *t) { return sol_token_amount_ix(SOL_TOKEN_TRANSFER, t); }
/** MintTo: a = mint, b = destination, authority = mint authority. */

ProgramResult sol_token_mint_to(const SolTokenAmount *t) { return sol_token_amount_ix(SOL_TOKEN_MINT_TO, t); }
/** Burn: a = source, b = mint, authority = source owner. */

ProgramResult sol_token_burn(const SolTokenAmount *t) { return sol_token_amount_ix(SOL_TOKEN_BURN, t); }

