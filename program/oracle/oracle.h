// oracle.h: the local VRF oracle's accounts, instruction data and seeds. It implements the subset of
// ORAO VRF v2 the wager program uses, with ORAO's discriminators, PDA seeds and byte layouts, so the
// wager program talks to ORAO on devnet/mainnet and to this program locally without a change.
// Discriminators are Anchor's: sha256("global:<ix>")[..8] and sha256("account:<Name>")[..8].
#pragma once
#include <sol.h>
#include "errors.h"

// ---- PDA seeds ----------------------------------------------------------------------------------
#define ORACLE_NETWORK_SEED "orao-vrf-network-configuration"
#define ORACLE_REQUEST_SEED "orao-vrf-randomness-request"

// ---- NetworkState (PDA ["orao-vrf-network-configuration"]) ----------------------------------------
// [0..8]    discriminator sha256("account:NetworkState")[..8]
// [8..40]   authority: may change the configuration
// [40..72]  treasury: receives every request fee
// [72..80]  request_fee: u64 lamports
// [80..84]  n: u32 number of fulfilment authorities (1..=ORACLE_MAX_AUTHORITIES)
// [84..84+32n] fulfilment authorities
// [84+32n]  token fee config: Option tag, always 0 (None) here
// [85+32n..93+32n] num_received: u64 requests so far
// [93+32n]  bump of the PDA (after ORAO's fields; readers of ORAO's layout ignore it)
#define NETWORK_STATE_DISCRIMINATOR {212, 237, 148, 56, 97, 245, 51, 169}
#define NETWORK_AUTHORITY_OFFSET 8
#define NETWORK_TREASURY_OFFSET 40
#define NETWORK_REQUEST_FEE_OFFSET 72
#define NETWORK_AUTHORITY_COUNT_OFFSET 80
#define NETWORK_AUTHORITIES_OFFSET 84
#define ORACLE_MAX_AUTHORITIES 8
#define NETWORK_STATE_SIZE(n) (94 + 32 * (u64)(n))
#define NETWORK_NUM_RECEIVED_OFFSET(n) (85 + 32 * (u64)(n))
#define NETWORK_BUMP_OFFSET(n) (93 + 32 * (u64)(n))

// ---- RandomnessV2 request (PDA ["orao-vrf-randomness-request", seed]) -----------------------------
// [0..8]    discriminator sha256("account:RandomnessV2")[..8]
// [8]       variant: 0 Pending, 1 Fulfilled
// [9..41]   client: the payer of the request
// [41..73]  seed
// Pending:   [73..77] u32 number of partial responses, always 0 here (one authority's signature fulfils)
// Fulfilled: [73..137] randomness: the fulfilling authority's ed25519 signature over the seed
#define RANDOMNESS_DISCRIMINATOR {139, 239, 184, 215, 227, 86, 191, 226}
#define RANDOMNESS_VARIANT_OFFSET 8
#define RANDOMNESS_CLIENT_OFFSET 9
#define RANDOMNESS_SEED_OFFSET 41
#define RANDOMNESS_VALUE_OFFSET 73
#define RANDOMNESS_ACCOUNT_SIZE 137
#define RANDOMNESS_PENDING 0
#define RANDOMNESS_FULFILLED 1

// ---- Instructions ----------------------------------------------------------------------------------
#define INIT_NETWORK_DISCRIMINATOR {104, 231, 73, 121, 240, 0, 5, 148}
#define REQUEST_V2_DISCRIMINATOR {38, 151, 209, 6, 195, 102, 28, 217}
#define FULFILL_DISCRIMINATOR {143, 2, 52, 206, 174, 164, 247, 72}
#define FULFILL_V2_DISCRIMINATOR {164, 227, 237, 84, 112, 111, 147, 196}

// ---- Events: ORAO's, with Anchor's discriminators (sha256("event:<Name>")[..8]), then the fields ----
// Request { seed: [u8; 32], client: Pubkey, paid_with_spl: bool }   (paid_with_spl always false here)
// Fulfill { seed: [u8; 32], randomness: [u8; 64] }
#define REQUEST_EVENT_DISCRIMINATOR {55, 144, 56, 60, 240, 98, 131, 61}
#define FULFILL_EVENT_DISCRIMINATOR {131, 245, 200, 252, 0, 46, 144, 45}

/** How many accounts the entrypoint parses; instructions refuse transactions passing more. */
#define ORACLE_MAX_ACCOUNTS 8

ProgramResult oracle_init_network(SolInput *in);
ProgramResult oracle_request_v2(SolInput *in);
ProgramResult oracle_fulfill(SolInput *in);
ProgramResult oracle_fulfill_v2(SolInput *in);

/** True when `key` is one of the network's `authority_count` fulfilment authorities. */
bool oracle_is_fulfilment_authority(const SolAccountInfo *network, u32 authority_count, const u8 key[32]);

/** Marks a pending request fulfilled with `randomness` and emits ORAO's Fulfill event. */
void oracle_complete_request(SolAccountInfo *request, const u8 randomness[64]);

/** Loads and checks the network configuration: owner, discriminator and size (see network_state.c). */
ProgramResult oracle_load_network_state(const SolAccountInfo *network, const SolPubkey *program_id, u32 *authority_count);
