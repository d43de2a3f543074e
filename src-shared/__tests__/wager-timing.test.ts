/** The wager timing rules: the request window opens at open + 2 and closes (expiry) at open + 150, in bigint or number. */
import { describe, expect, it } from 'vitest';
import { REQUEST_DELAY_SLOTS, T_SETTLE_SLOTS, expiresAt, requestOpensAt } from '../wager-timing';

describe('the wager timing rules', () => {
  it('opens the request window REQUEST_DELAY_SLOTS after the open, in the kind of number given', () => {
    expect(REQUEST_DELAY_SLOTS).toBe(2);
    expect(requestOpensAt(1_000n)).toBe(1_002n);
    expect(requestOpensAt(1_000)).toBe(1_002);
  });

  it('expires an unfulfilled wager T_SETTLE_SLOTS after the open, in the kind of number given', () => {
    expect(T_SETTLE_SLOTS).toBe(150);
    expect(expiresAt(1_000n)).toBe(1_150n);
    expect(expiresAt(1_000)).toBe(1_150);
  });
});
