/**
 * Solana's fee arithmetic, pure: the base fee per signature and the priority fee, ceil(compute-unit price
 * x compute-unit limit / 1e6) lamports, as Agave charges them. The keeper's sender and the localnet's fee
 * code share it so that what the keeper books is what the chain debits.
 */

/** The base fee (mainnet's and LiteSVM's). */
export const LAMPORTS_PER_SIGNATURE = 5_000n;

const MICRO_LAMPORTS_PER_LAMPORT = 1_000_000n;

/**
 * The priority fee of a transaction with this compute-unit price (micro-lamports per unit) and limit, rounded up.
 * @example priorityFeeLamports(1_000n, 200_000n) // 200n; priorityFeeLamports(1n, 1n) // 1n
 */
export function priorityFeeLamports(microLamportsPerUnit: bigint, unitLimit: bigint): bigint {
  return (microLamportsPerUnit * unitLimit + MICRO_LAMPORTS_PER_LAMPORT - 1n) / MICRO_LAMPORTS_PER_LAMPORT;
}

/** What a one-signature transaction with this compute-unit price and limit costs its fee payer: base + priority. */
export function transactionFeeLamports(microLamportsPerUnit: bigint, unitLimit: bigint): bigint {
  return LAMPORTS_PER_SIGNATURE + priorityFeeLamports(microLamportsPerUnit, unitLimit);
}

/**
 * The compute-unit price to set: `asked`, lowered (rounded down) so that the priority fee of `unitLimit`
 * units stays within `maxPriorityLamports` when one is given.
 * @example priorityPriceWithin(1_000_000n, 100_000n, 50_000n) // 500_000n
 */
export function priorityPriceWithin(asked: bigint, unitLimit: bigint, maxPriorityLamports?: bigint): bigint {
  if (maxPriorityLamports === undefined || priorityFeeLamports(asked, unitLimit) <= maxPriorityLamports)
    return asked;
  return (maxPriorityLamports * MICRO_LAMPORTS_PER_LAMPORT) / unitLimit;
}

/**
 * The compute-unit price of a crank priced by the market (`--priority-fee auto`): the market's price
 * lowered so that the priority fee stays within `payRoomLamports` (the crank's pay less the base fee), or
 * the urgent raise within its own cap (`urgentCapLamports`, half the pay) when that is higher. The urgent
 * raise never lowers what the market alone would bid.
 * @example autoCrankPrice({ market: 3_000_000n, unitLimit: 60_000n, payRoomLamports: 45_000n }) // { price: 750_000n, marketWithinPay: 750_000n }
 */
export function autoCrankPrice({
  market,
  unitLimit,
  payRoomLamports,
  urgent,
  urgentCapLamports,
}: {
  market: bigint;
  unitLimit: bigint;
  payRoomLamports?: bigint;
  urgent?: bigint;
  urgentCapLamports?: bigint;
}): { price: bigint; marketWithinPay: bigint } {
  const marketWithinPay = priorityPriceWithin(market, unitLimit, payRoomLamports);
  const urgentCap =
    urgentCapLamports !== undefined && payRoomLamports !== undefined && payRoomLamports < urgentCapLamports
      ? payRoomLamports
      : (urgentCapLamports ?? payRoomLamports);
  const urgentPrice = urgent === undefined ? 0n : priorityPriceWithin(urgent, unitLimit, urgentCap);
  return { price: urgentPrice > marketWithinPay ? urgentPrice : marketWithinPay, marketWithinPay };
}
