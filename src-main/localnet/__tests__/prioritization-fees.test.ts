import { describe, expect, it } from 'vitest';
import {
  addPrioritizationFee,
  isSimpleVoteTransaction,
  recentPrioritizationFeesOf,
  type SlotPrioritizationFees,
} from '../prioritization-fees';

describe('getRecentPrioritizationFees per account, as Agave answers it', () => {
  // Agave's test_get_prioritization_fees: slot 1 has [2: a, b] and [1: x, y]; slot 2 has [4: b, c] and [3: x, y].
  const slots = new Map<bigint, SlotPrioritizationFees>();
  addPrioritizationFee(slots, 1n, 2n, ['a', 'b']);
  addPrioritizationFee(slots, 1n, 1n, ['x', 'y']);
  addPrioritizationFee(slots, 2n, 4n, ['b', 'c']);
  addPrioritizationFee(slots, 2n, 3n, ['x', 'y']);
  const fees = (accounts: string[]) =>
    recentPrioritizationFeesOf(slots, 1n, 2n, accounts).map((fee) => Number(fee.prioritizationFee));

  it("answers each slot's block minimum when no account is given", () => {
    expect(fees([])).toEqual([1, 3]);
  });

  it('raises a slot to the lowest price paid to write the accounts asked for, the highest of them', () => {
    expect(fees(['a'])).toEqual([2, 3]);
    expect(fees(['b'])).toEqual([2, 4]);
    expect(fees(['c'])).toEqual([1, 4]);
    expect(fees(['a', 'b', 'c'])).toEqual([2, 4]);
  });

  it('adds nothing for an account no transaction wrote, and answers 0 for a slot without transactions', () => {
    expect(fees(['nobody'])).toEqual([1, 3]);
    expect(recentPrioritizationFeesOf(slots, 3n, 4n, ['a'])).toEqual([
      { slot: 3n, prioritizationFee: 0n },
      { slot: 4n, prioritizationFee: 0n },
    ]);
  });

  it("keeps an account's lowest price in a slot, not its last one", () => {
    const one = new Map<bigint, SlotPrioritizationFees>();
    addPrioritizationFee(one, 7n, 9_000n, ['pool']);
    addPrioritizationFee(one, 7n, 500n, ['pool', 'other']);
    addPrioritizationFee(one, 7n, 8_000n, ['pool']);
    expect(recentPrioritizationFeesOf(one, 7n, 7n, ['pool'])[0]!.prioritizationFee).toBe(500n);
  });

  it('tells a simple vote transaction apart (left out, as Agave leaves it out)', () => {
    expect(isSimpleVoteTransaction(1, ['Vote111111111111111111111111111111111111111'])).toBe(true);
    expect(isSimpleVoteTransaction(1, ['11111111111111111111111111111111'])).toBe(false);
    expect(isSimpleVoteTransaction(3, ['Vote111111111111111111111111111111111111111'])).toBe(false);
  });
});
