// sol.h: our Solana C SDK for upstream clang-19 (-target bpf -mcpu=v2) and the SBPF v0 ABI.
// Include this one header. Modules: types, syscalls, bytes, pubkey (well-known ids), input (zero-copy
// parsing), checks (owner, signer, writable, discriminator, PDA), cpi (System, SPL Token), sysvars
// (clock, rent), instructions_sysvar + ed25519 (introspection), events, math (64x64->128), token
// (SPL Token accounts and mints), slot_hashes (SlotHashes lookups), upgradeable (upgrade authority).
#pragma once
#include "sol/types.h"
#include "sol/syscalls.h"
#include "sol/bytes.h"
#include "sol/pubkey.h"
#include "sol/input.h"
#include "sol/checks.h"
#include "sol/cpi.h"
#include "sol/sysvars.h"
#include "sol/instructions_sysvar.h"
#include "sol/ed25519.h"
#include "sol/events.h"
#include "sol/math.h"
#include "sol/token.h"
#include "sol/slot_hashes.h"
#include "sol/upgradeable.h"
