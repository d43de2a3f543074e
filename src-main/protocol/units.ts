/** Base-unit amounts (lamports, token base units) as decimal strings; pure, shared by the faucet and the localnet. */

/**
 * A base-unit amount as a decimal string with `decimals` places, trailing zeros trimmed (no decimal point
 * for whole amounts).
 * @example formatUnits(10_000_000n, 9) // "0.01"; formatUnits(0n, 9) // "0"; formatUnits(1_500_000_000n, 9) // "1.5"
 */
export function formatUnits(amount: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const whole = amount / scale;
  const fraction = (amount % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}
