import { describe, expect, it } from 'vitest';
import { priorityFeeFlags } from '../priority-fee-flags';

describe('the priority fee flags', () => {
  it('takes auto with its bounds, a fixed number, or nothing (the cluster decides)', () => {
    expect(priorityFeeFlags({})).toEqual({});
    expect(priorityFeeFlags({ 'priority-fee': '2500' })).toEqual({
      priorityFeeAuto: false,
      priorityFeeMicroLamports: 2_500,
    });
    expect(
      priorityFeeFlags({
        'priority-fee': 'auto',
        'priority-fee-percentile': '90',
        'priority-fee-multiplier': '1.2',
        'min-priority-fee': '100',
        'max-priority-fee': '50000',
      }),
    ).toEqual({
      priorityFeeAuto: true,
      priorityFeePolicy: {
        percentile: 90,
        multiplier: 1.2,
        minMicroLamports: 100n,
        maxMicroLamports: 50_000n,
      },
    });
    // Bounds alone apply to auto when the cluster makes it the default.
    expect(priorityFeeFlags({ 'max-priority-fee': '7' })).toEqual({
      priorityFeePolicy: { maxMicroLamports: 7n },
    });
  });

  it('refuses what makes no sense, naming the flag', () => {
    expect(() => priorityFeeFlags({ 'priority-fee': 'fast' })).toThrow(
      /--priority-fee must be micro-lamports per compute unit/,
    );
    expect(() => priorityFeeFlags({ 'priority-fee': '10', 'max-priority-fee': '5' })).toThrow(
      /go with --priority-fee auto/,
    );
    expect(() => priorityFeeFlags({ 'priority-fee-percentile': '0' })).toThrow(
      /--priority-fee-percentile must be a percentile from 1 to 100/,
    );
    expect(() => priorityFeeFlags({ 'priority-fee-multiplier': '-1' })).toThrow(/--priority-fee-multiplier/);
    expect(() => priorityFeeFlags({ 'min-priority-fee': '9', 'max-priority-fee': '5' })).toThrow(
      /the floor must be at most the cap/,
    );
  });
});
