// request_randomness.c: ask the oracle for this wager's randomness. Permissionless, paid from the
// prefund. Allowed from open_slot + 2 through open_slot + T_SETTLE.
//
// The seed is derived here, never supplied:
//   seed = SHA256("SVC/ORACLE-SEED/v1" || program id (32) || wager (32) || open_slot (u64 LE)
//                 || s* (u64 LE) || h* (32))
// where s* is the first slot after open_slot present in the SlotHashes sysvar and h* its hash.
//
// Seed squatting: the seed is public, so someone may have asked the oracle for it already, by ORAO's
// request_v2 or by its deprecated v1 `request` (same PDA). An oracle account for this seed at the PDA,
// RandomnessV2 or legacy Randomness, pending or fulfilled (read_oracle_request), is then taken as the
// wager's request, without the CPI; the oracle fee and request rent it did not spend stay in the fee
// account and go back to the payer when the wager closes. Anything else at the PDA is refused
// (OracleRequestInUse).
//
// Accounts:
//   0. [writable, signer] caller: receives the request fee
//   1. [] config
//   2. [writable] wager
//   3. [writable] wager_fees: the wager's fee account (pays the oracle)
//   4. [] oracle_program: the configured oracle
//   5. [writable] oracle_network_state
//   6. [writable] oracle_treasury
//   7. [writable] oracle_request: the oracle's PDA ["orao-vrf-randomness-request", seed]
//   8. [] system_program
// Data:
//   [0..8]   discriminator
//   [8..16]  s*: u64
//   [16..48] h*: [u8; 32]
//   [48]     request_bump: u8, bump of the oracle request PDA (one hash checks it instead of a search)
//   [49..51] slot_hash_index: u16, where the caller saw s* in SlotHashes (a hint; a wrong one costs only CU)
#include "wager.h"

typedef struct {
  u8 discriminator[8];
  SolPubkey wager;
  SolPubkey oracle_request;
  u8 seed[32];
  u64 s_star;
} WagerRandomnessRequestedEvent;

/** True when s* is the first SlotHashes entry after open_slot and h* is its hash. */
static bool is_first_slot_hash_after(u64 open_slot, u64 s_star, const u8 *h_star, u64 hint) {
  if (s_star <= open_slot) return false;
  u64 count = sol_slot_hashes_count();
  SolSlotHash entry;
  i64 index = sol_slot_hashes_find_from(s_star, count, hint, &entry);
  if (index < 0 || !sol_bytes_eq(entry.hash, h_star, 32)) return false;
  if (s_star == open_slot + 1) return true; // nothing can lie between
  // The next older entry must be at or before the open, else a slot between them was skipped over.
  SolSlotHash older;
  if ((u64)index + 1 >= count || !sol_slot_hashes_entry((u64)index + 1, &older)) return false;
  return older.slot <= open_slot;
}

/** `slots` holds open_slot then s*, each u64 LE (the encoding of the seed input). */
static void derive_seed(const SolPubkey *program_id, const SolPubkey *wager, const u8 slots[16], const u8 *h_star,
                        u8 seed[32]) {
  const SolBytes parts[5] = {
      {(const u8 *)ORACLE_SEED_TAG, sizeof(ORACLE_SEED_TAG) - 1}, {program_id->x, 32}, {wager->x, 32}, {slots, 16}, {h_star, 32}};
  sol_sha256(parts, 5, seed);
}

// Outcomes of oracle_request_state besides a refusal (custom errors are never these values).
#define REQUEST_ABSENT 1
#define REQUEST_ALREADY_MADE 2

/**
 * What the oracle request PDA of `seed` holds. The seed is public once s* has a hash, so anyone may ask
 * the oracle for it first (the oracle then refuses a second request for it, and the wager would expire,
 * forfeiting the stake). Such a request is as good as ours: the oracle fulfils a seed the same way
 * whoever paid, and the randomness is read from this account at settlement. So an account of the oracle
 * program holding a RandomnessV2 or a legacy Randomness for this seed is accepted as the wager's request
 * (REQUEST_ALREADY_MADE); an empty System account is still to be created (REQUEST_ABSENT); anything else
 * is refused. read_oracle_request is the same reading settle_wager and expire_wager make, so whatever is
 * accepted here can later be settled or expired. The caller has checked that `request` is the oracle's
 * PDA for `seed`.
 */
static ProgramResult oracle_request_state(const SolAccountInfo *request, const SolPubkey *oracle_program, const u8 seed[32]) {
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;
  if (sol_is_owned_by(request, &system_id) && request->data_len == 0) return REQUEST_ABSENT;
  const u8 *randomness;
  if (!read_oracle_request(request, oracle_program, seed, &randomness)) return ERR_ORACLE_REQUEST_IN_USE;
  return REQUEST_ALREADY_MADE;
}

/** CPI request_v2(seed), paid by the wager's fee account (signed with its PDA seeds). `accounts`:
 *  fees, network, treasury, request, system program, oracle program (SBF calls take 5 arguments at most). */
static ProgramResult request_v2(SolAccountInfo *const accounts[6], const u8 seed[32], const WagerFeesSigner *signer) {
  const SolAccountInfo *fees = accounts[0], *network = accounts[1], *treasury = accounts[2], *request = accounts[3];
  const SolAccountInfo *system_program = accounts[4], *oracle_program = accounts[5];
  u8 data[40];
  const u8 request_v2_disc[8] = ORACLE_REQUEST_V2_DISCRIMINATOR;
  __builtin_memcpy(data, request_v2_disc, 8);
  __builtin_memcpy(data + 8, seed, 32);
  const SolAccountMeta metas[5] = {{fees->key, true, true}, {network->key, true, false}, {treasury->key, true, false},
                                   {request->key, true, false}, {system_program->key, false, false}};
  const SolInstruction ix = {oracle_program->key, metas, 5, data, sizeof(data)};
  return sol_invoke(&ix, accounts, 6, &signer->signers);
}

ProgramResult request_randomness(SolInput *in) {
  if (in->account_count != 9) return ERR_MISSING_ACCOUNTS;
  SolAccountInfo *caller = &in->accounts[0];
  SolAccountInfo *config_account = &in->accounts[1];
  SolAccountInfo *wager_account = &in->accounts[2];
  SolAccountInfo *fees = &in->accounts[3];
  SolAccountInfo *oracle_program = &in->accounts[4];
  SolAccountInfo *network = &in->accounts[5];
  SolAccountInfo *treasury = &in->accounts[6];
  SolAccountInfo *request = &in->accounts[7];
  SolAccountInfo *system_program = &in->accounts[8];
  const SolPubkey system_id = SOL_SYSTEM_PROGRAM_ID;

  if (in->data_len != 51) return ERR_INVALID_INSTRUCTION;
  u64 s_star = sol_read_u64(in->data + 8);
  const u8 *h_star = in->data + 16;
  u8 request_bump = in->data[48];
  u64 slot_hash_index = sol_read_u16(in->data + 49);

  if (!sol_is_signer(caller)) return ERR_MISSING_SIGNATURE;
  if (!sol_is_writable(caller) || !sol_is_writable(wager_account) || !sol_is_writable(fees) ||
      !sol_is_writable(network) || !sol_is_writable(treasury) || !sol_is_writable(request))
    return ERR_ACCOUNT_NOT_WRITABLE;
  if (!sol_has_key(system_program, &system_id)) return ERR_INVALID_SYSTEM_PROGRAM;

  Config *config;
  Wager *w;
  ProgramResult r = load_config(config_account, in->program_id, &config);
  if (r == SUCCESS) r = load_wager(wager_account, in->program_id, &w);
  if (r != SUCCESS) return r;
  if (w->status != WAGER_STATUS_OPEN) return ERR_INVALID_WAGER_STATUS;
  if (!sol_has_key(fees, &w->fee_account)) return ERR_INVALID_WAGER_ADDRESS;
  if (!sol_has_key(oracle_program, &config->oracle_program)) return ERR_INVALID_ORACLE_PROGRAM;
  if (!sol_is_owned_by(network, &config->oracle_program)) return ERR_INVALID_ORACLE_ACCOUNT;

  u64 now = sol_current_slot(), earliest, latest;
  if (!sol_add_checked(w->open_slot, 2, &earliest) || !sol_add_checked(w->open_slot, config->t_settle, &latest))
    return ERR_ARITHMETIC_OVERFLOW;
  if (now < earliest) return ERR_TOO_EARLY;
  if (now > latest) return ERR_REQUEST_WINDOW_CLOSED;
  if (!is_first_slot_hash_after(w->open_slot, s_star, h_star, slot_hash_index)) return ERR_INVALID_SLOT_HASH;

  u8 seed[32], slots[16];
  sol_write_u64(slots, w->open_slot);
  sol_write_u64(slots + 8, s_star);
  derive_seed(in->program_id, wager_account->key, slots, h_star, seed);
  const SolSignerSeed request_seeds[3] = {
      {(const u8 *)SEED_ORACLE_REQUEST, sizeof(SEED_ORACLE_REQUEST) - 1}, {seed, 32}, {&request_bump, 1}};
  if (!sol_is_program_address(request->key, request_seeds, 3, &config->oracle_program)) return ERR_INVALID_ORACLE_ACCOUNT;

  WagerFeesSigner signer;
  wager_fees_signer(&signer, wager_account, w->fees_bump);
  r = oracle_request_state(request, &config->oracle_program, seed);
  if (r == REQUEST_ABSENT) {
    SolAccountInfo *const accounts[6] = {fees, network, treasury, request, system_program, oracle_program};
    r = request_v2(accounts, seed, &signer);
  }
  else if (r == REQUEST_ALREADY_MADE) r = SUCCESS; // see oracle_request_state: the oracle fee stays in the prefund
  if (r == SUCCESS) r = pay_from_wager_fees(fees, caller, system_program, &signer, config->request_fee);
  if (r != SUCCESS) return r;

  w->status = WAGER_STATUS_REQUESTED;
  w->oracle_request = *request->key;
  __builtin_memcpy(w->seed, seed, 32);

  WagerRandomnessRequestedEvent event = {EVENT_WAGER_RANDOMNESS_REQUESTED, *wager_account->key, *request->key, {0}, s_star};
  __builtin_memcpy(event.seed, seed, 32);
  sol_emit_event(&event, sizeof(event));
  return SUCCESS;
}
