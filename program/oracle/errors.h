// errors.h: every refusal of the oracle program, by name. ORAO VRF's own conditions carry ORAO's
// numbers and names (6000-6009, as the IDL in ORAO's SDK lists them), so ORAO's tools name our refusals
// right; the local oracle's other refusals follow from 6010. The Codama IDL lists the same names and codes.
#pragma once
#include <sol.h>

#define ORACLE_ERROR(code) CUSTOM_ERROR(code)

// ---- ORAO VRF's numbers and names ----------------------------------------------------------------
#define ERR_ZERO_SEED ORACLE_ERROR(6000)                     // request_v2 with an all-zero seed
#define ERR_SEED_ALREADY_IN_USE ORACLE_ERROR(6001)           // a request for this seed already exists
#define ERR_INSUFFICIENT_FUNDS ORACLE_ERROR(6002)            // payer cannot cover the fee and the request's rent
#define ERR_RANDOMNESS_VERIFICATION_FAILED ORACLE_ERROR(6003) // the precompile verified another signature than the randomness given
#define ERR_SERIALIZATION_ERROR ORACLE_ERROR(6004)                 // ORAO's; never raised here (reserved)
#define ERR_UNAUTHORIZED_FULFILLMENT_AUTHORITY ORACLE_ERROR(6005) // signer (or precompile key) is not a fulfilment authority
#define ERR_INVALID_FULFILL_MESSAGE ORACLE_ERROR(6006)       // an authority's precompile signature is over another message than the seed
#define ERR_MISSING_ED25519_SIG_VERIFY_INSTRUCTION ORACLE_ERROR(6007) // no Ed25519 precompile instruction for (authority, seed)
#define ERR_RANDOMNESS_COMBINATION_FAILED ORACLE_ERROR(6008) // ORAO's; never raised here (one signature fulfils)
#define ERR_UNKNOWN_TREASURY_GIVEN ORACLE_ERROR(6009)        // treasury differs from the configured one

// ---- The local oracle's own ------------------------------------------------------------------------
#define ERR_INVALID_INSTRUCTION ORACLE_ERROR(6010)           // unknown discriminator or malformed data
#define ERR_MISSING_ACCOUNTS ORACLE_ERROR(6011)              // fewer accounts than the instruction needs
#define ERR_MISSING_SIGNATURE ORACLE_ERROR(6012)             // a required signer did not sign
#define ERR_ACCOUNT_NOT_WRITABLE ORACLE_ERROR(6013)          // an account that is written was passed read-only
#define ERR_INVALID_SYSTEM_PROGRAM ORACLE_ERROR(6014)        // the System program account is not the System program
#define ERR_INVALID_NETWORK_STATE ORACLE_ERROR(6015)         // not this program's network configuration PDA
#define ERR_NETWORK_ALREADY_INITIALIZED ORACLE_ERROR(6016)   // init_network on an existing configuration
#define ERR_NOT_UPGRADE_AUTHORITY ORACLE_ERROR(6017)         // init_network not signed by the program's upgrade authority
#define ERR_INVALID_AUTHORITIES ORACLE_ERROR(6018)           // zero, too many, or a zero fulfilment authority
#define ERR_INVALID_REQUEST_ACCOUNT ORACLE_ERROR(6019)       // not the request PDA of this seed
#define ERR_INVALID_INSTRUCTIONS_SYSVAR ORACLE_ERROR(6020)   // the Instructions sysvar account is not that sysvar
#define ERR_INVALID_REQUEST_STATE ORACLE_ERROR(6021)         // request account not owned by the oracle or not RandomnessV2
#define ERR_ALREADY_FULFILLED ORACLE_ERROR(6022)             // fulfil on a fulfilled request
#define ERR_UNSUPPORTED_RENT ORACLE_ERROR(6023)              // the Rent sysvar has an exemption threshold other than 1 or 2
#define ERR_TOO_MANY_ACCOUNTS ORACLE_ERROR(6024)             // more accounts passed than the program reads
#define ERR_TREASURY_NOT_RENT_EXEMPT ORACLE_ERROR(6025)      // the fee would leave the treasury below its rent-exempt minimum
#define ERR_INVALID_CLIENT ORACLE_ERROR(6026)                // fulfill_v2's client is not the request's client
