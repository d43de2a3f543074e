import { describe, expect, it } from 'vitest';
import { describePreview, describeRefusal, describeWhen, formatSlot } from '../liquidity-text';

describe('the Liquidity screen in words', () => {
  it('says when the strike waits for the close, in slots and time', () => {
    expect(formatSlot(123_456)).toBe('123 456');
    expect(describeWhen({ kind: 'close', epoch: 12, closeSlot: 123_456, slotsLeft: 450 }, 400, true)).toBe('Epoch 12 closes at slot 123 456 (in about 3 min).');
    expect(describeWhen({ kind: 'close', epoch: 12, closeSlot: 123_456, slotsLeft: 10 }, 400, false)).toBe('Epoch 12 closes at slot 123 456 (in about 4 s at 400 ms per slot).');
  });

  it('says it waits for the wagers opened before the close, or that it was already struck', () => {
    expect(describeWhen({ kind: 'openWagers', epoch: 3, count: 2 }, 400, true)).toBe('2 wagers opened before the close are still open: waiting for them to settle or expire.');
    expect(describeWhen({ kind: 'openWagers', epoch: 3, count: 1 }, 400, true)).toBe('1 wager opened before the close is still open: waiting for it to settle or expire.');
    expect(describeWhen({ kind: 'alreadyStruck', epoch: 3 }, 400, true)).toMatch(/^Already struck/);
  });

  it('puts the refusal sentence before the when, and nothing when allowed', () => {
    const refused = {
      allowed: false,
      refusal: { code: 'epochNotClosed', sentence: 'The epoch has not closed yet: strike it after its close slot.' },
      when: { kind: 'close' as const, epoch: 1, closeSlot: 900, slotsLeft: 5 },
    };
    expect(describeRefusal(refused, 100, true)).toBe('The epoch has not closed yet: strike it after its close slot. Epoch 1 closes at slot 900 (in about 0.5 s).');
    expect(describeRefusal({ allowed: true, refusal: null, when: null }, 100, true)).toBeNull();
  });

  it('previews what a claim pays and its fees', () => {
    const preview = { shares: '20000000', usdc: '24999999', sharePrice: '1.250000', callerFeeLamports: 50_000, transactionFeeLamports: 5_000 };
    expect(describePreview('deposit', preview)).toBe(
      'Mints 20.00 shares (worth 24.999999 USDC at 1.250000 USDC per share); fee: the claimer earns 50,000 lamports and pays 5,000 lamports for the transaction.',
    );
    expect(describePreview('withdraw', preview)).toMatch(/^Pays 24\.999999 USDC \(20\.00 shares at 1\.250000 USDC per share\)/);
  });
});
