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
