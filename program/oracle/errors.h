// errors.h: every refusal of the oracle program, by name. Numbers are stable (Anchor's custom range
// starts at 6000); never reorder or reuse one. The Codama IDL lists the same names and codes.
#pragma once
#include <sol.h>

#define ORACLE_ERROR(code) CUSTOM_ERROR(code)

#define ERR_INVALID_INSTRUCTION ORACLE_ERROR(6000)        // unknown discriminator or malformed data
#define ERR_MISSING_ACCOUNTS ORACLE_ERROR(6001)           // fewer accounts than the instruction needs
#define ERR_MISSING_SIGNATURE ORACLE_ERROR(6002)          // a required signer did not sign
#define ERR_ACCOUNT_NOT_WRITABLE ORACLE_ERROR(6003)       // an account that is written was passed read-only
#define ERR_INVALID_SYSTEM_PROGRAM ORACLE_ERROR(6004)     // the System program account is not the System program
#define ERR_INVALID_NETWORK_STATE ORACLE_ERROR(6005)      // not this program's network configuration PDA
#define ERR_NETWORK_ALREADY_INITIALIZED ORACLE_ERROR(6006) // init_network on an existing configuration
#define ERR_NOT_UPGRADE_AUTHORITY ORACLE_ERROR(6007)      // init_network not signed by the program's upgrade authority
#define ERR_INVALID_AUTHORITIES ORACLE_ERROR(6008)        // zero, too many, or a zero fulfilment authority
#define ERR_INVALID_TREASURY ORACLE_ERROR(6009)           // treasury differs from the configured one
#define ERR_ZERO_SEED ORACLE_ERROR(6010)                  // request_v2 with an all-zero seed
#define ERR_INVALID_REQUEST_ACCOUNT ORACLE_ERROR(6011)    // not the request PDA of this seed
#define ERR_SEED_IN_USE ORACLE_ERROR(6012)                // a request for this seed already exists
#define ERR_INSUFFICIENT_FUNDS ORACLE_ERROR(6013)         // payer cannot cover the fee and the request's rent
#define ERR_UNAUTHORIZED_FULFILLER ORACLE_ERROR(6014)     // signer is not a fulfilment authority
#define ERR_INVALID_INSTRUCTIONS_SYSVAR ORACLE_ERROR(6015) // the Instructions sysvar account is not that sysvar
#define ERR_MISSING_SIGNATURE_VERIFICATION ORACLE_ERROR(6016) // no Ed25519 precompile instruction for (authority, seed)
#define ERR_RANDOMNESS_MISMATCH ORACLE_ERROR(6017)        // the precompile verified another signature than the randomness given
#define ERR_INVALID_REQUEST_STATE ORACLE_ERROR(6018)      // request account not owned by the oracle or not RandomnessV2
#define ERR_ALREADY_FULFILLED ORACLE_ERROR(6019)          // fulfil on a fulfilled request
#define ERR_UNSUPPORTED_RENT ORACLE_ERROR(6020)           // the Rent sysvar has an exemption threshold other than 1 or 2
#define ERR_TOO_MANY_ACCOUNTS ORACLE_ERROR(6021)          // more accounts passed than the program reads
#define ERR_TREASURY_NOT_RENT_EXEMPT ORACLE_ERROR(6022)   // the fee would leave the treasury below its rent-exempt minimum
