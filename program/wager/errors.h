// errors.h: every refusal of the wager program, by name. Numbers are stable (Anchor's custom range
// starts at 6000); never reorder or reuse one. The Codama IDL lists the same names and codes.
#pragma once
#include <sol.h>

#define ERR_INVALID_INSTRUCTION CUSTOM_ERROR(6000)      // unknown discriminator or malformed data
#define ERR_MISSING_ACCOUNTS CUSTOM_ERROR(6001)         // a different number of accounts than the instruction takes
#define ERR_TOO_MANY_ACCOUNTS CUSTOM_ERROR(6002)        // more accounts than the program parses
#define ERR_MISSING_SIGNATURE CUSTOM_ERROR(6003)        // a required signer did not sign
#define ERR_ACCOUNT_NOT_WRITABLE CUSTOM_ERROR(6004)     // an account the instruction writes was passed read-only
#define ERR_INVALID_SYSTEM_PROGRAM CUSTOM_ERROR(6005)   // not the System program
#define ERR_INVALID_TOKEN_PROGRAM CUSTOM_ERROR(6006)    // not the SPL Token program
#define ERR_INVALID_CONFIG CUSTOM_ERROR(6007)           // not this program's config (owner, type or address)
#define ERR_INVALID_POOL CUSTOM_ERROR(6008)             // not this program's pool
#define ERR_INVALID_PAYTABLE CUSTOM_ERROR(6009)         // not one of this program's paytables, or not the wager's
#define ERR_INVALID_WAGER CUSTOM_ERROR(6010)            // not one of this program's wagers
#define ERR_ALREADY_INITIALIZED CUSTOM_ERROR(6011)      // the account to create already exists
#define ERR_UNAUTHORIZED CUSTOM_ERROR(6012)             // signer is not the admin, guardian or upgrade authority
#define ERR_PAUSED CUSTOM_ERROR(6013)                   // new wagers are paused by the guardian
#define ERR_PER_WAGER_CAP CUSTOM_ERROR(6014)            // the pool's free liquidity cannot back the max payout under the cap
#define ERR_INVALID_STAKE CUSTOM_ERROR(6015)            // zero stake, or a max payout that overflows
#define ERR_INVALID_MINT CUSTOM_ERROR(6016)             // a token account or mint of the wrong mint
#define ERR_INVALID_BENEFICIARY CUSTOM_ERROR(6017)      // open_wager: the beneficiary is not a USDC token account
#define ERR_INVALID_VAULT CUSTOM_ERROR(6018)            // not the pool's vault, escrow, share mint or share escrow
#define ERR_INVALID_WAGER_ADDRESS CUSTOM_ERROR(6019)    // wager or fee account is not the expected PDA
#define ERR_WAGER_EXISTS CUSTOM_ERROR(6020)             // a wager with this authority and nonce is open
#define ERR_INVALID_ORACLE_PROGRAM CUSTOM_ERROR(6021)   // not the oracle program in the config
#define ERR_INVALID_ORACLE_ACCOUNT CUSTOM_ERROR(6022)   // oracle network state or request account is not the expected one
#define ERR_TOO_EARLY CUSTOM_ERROR(6023)                // request_randomness before open_slot + 2
#define ERR_REQUEST_WINDOW_CLOSED CUSTOM_ERROR(6024)    // request_randomness after open_slot + T_SETTLE
#define ERR_INVALID_SLOT_HASH CUSTOM_ERROR(6025)        // s* is not the first SlotHashes entry after the open, or h* is not its hash
#define ERR_INVALID_WAGER_STATUS CUSTOM_ERROR(6026)     // the wager is not in the status this step needs
#define ERR_NOT_FULFILLED CUSTOM_ERROR(6027)            // settle_wager before the oracle fulfilled
#define ERR_ALREADY_FULFILLED CUSTOM_ERROR(6028)        // expire_wager after the randomness arrived
#define ERR_NOT_EXPIRED CUSTOM_ERROR(6029)              // expire_wager at or before open_slot + T_SETTLE
#define ERR_WRONG_PAYER CUSTOM_ERROR(6030)              // the refund account is not the wager's payer
#define ERR_WRONG_BENEFICIARY CUSTOM_ERROR(6031)        // the beneficiary is not the wager's beneficiary
#define ERR_BENEFICIARY_CANNOT_RECEIVE CUSTOM_ERROR(6032) // claim_payout while the beneficiary still cannot receive
#define ERR_INVALID_PAYTABLE_DEFINITION CUSTOM_ERROR(6033) // bucket count, zero weight, multiplier bound, top multiplier < 1x or house edge
#define ERR_ARITHMETIC_OVERFLOW CUSTOM_ERROR(6034)      // an amount would overflow or underflow
#define ERR_INSUFFICIENT_FUNDS CUSTOM_ERROR(6035)       // the payer cannot fund what the step prepays
#define ERR_EPOCH_NOT_CLOSED CUSTOM_ERROR(6036)         // strike_epoch at or before the epoch's close slot
#define ERR_EPOCH_HAS_OPEN_WAGERS CUSTOM_ERROR(6037)    // strike_epoch while a wager opened before the close is open
#define ERR_EPOCH_NOT_STRUCK CUSTOM_ERROR(6038)         // claim before the request's epoch was struck
#define ERR_INVALID_EPOCH_RECORD CUSTOM_ERROR(6039)     // not the record of the epoch concerned
#define ERR_INVALID_LIQUIDITY_REQUEST CUSTOM_ERROR(6040) // not a deposit / withdraw request of this owner
#define ERR_INSUFFICIENT_FREE_LIQUIDITY CUSTOM_ERROR(6041) // withdrawal larger than the liquidity not backing open wagers
#define ERR_INVALID_AMOUNT CUSTOM_ERROR(6042)           // zero deposit or zero shares
#define ERR_UNSUPPORTED_RENT CUSTOM_ERROR(6043)         // the Rent sysvar has an exemption threshold other than 1 or 2
#define ERR_INVALID_CONFIG_VALUES CUSTOM_ERROR(6044)    // initialize: a cap, edge, length or size out of range
#define ERR_DUPLICATE_ACCOUNT CUSTOM_ERROR(6045)        // one account passed in two roles that must differ
#define ERR_ORACLE_REQUEST_IN_USE CUSTOM_ERROR(6046)    // the oracle request PDA holds something other than this seed's oracle request (RandomnessV2 or legacy Randomness)
#define ERR_EPOCH_CLOSED CUSTOM_ERROR(6047)             // a liquidity request after the live epoch's close: request again after strike_epoch
