/** USDC amounts as people write them ("1.00", "2.5") to and from base units (6 decimals). */
import { USDC_DECIMALS } from '../../src-shared/units';

export { USDC_DECIMALS };

/** "1.00" -> 1_000_000n. Refuses negatives, more than 6 decimals, and anything not a plain decimal. */
export function parseUsdcAmount(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) throw new Error(`'${text}' is not a USDC amount (like 1.00, at most 6 decimals)`);
  const amount = BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? '').padEnd(USDC_DECIMALS, '0'));
  if (amount === 0n) throw new Error('the amount must be more than 0');
  return amount;
}

/** 1_500_000n -> "1.50" (at least two decimals, as money is shown). */
export function formatUsdcAmount(baseUnits: bigint): string {
  const negative = baseUnits < 0n;
  const value = negative ? -baseUnits : baseUnits;
  const whole = value / 1_000_000n;
  const fraction = (value % 1_000_000n).toString().padStart(6, '0').replace(/0{1,4}$/, '');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}
