import { describe, expect, it } from 'vitest';
import { sharePrice, whyNotStrikeable } from '../liquidity-view';

describe('the Liquidity screen arithmetic', () => {
  it('prices a share in USDC with 6 decimals, and has no price without shares', () => {
    expect(sharePrice(1_000_000_000_000n, 1_000_000_000_000n)).toBe('1.000000');
    expect(sharePrice(1_000_024_040_000n, 1_000_025_000_024n)).toBe('0.999999');
    expect(sharePrice(3_000_000n, 2_000_000n)).toBe('1.500000');
    expect(sharePrice(5n, 0n)).toBeNull();
  });

  it('says why the live epoch cannot be struck, with the program\'s two rules, or that it can', () => {
    const pool = { epoch: 3n, epochCloseSlot: 1_000n, openWagers: [0n, 0n] };
    expect(whyNotStrikeable(pool, 900n)).toBe('the epoch closes at slot 1,000 (in 101 slots)');
    expect(whyNotStrikeable(pool, 1_000n)).toBe('the epoch closes at slot 1,000 (in 1 slot)');
    expect(whyNotStrikeable(pool, 1_001n)).toBeNull();
    // Epoch 3 counts its pre-close wagers in slot 1 (epoch & 1); slot 0 belongs to the next epoch.
    expect(whyNotStrikeable({ ...pool, openWagers: [5n, 1n] }, 1_001n)).toBe('1 wager opened before the close is still open');
    expect(whyNotStrikeable({ ...pool, openWagers: [0n, 2n] }, 1_001n)).toBe('2 wagers opened before the close are still open');
    expect(whyNotStrikeable({ ...pool, openWagers: [7n, 0n] }, 1_001n)).toBeNull();
  });
});
