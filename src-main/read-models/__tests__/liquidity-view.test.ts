import { describe, expect, it } from 'vitest';
import { claimPreview, sharePrice, sharesFor, usdcFor, whenStrikeable } from '../liquidity-view';

describe('the Liquidity screen arithmetic', () => {
  it('prices a share in USDC with 6 decimals, and has no price without shares', () => {
    expect(sharePrice(1_000_000_000_000n, 1_000_000_000_000n)).toBe('1.000000');
    expect(sharePrice(1_000_024_040_000n, 1_000_025_000_024n)).toBe('0.999999');
    expect(sharePrice(3_000_000n, 2_000_000n)).toBe('1.500000');
    expect(sharePrice(5n, 0n)).toBeNull();
  });

  it('says when a refused strike may be accepted: the close slot, or the wagers opened before it still open', () => {
    const pool = { epoch: 3n, epochCloseSlot: 1_000n, openWagers: [0n, 0n] };
    expect(whenStrikeable('epochNotClosed', pool, 900n)).toEqual({ kind: 'close', epoch: 3, closeSlot: 1_000, slotsLeft: 101 });
    expect(whenStrikeable('epochNotClosed', pool, 1_000n)).toEqual({ kind: 'close', epoch: 3, closeSlot: 1_000, slotsLeft: 1 });
    // Epoch 3 counts its pre-close wagers in slot 1 (epoch & 1); slot 0 belongs to the next epoch.
    expect(whenStrikeable('epochHasOpenWagers', { ...pool, openWagers: [5n, 2n] }, 1_001n)).toEqual({ kind: 'openWagers', epoch: 3, count: 2 });
    // Other refusals have no "when" the pool can tell.
    expect(whenStrikeable('insufficientFreeLiquidity', pool, 1_001n)).toBeNull();
  });

  it('previews a claim from the struck price: shares x price in USDC, and the fees', () => {
    // Struck at L = 1 000 USDC, S = 800 shares: 1.25 USDC per share.
    const record = { liquidity: 1_000_000_000n, shares: 800_000_000n };
    expect(sharesFor(25_000_000n, record.liquidity, record.shares)).toBe(20_000_000n);
    // Every rounding is down (the +1 virtual unit and share): a hair under 25 USDC.
    expect(usdcFor(20_000_000n, record.liquidity, record.shares)).toBe(24_999_999n);
    expect(claimPreview('deposit', 25_000_000n, record, 50_000n)).toEqual({
      shares: '20000000',
      usdc: '24999999',
      sharePrice: '1.250000',
      callerFeeLamports: 50_000,
      transactionFeeLamports: 5_000,
    });
    expect(claimPreview('withdraw', 8_000_000n, record, 50_000n)).toMatchObject({ shares: '8000000', usdc: '9999999' });
  });
});
