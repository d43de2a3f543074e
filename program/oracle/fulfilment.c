// fulfilment.c: what both fulfil instructions share: who may fulfil, and how a request becomes fulfilled.
#include "oracle.h"

bool oracle_is_fulfilment_authority(const SolAccountInfo *network, u32 authority_count, const u8 key[32]) {
  for (u32 i = 0; i < authority_count; i++) {
    if (sol_bytes_eq(network->data + NETWORK_AUTHORITIES_OFFSET + 32 * (u64)i, key, 32)) return true;
  }
  return false;
}

void oracle_complete_request(SolAccountInfo *request, const u8 randomness[64]) {
  request->data[RANDOMNESS_VARIANT_OFFSET] = RANDOMNESS_FULFILLED;
  __builtin_memcpy(request->data + RANDOMNESS_VALUE_OFFSET, randomness, 64);

  // ORAO's Fulfill { seed, randomness }. Who fulfilled is not in it (nor in ORAO's account layout): the
  // randomness verifies against one of the NetworkState's fulfilment authorities (verify-randomness --rpc).
  u8 event[8 + 32 + 64];
  const u8 event_disc[8] = FULFILL_EVENT_DISCRIMINATOR;
  __builtin_memcpy(event, event_disc, 8);
  __builtin_memcpy(event + 8, request->data + RANDOMNESS_SEED_OFFSET, 32);
  __builtin_memcpy(event + 40, randomness, 64);
  sol_emit_event(event, sizeof(event));
}
