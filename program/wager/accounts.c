// accounts.c: the loaders every instruction uses, and the small steps several instructions share.
//
// Why owner + discriminator identify config, pool, paytables and wagers without re-deriving their
// address: only this program writes data into accounts it owns, and it writes each discriminator only
// into an account it creates at that type's PDA. A second hash would cost ~1 500 CU and add no safety.
// Accounts this program does not own (the wager's fee account, token accounts) are checked by address,
// against the address stored when the program created them.
#include "wager.h"

static ProgramResult load_typed(const SolAccountInfo *a, const SolPubkey *program_id, const u8 disc[8], u64 size,
                                ProgramResult error, void **out) {
  if (!sol_is_owned_by(a, program_id)) return error;
  if (a->data_len != size || !sol_has_discriminator(a, disc, size)) return error;
  *out = a->data;
  return SUCCESS;
}

ProgramResult load_config(const SolAccountInfo *a, const SolPubkey *program_id, Config **out) {
  const u8 disc[8] = CONFIG_DISCRIMINATOR;
  return load_typed(a, program_id, disc, sizeof(Config), ERR_INVALID_CONFIG, (void **)out);
}

ProgramResult load_pool(const SolAccountInfo *a, const SolPubkey *program_id, Pool **out) {
  const u8 disc[8] = POOL_DISCRIMINATOR;
  return load_typed(a, program_id, disc, sizeof(Pool), ERR_INVALID_POOL, (void **)out);
}

ProgramResult load_paytable(const SolAccountInfo *a, const SolPubkey *program_id, Paytable **out) {
  const u8 disc[8] = PAYTABLE_DISCRIMINATOR;
  return load_typed(a, program_id, disc, sizeof(Paytable), ERR_INVALID_PAYTABLE, (void **)out);
}

ProgramResult load_wager(const SolAccountInfo *a, const SolPubkey *program_id, Wager **out) {
  const u8 disc[8] = WAGER_DISCRIMINATOR;
  return load_typed(a, program_id, disc, sizeof(Wager), ERR_INVALID_WAGER, (void **)out);
}

void pool_signer(PoolSigner *s, const Pool *pool) {
  s->bump = pool->bump;
  s->seeds[0] = (SolSignerSeed){(const u8 *)SEED_POOL, sizeof(SEED_POOL) - 1};
  s->seeds[1] = (SolSignerSeed){&s->bump, 1};
  s->list = (SolSignerSeeds){s->seeds, 2};
  s->signers = (SolSigners){&s->list, 1};
}

ProgramResult debit_program_account(SolAccountInfo *from, SolAccountInfo *to, u64 lamports) {
  if (*from->lamports < lamports) return ERR_INSUFFICIENT_FUNDS;
  u64 credited;
  if (!sol_add_checked(*to->lamports, lamports, &credited)) return ERR_ARITHMETIC_OVERFLOW;
  *from->lamports -= lamports;
  *to->lamports = credited;
  return SUCCESS;
}

ProgramResult close_program_account(SolAccountInfo *account, SolAccountInfo *to) {
  // Zeroed, 0 bytes long and System-owned: if lamports are sent back within the same transaction, the
  // address is a plain System account again, neither a revived wager nor a zombie that blocks its PDA.
  // The aligned loader reads the new length from the u64 just before the data (shrinking is always
  // allowed) and the new owner from the owner field; it lets the owner give away an account whose data
  // is all zero (here: empty).
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;
  sol_zero(account->data, account->data_len);
  sol_write_u64(account->data - 8, 0);
  account->data_len = 0;
  *(SolPubkey *)account->owner = system_id;
  return debit_program_account(account, to, *account->lamports);
}

void wager_fees_signer(WagerFeesSigner *s, const SolAccountInfo *wager_account, u8 bump) {
  s->bump = bump;
  s->seeds[0] = (SolSignerSeed){(const u8 *)SEED_WAGER_FEES, sizeof(SEED_WAGER_FEES) - 1};
  s->seeds[1] = (SolSignerSeed){wager_account->key->x, 32};
  s->seeds[2] = (SolSignerSeed){&s->bump, 1};
  s->list = (SolSignerSeeds){s->seeds, 3};
  s->signers = (SolSigners){&s->list, 1};
}

ProgramResult pay_from_wager_fees(SolAccountInfo *fees, SolAccountInfo *to, SolAccountInfo *system_program,
                                  const WagerFeesSigner *signer, u64 lamports) {
  if (lamports == 0) return SUCCESS;
  return sol_system_transfer(fees, to, system_program, lamports, &signer->signers);
}

ProgramResult release_wager(Pool *pool, const Wager *w) {
  if (pool->open_stakes < w->stake || pool->locked_liability < w->max_payout || pool->open_wagers[w->epoch & 1] == 0)
    return ERR_ARITHMETIC_OVERFLOW;
  pool->open_stakes -= w->stake;
  pool->locked_liability -= w->max_payout;
  pool->open_wagers[w->epoch & 1] -= 1;
  return SUCCESS;
}

ProgramResult book_outcome(Pool *pool, const Wager *w, u64 payout) {
  u64 liquidity;
  // The pool receives the stake and pays the payout (the cap at open guarantees it can).
  if (!sol_add_checked(pool->liquidity, w->stake, &liquidity) || liquidity < payout) return ERR_ARITHMETIC_OVERFLOW;
  if (w->epoch != pool->epoch) { // opened after the live epoch's close (see Pool)
    if (!sol_add_checked(pool->post_close_credits, w->stake, &pool->post_close_credits) ||
        !sol_add_checked(pool->post_close_debits, payout, &pool->post_close_debits))
      return ERR_ARITHMETIC_OVERFLOW;
  }
  pool->liquidity = liquidity - payout;
  return SUCCESS;
}

ProgramResult create_account_at_pda(SolCreateAccount *c) {
  if (!sol_rent_exempt_minimum(c->space, &c->lamports)) return ERR_UNSUPPORTED_RENT;
  if (*c->payer->lamports < c->lamports) return ERR_INSUFFICIENT_FUNDS;
  return sol_create_pda_account(c);
}
