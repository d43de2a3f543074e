// entrypoint.c: parse the input once and dispatch on the 8-byte instruction discriminator.
#include "oracle.h"

u64 entrypoint(const u8 *input) {
  SolAccountInfo accounts[ORACLE_MAX_ACCOUNTS];
  SolInput in = {.accounts = accounts, .capacity = ORACLE_MAX_ACCOUNTS};
  if (!sol_parse_input(input, &in)) return ERR_TOO_MANY_ACCOUNTS;

  const u8 init_network[8] = INIT_NETWORK_DISCRIMINATOR;
  const u8 request_v2[8] = REQUEST_V2_DISCRIMINATOR;
  const u8 fulfill[8] = FULFILL_DISCRIMINATOR;
  const u8 fulfill_v2[8] = FULFILL_V2_DISCRIMINATOR;
  if (sol_data_has_discriminator(&in, request_v2)) return oracle_request_v2(&in);
  if (sol_data_has_discriminator(&in, fulfill)) return oracle_fulfill(&in);
  if (sol_data_has_discriminator(&in, fulfill_v2)) return oracle_fulfill_v2(&in);
  if (sol_data_has_discriminator(&in, init_network)) return oracle_init_network(&in);
  return ERR_INVALID_INSTRUCTION;
}
