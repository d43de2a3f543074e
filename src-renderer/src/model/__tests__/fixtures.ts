/** A queue row as the core sends it, with the fields a test changes. */
import type { QueueRow } from '@shared/contract/activity';

export const row = (overrides: Partial<QueueRow>): QueueRow => ({
  address: 'W1111111111111111111111111111111111111111111',
  state: 'queued',
  paytable: null,
  paytableName: 'coin-flip',
  stake: '1000000',
  openSlot: 1_000,
  expirySlot: 1_150,
  oracleRequest: null,
  requestSignature: null,
  requestedSlot: null,
  fulfilledSlot: null,
  settleSignature: null,
  expireSignature: null,
  claimSignature: null,
  bucket: null,
  payout: null,
  payoutPending: false,
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  createdAt: '2026-11-24T00:00:00.000Z',
  updatedAt: '2026-11-24T00:00:00.000Z',
  ...overrides,
});
