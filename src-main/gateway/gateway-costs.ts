/**
 * What one wager costs the gateway in SOL, for the mainnet-beta fee floor: the payment's fee (it is the
 * x402 fee payer: two signatures and, at most, the capped priority fee), the open's fee (one signature, no
 * priority fee), and the crank fees its open prefunds that do not come back (the oracle's fee and its
 * request account's rent, the request fee, the larger of the settle and expire fees). The wager's rent and
 * the fee account's own rent come back when the wager closes and are not counted. A `--fee` (USDC) below
 * that cost at `--sol-price` would let every caller spend the gateway's SOL: refused at start.
 */
import { LAMPORTS_PER_SIGNATURE, priorityFeeLamports } from '../chain/fees';
import { formatUnits, LAMPORTS_PER_SOL_BIGINT } from '../../src-shared/units';
import { MAX_PAYMENT_COMPUTE_UNITS, MAX_PAYMENT_PRICE_MICROLAMPORTS, MAX_PAYMENT_SIGNERS } from './payment-guard';

export interface WagerCost {
  /** Lamports: the payment transaction's fee at the caps. */
  paymentFee: bigint;
  /** Lamports: the open's fee. */
  openFee: bigint;
  /** Lamports of the prefund spent on cranks and the oracle. */
  crankFees: bigint;
  total: bigint;
}

export interface CrankPrices {
  requestFee: bigint;
  settleFee: bigint;
  expireFee: bigint;
  /** The oracle's request fee (its NetworkState). */
  oracleFee: bigint;
  /** Rent of the oracle's request account (paid from the prefund, kept by the oracle). */
  oracleRequestRent: bigint;
}

/** The SOL one wager costs the gateway (lamports), from the config's and the oracle's prices. */
export function wagerCost(prices: CrankPrices): WagerCost {
  const paymentFee = BigInt(MAX_PAYMENT_SIGNERS) * LAMPORTS_PER_SIGNATURE + priorityFeeLamports(BigInt(MAX_PAYMENT_PRICE_MICROLAMPORTS), BigInt(MAX_PAYMENT_COMPUTE_UNITS));
  const openFee = LAMPORTS_PER_SIGNATURE;
  const crankFees = prices.requestFee + (prices.settleFee > prices.expireFee ? prices.settleFee : prices.expireFee) + prices.oracleFee + prices.oracleRequestRent;
  return { paymentFee, openFee, crankFees, total: paymentFee + openFee + crankFees };
}

/** Refused at start: exit 2 with this one line (gateway-command turns it into a usage error). */
export class FeeBelowCostError extends Error {}

const USDC_PER_CENT = 10_000n;

/**
 * The smallest `--fee` (USDC base units, rounded up to a cent) that covers `cost` at `solPriceUsd` per SOL.
 * @example minimumFee(2_400_000n, 200) // 480_000n (0.48 USDC)
 */
export function minimumFee(costLamports: bigint, solPriceUsd: number): bigint {
  // Micro-dollars per SOL, so the arithmetic stays in integers.
  const microUsdPerSol = BigInt(Math.ceil(solPriceUsd * 1_000_000));
  const baseUnits = (costLamports * microUsdPerSol + LAMPORTS_PER_SOL_BIGINT - 1n) / LAMPORTS_PER_SOL_BIGINT;
  return ((baseUnits + USDC_PER_CENT - 1n) / USDC_PER_CENT) * USDC_PER_CENT;
}

/**
 * Refuses (FeeBelowCostError) a fee that does not cover one wager's SOL on mainnet-beta; elsewhere the SOL
 * is the operator's test SOL and any fee goes.
 */
export function checkFeeCoversCost(options: { mainnet: boolean; fee: bigint; cost: WagerCost; solPriceUsd?: number; formatUsdc: (baseUnits: bigint) => string }): void {
  if (!options.mainnet) return;
  const { cost } = options;
  const sol = `${formatUnits(cost.total, 9)} SOL (payment fee ${formatUnits(cost.paymentFee, 9)}, open fee ${formatUnits(cost.openFee, 9)}, crank and oracle fees ${formatUnits(cost.crankFees, 9)})`;
  if (options.solPriceUsd === undefined)
    throw new FeeBelowCostError(`on mainnet-beta the gateway spends ${sol} per wager and --fee must cover it: give --sol-price USD (the price of 1 SOL) so --fee can be checked against it`);
  const minimum = minimumFee(cost.total, options.solPriceUsd);
  if (options.fee < minimum)
    throw new FeeBelowCostError(
      `--fee ${options.formatUsdc(options.fee)} is below what the gateway spends per wager on mainnet-beta, ${sol} = ${options.formatUsdc(minimum)} USDC at --sol-price ${options.solPriceUsd}: start with --fee ${options.formatUsdc(minimum)} or more`,
    );
}
