/**
 * The mainnet-beta fee floor (issue 33, item 2): what one wager costs the gateway in SOL, and the one line
 * that refuses a --fee below it (the command exits 2 with it).
 */
import { describe, expect, it } from 'vitest';
import { formatUsdcAmount } from '../../protocol/usdc-amount';
import { checkFeeCoversCost, FeeBelowCostError, minimumFee, wagerCost } from '../gateway-costs';

// The config's example prices (docs/wager-program.md), an oracle fee of 0.001 SOL and a 0.0015 SOL request rent.
const cost = wagerCost({ requestFee: 50_000n, settleFee: 200_000n, expireFee: 200_000n, oracleFee: 1_000_000n, oracleRequestRent: 1_500_000n });

describe("a wager's SOL cost and the mainnet-beta fee floor", () => {
  it('counts the payment at its caps (2 signatures, 40,000 CU at 50,000 µlamports), the open, and the crank and oracle fees', () => {
    expect(cost).toEqual({ paymentFee: 12_000n, openFee: 5_000n, crankFees: 2_750_000n, total: 2_767_000n });
  });

  it('rounds the minimum fee up to a cent', () => {
    expect(minimumFee(2_767_000n, 200)).toBe(560_000n); // 0.5534 USD → 0.56 USDC
    expect(minimumFee(2_400_000n, 200)).toBe(480_000n);
  });

  it('refuses, in one line naming the minimum, a fee below the cost on mainnet-beta only', () => {
    const check = (fee: bigint, mainnet = true, solPriceUsd: number | undefined = 200) => () => checkFeeCoversCost({ mainnet, fee, cost, solPriceUsd, formatUsdc: formatUsdcAmount });
    expect(check(0n)).toThrow(FeeBelowCostError);
    expect(check(0n)).toThrow(/^--fee 0\.00 is below what the gateway spends per wager on mainnet-beta, 0\.002767 SOL .* = 0\.56 USDC at --sol-price 200: start with --fee 0\.56 or more$/);
    expect(check(550_000n)).toThrow(/--fee 0\.56 or more/);
    expect(check(560_000n)).not.toThrow();
    expect(check(0n, false)).not.toThrow();
    expect(() => checkFeeCoversCost({ mainnet: true, fee: 5_000_000n, cost, formatUsdc: formatUsdcAmount })).toThrow(/give --sol-price USD/);
    expect(() => check(0n)()).toThrow(expect.objectContaining({ message: expect.not.stringContaining('\n') }));
  });
});
