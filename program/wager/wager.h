// wager.h: accounts, seeds, discriminators and limits of the wager program. Account structs are the
// exact byte layouts (no implicit padding; sizes asserted) viewed in place over account data, after the
// loaders in accounts.c have checked owner, size and discriminator (accounts.c says why that suffices).
// Discriminators are Anchor's: sha256("global:<ix>")[..8], sha256("account:<Name>")[..8],
// sha256("event:<Name>")[..8].
#pragma once
#include <sol.h>
#include "errors.h"

// ---- Limits --------------------------------------------------------------------------------------
#define BPS 10000ULL
#define PAYTABLE_MAX_BUCKETS 32
#define PAYTABLE_NAME_SIZE 32
#define MAX_MULTIPLIER_BPS_LIMIT 100000000U // 10 000x: the bound create_paytable accepts at most
#define T_SETTLE_MIN 3               // request needs open+2 at the earliest, so at least one slot to request in
#define T_SETTLE_MAX 10000           // ~1 hour: a stake is never locked longer waiting for randomness
#define WAGER_MAX_ACCOUNTS 16

// ---- PDA seeds -----------------------------------------------------------------------------------
#define SEED_CONFIG "config"
#define SEED_POOL "pool"
#define SEED_VAULT "vault"
#define SEED_ESCROW "escrow"
#define SEED_SHARE_MINT "share-mint"
#define SEED_SHARE_ESCROW "share-escrow"
#define SEED_PAYTABLE "paytable"        // + name (32 bytes, zero padded)
#define SEED_WAGER "wager"              // + integrator authority + nonce (u64 LE)
#define SEED_WAGER_FEES "wager-fees"    // + wager
#define SEED_DEPOSIT "deposit"          // + owner + epoch (u64 LE)
#define SEED_WITHDRAW "withdraw"        // + owner + epoch (u64 LE)
#define SEED_EPOCH "epoch"              // + epoch (u64 LE)
#define SEED_ORACLE_NETWORK "orao-vrf-network-configuration"
#define SEED_ORACLE_REQUEST "orao-vrf-randomness-request"
#define ORACLE_SEED_TAG "SVC/ORACLE-SEED/v1"

// ---- Discriminators -------------------------------------------------------------------------------
#define IX_INITIALIZE {175, 175, 109, 31, 13, 152, 155, 237}
#define IX_SET_GUARDIAN {147, 243, 50, 121, 154, 164, 50, 30}
#define IX_SET_PAUSED {91, 60, 125, 192, 176, 225, 166, 218}
#define IX_CREATE_PAYTABLE {196, 112, 75, 186, 38, 112, 198, 16}
#define IX_OPEN_WAGER {162, 239, 162, 130, 22, 133, 143, 161}
#define IX_REQUEST_RANDOMNESS {213, 5, 173, 166, 37, 236, 31, 18}
#define IX_SETTLE_WAGER {161, 242, 169, 152, 172, 163, 161, 104}
#define IX_EXPIRE_WAGER {87, 39, 60, 122, 12, 118, 126, 75}
#define IX_CLAIM_PAYOUT {127, 240, 132, 62, 227, 198, 146, 133}
#define IX_REQUEST_DEPOSIT {243, 202, 197, 215, 135, 97, 213, 109}
#define IX_REQUEST_WITHDRAW {137, 95, 187, 96, 250, 138, 31, 182}
#define IX_STRIKE_EPOCH {142, 118, 147, 245, 251, 183, 34, 93}
#define IX_CLAIM_DEPOSIT {201, 106, 1, 224, 122, 144, 210, 155}
#define IX_CLAIM_WITHDRAW {232, 89, 154, 117, 16, 204, 182, 224}

#define CONFIG_DISCRIMINATOR {155, 12, 170, 224, 30, 250, 204, 130}
#define POOL_DISCRIMINATOR {241, 154, 109, 4, 17, 177, 109, 188}
#define PAYTABLE_DISCRIMINATOR {80, 180, 163, 196, 96, 159, 240, 111}
#define WAGER_DISCRIMINATOR {3, 110, 53, 190, 113, 31, 230, 40}
#define DEPOSIT_REQUEST_DISCRIMINATOR {86, 27, 56, 8, 25, 62, 62, 243}
#define WITHDRAW_REQUEST_DISCRIMINATOR {186, 239, 174, 191, 189, 13, 47, 196}
#define EPOCH_RECORD_DISCRIMINATOR {193, 72, 26, 28, 161, 98, 58, 132}
// ORAO VRF v2 (and the local oracle): NetworkState and RandomnessV2 accounts; ORAO's legacy (v1)
// Randomness account, which its deprecated `request` still creates at the same PDA (oracle_request.c).
#define ORACLE_NETWORK_STATE_DISCRIMINATOR {212, 237, 148, 56, 97, 245, 51, 169}
#define ORACLE_RANDOMNESS_DISCRIMINATOR {139, 239, 184, 215, 227, 86, 191, 226}
#define ORACLE_REQUEST_V2_DISCRIMINATOR {38, 151, 209, 6, 195, 102, 28, 217}
#define ORACLE_NETWORK_TREASURY_OFFSET 40
#define ORACLE_NETWORK_FEE_OFFSET 72
#define ORACLE_RANDOMNESS_VARIANT_OFFSET 8
#define ORACLE_RANDOMNESS_SEED_OFFSET 41
#define ORACLE_RANDOMNESS_VALUE_OFFSET 73
#define ORACLE_RANDOMNESS_FULFILLED 1
#define ORACLE_LEGACY_RANDOMNESS_DISCRIMINATOR {188, 96, 216, 248, 93, 94, 49, 112}
#define ORACLE_LEGACY_SEED_OFFSET 8
#define ORACLE_LEGACY_VALUE_OFFSET 40   // 64 bytes, all zero until fulfilled

#define EVENT_WAGER_OPENED {69, 93, 14, 232, 77, 79, 50, 130}
#define EVENT_WAGER_RANDOMNESS_REQUESTED {47, 121, 141, 191, 40, 214, 115, 105}
#define EVENT_WAGER_SETTLED {180, 216, 101, 152, 154, 154, 136, 153}
#define EVENT_WAGER_EXPIRED {149, 156, 140, 134, 209, 167, 171, 62}
#define EVENT_PAYOUT_CLAIMED {200, 39, 105, 112, 116, 63, 58, 149}
#define EVENT_DEPOSIT_REQUESTED {35, 33, 229, 138, 116, 238, 192, 22}
#define EVENT_WITHDRAW_REQUESTED {114, 16, 240, 206, 93, 128, 151, 39}
#define EVENT_EPOCH_STRUCK {104, 123, 204, 144, 191, 189, 72, 242}
#define EVENT_DEPOSIT_CLAIMED {119, 147, 244, 76, 141, 103, 170, 176}
#define EVENT_WITHDRAW_CLAIMED {77, 130, 89, 38, 239, 172, 174, 85}

// ---- Accounts -------------------------------------------------------------------------------------

/** Config, PDA ["config"]: who administers, what is charged, and the bounds every paytable and wager obey. */
typedef struct {
  u8 discriminator[8];
  SolPubkey admin;             // creates paytables, sets the guardian
  SolPubkey guardian;          // pauses and unpauses new wagers
  SolPubkey usdc_mint;         // the stake and payout mint
  SolPubkey oracle_program;    // ORAO VRF on public clusters, the local oracle locally
  u64 request_fee;             // lamports to the caller of request_randomness (50 000)
  u64 settle_fee;              // lamports to the caller of settle_wager (200 000)
  u64 expire_fee;              // lamports to the caller of expire_wager (200 000)
  u64 liquidity_fee;           // lamports to the caller of strike_epoch, claim_deposit, claim_withdraw
  u64 t_settle;                // slots a wager waits for randomness (150)
  u64 epoch_length;            // slots between liquidity epoch closes
  u64 oracle_request_size;     // bytes of the oracle's request account: its rent is prefunded at open
  u16 per_wager_cap_bps;       // a wager's max payout <= this share of free liquidity
  u16 house_edge_bps;          // every paytable's expected return <= 1 - this
  u32 max_multiplier_bps;      // every bucket's multiplier <= this
  u8 paused;
  u8 bump;
  u8 padding[6];
} Config;
_Static_assert(sizeof(Config) == 208, "Config layout");

/** Pool, PDA ["pool"]: the liquidity and its obligations, all in USDC base units. */
typedef struct {
  u8 discriminator[8];
  SolPubkey vault;             // USDC token account PDA ["vault"], authority: the pool
  SolPubkey escrow;            // USDC token account PDA ["escrow"]: parked payouts
  SolPubkey share_mint;        // LP share mint PDA ["share-mint"], authority: the pool
  SolPubkey share_escrow;      // share token account PDA ["share-escrow"]: shares awaiting withdrawal
  u64 liquidity;               // USDC owned by the LPs (their shares' worth)
  u64 open_stakes;             // stakes of open wagers (in the vault, not yet the LPs')
  u64 locked_liability;        // sum of open wagers' max payouts
  u64 pending_payouts;         // payouts parked in the escrow
  u64 pending_deposits;        // USDC of deposit requests of the live epoch (in the vault)
  u64 pending_withdraw_shares; // shares of withdraw requests of the live epoch (in the share escrow)
  u64 owed_withdrawals;        // USDC of struck withdrawals not yet claimed (in the vault)
  u64 total_shares;            // shares outstanding, counting struck deposits not yet minted
  u64 epoch;                   // the live epoch: requests made now are struck with it
  u64 epoch_close_slot;        // strike_epoch is allowed after this slot
  u64 open_wagers[2];          // open wagers by the parity of the epoch they were opened in
  u8 bump;
  u8 live_epoch_has_record;    // 1 once a request of the live epoch created its EpochRecord
  u8 padding[6];
  // Outcomes of wagers opened after the live epoch's close (w->epoch == epoch + 1) that closed before
  // its strike. Already in `liquidity`; strike_epoch takes them back out of the price it fixes, so the
  // price does not depend on whether such a wager settled before or after the strike. Reset by the strike.
  u64 post_close_credits;      // their stakes (kept by the pool on expiry or settlement)
  u64 post_close_debits;       // their payouts
} Pool;
_Static_assert(sizeof(Pool) == 256, "Pool layout");

typedef struct {
  u32 weight;                  // > 0
  u32 multiplier_bps;          // payout = stake * multiplier_bps / 10 000
} Bucket;

/** Paytable, PDA ["paytable", name]: named, checked at creation, immutable. */
typedef struct {
  u8 discriminator[8];
  u8 name[PAYTABLE_NAME_SIZE]; // UTF-8, zero padded
  u64 total_weight;
  u32 max_multiplier_bps;
  u8 bucket_count;
  u8 bump;
  u8 padding[2];
  Bucket buckets[PAYTABLE_MAX_BUCKETS];
} Paytable;
_Static_assert(sizeof(Paytable) == 312, "Paytable layout");

#define WAGER_STATUS_OPEN 1
#define WAGER_STATUS_REQUESTED 2
#define WAGER_STATUS_PAYOUT_PENDING 3

/** Wager, PDA ["wager", integrator_authority, nonce]. Closed by settlement (or claim) and by expiry. */
typedef struct {
  u8 discriminator[8];
  u8 status;
  u8 bump;
  u8 fees_bump;                // bump of the fee account PDA ["wager-fees", wager]
  u8 bucket;                   // drawn bucket, once settled
  u8 padding[4];
  u64 nonce;
  u64 open_slot;
  u64 expiry_slot;             // open_slot + T_SETTLE
  u64 stake;
  u64 max_payout;
  u64 payout;                  // once settled
  u64 epoch;                   // liquidity epoch the wager was opened in
  u64 prefund;                 // lamports moved into the fee account at open
  SolPubkey beneficiary;       // USDC token account receiving the payout
  SolPubkey payer;             // paid the prefund and rent; gets the unspent part back
  SolPubkey stake_owner;
  SolPubkey integrator_authority;
  SolPubkey paytable;
  SolPubkey fee_account;       // PDA ["wager-fees", wager]: system-owned, holds the prefund
  SolPubkey oracle_request;    // once requested
  u8 seed[32];                 // once requested
} Wager;
_Static_assert(sizeof(Wager) == 336, "Wager layout");

/** DepositRequest / WithdrawRequest, PDA ["deposit" | "withdraw", owner, epoch]. */
typedef struct {
  u8 discriminator[8];
  SolPubkey owner;
  u64 epoch;
  u64 amount;                  // USDC (deposit) or shares (withdraw)
  u8 bump;
  u8 padding[7];
} LiquidityRequest;
_Static_assert(sizeof(LiquidityRequest) == 64, "LiquidityRequest layout");

/** EpochRecord, PDA ["epoch", epoch]: the pool's liquidity and shares when the epoch was struck. */
typedef struct {
  u8 discriminator[8];
  u64 epoch;
  u64 liquidity;
  u64 shares;
  u8 struck;
  u8 bump;
  u8 padding[6];
} EpochRecord;
_Static_assert(sizeof(EpochRecord) == 40, "EpochRecord layout");

// ---- Loaders (accounts.c): each checks owner, size, discriminator and address, then views in place -----
ProgramResult load_config(const SolAccountInfo *a, const SolPubkey *program_id, Config **out);
ProgramResult load_pool(const SolAccountInfo *a, const SolPubkey *program_id, Pool **out);
ProgramResult load_paytable(const SolAccountInfo *a, const SolPubkey *program_id, Paytable **out);
ProgramResult load_wager(const SolAccountInfo *a, const SolPubkey *program_id, Wager **out);

// ---- Shared steps ------------------------------------------------------------------------------------
/** Pool PDA signer seeds (the vault, escrow and share accounts' authority). */
typedef struct {
  u8 bump;
  SolSignerSeed seeds[2];
  SolSignerSeeds list;
  SolSigners signers;
} PoolSigner;
void pool_signer(PoolSigner *s, const Pool *pool);

/** Moves `lamports` out of a program-owned account (no CPI needed: the program owns it). */
ProgramResult debit_program_account(SolAccountInfo *from, SolAccountInfo *to, u64 lamports);
/** Closes a program-owned account: zeroes and shrinks its data to 0 bytes, gives it to the System program
 *  and moves every lamport to `to`. Must be the instruction's last step touching the account (no CPI after). */
ProgramResult close_program_account(SolAccountInfo *account, SolAccountInfo *to);
/** Signer seeds of a wager's fee account PDA ["wager-fees", wager, bump]. */
typedef struct {
  u8 bump;
  SolSignerSeed seeds[3];
  SolSignerSeeds list;
  SolSigners signers;
} WagerFeesSigner;
void wager_fees_signer(WagerFeesSigner *s, const SolAccountInfo *wager_account, u8 bump);
/** Pays `lamports` from a wager's fee account (system-owned PDA) by a signed System transfer. */
ProgramResult pay_from_wager_fees(SolAccountInfo *fees, SolAccountInfo *to, SolAccountInfo *system_program,
                                  const WagerFeesSigner *signer, u64 lamports);
/** Creates `c->account` at its PDA (seeds in `c->signers`) with rent-exempt lamports from `c->payer`. */
ProgramResult create_account_at_pda(SolCreateAccount *c);
/** What every liquidity request step works on (see liquidity.c). */
typedef struct {
  SolAccountInfo *owner;          // signer; pays rent and the prefunded fees
  SolAccountInfo *pool_account;
  SolAccountInfo *request;        // PDA ["deposit" | "withdraw", owner, epoch]
  SolAccountInfo *epoch_record;   // PDA ["epoch", epoch]
  SolAccountInfo *system_program;
  const SolPubkey *program_id;
  const Config *config;
  Pool *pool;
  bool deposit;
} LiquidityRequestContext;
/** Creates the live epoch's record if it has none (rent + the strike fee, paid by the owner). */
ProgramResult ensure_live_epoch_record(const LiquidityRequestContext *c);
/** Creates the owner's request for the live epoch (rent + the claim fee) or returns the existing one. */
ProgramResult load_or_create_request(const LiquidityRequestContext *c, LiquidityRequest **out);

/** The accounts of a claim: the request, its owner, and the record of its epoch. */
typedef struct {
  SolAccountInfo *request;
  SolAccountInfo *owner;
  SolAccountInfo *epoch_record;
  const SolPubkey *program_id;
  bool deposit;
} StruckRequestAccounts;
/** A struck request: checks request type and owner, and that its epoch's record is struck. */
ProgramResult load_struck_request(const StruckRequestAccounts *a, LiquidityRequest **out, EpochRecord **record_out);

/** Releases a closing wager from the pool's books (stake, locked liability, epoch open count). */
ProgramResult release_wager(Pool *pool, const Wager *w);
/** Books a closing wager's stake kept and payout paid (the latter 0 on expiry): into the liquidity, and,
 *  for a wager opened after the live epoch's close, into post_close_credits / post_close_debits too. */
ProgramResult book_outcome(Pool *pool, const Wager *w, u64 payout);
/** True when `request` is an oracle request for `seed`: owned by `oracle_program`, a RandomnessV2 or a
 *  legacy Randomness holding `seed` (oracle_request.c). Then `*randomness` is its 64 bytes once fulfilled,
 *  NULL while pending. The caller has checked the address (the oracle PDA of `seed`, or the stored one). */
bool read_oracle_request(const SolAccountInfo *request, const SolPubkey *oracle_program, const u8 seed[32],
                         const u8 **randomness);
/** The bucket drawn from 64 bytes of randomness by cumulative weight (see draw.c). */
u8 draw_bucket(const Paytable *paytable, const u8 randomness[64]);

// ---- Instructions (one file each) --------------------------------------------------------------------
ProgramResult initialize(SolInput *in);
ProgramResult set_guardian(SolInput *in);
ProgramResult set_paused(SolInput *in);
ProgramResult create_paytable(SolInput *in);
ProgramResult open_wager(SolInput *in);
ProgramResult request_randomness(SolInput *in);
ProgramResult settle_wager(SolInput *in);
ProgramResult expire_wager(SolInput *in);
ProgramResult claim_payout(SolInput *in);
ProgramResult request_deposit(SolInput *in);
ProgramResult request_withdraw(SolInput *in);
ProgramResult strike_epoch(SolInput *in);
ProgramResult claim_deposit(SolInput *in);
ProgramResult claim_withdraw(SolInput *in);
