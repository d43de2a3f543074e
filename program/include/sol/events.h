// sol/events.h: events as Anchor emits them, so explorers and IDL tools decode them: one `sol_log_data`
// slice holding sha256("event:<Name>")[..8] followed by the event's little-endian fields.
#pragma once
#include "syscalls.h"

/** Emits an event; `event` starts with its 8-byte discriminator. Shows as "Program data: <base64>". */
static inline void sol_emit_event(const void *event, u64 len) {
  const SolBytes slice = {(const u8 *)event, len};
  sol_log_data(&slice, 1);
}
