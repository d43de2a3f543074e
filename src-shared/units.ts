/**
 * Units, written once (issue 35): lamports and SOL, USDC base units, durations and the time constants, as
 * pure functions shared by the core, the commands and the console page. Every amount is exact (bigint or
 * decimal text, no float) unless a caller asks for a number to chart.
 */

/** Lamports in one SOL, as a number (chart values, thresholds typed in SOL). */
export const LAMPORTS_PER_SOL = 1_000_000_000;
/** Lamports in one SOL, as a bigint (exact amounts). */
export const LAMPORTS_PER_SOL_BIGINT = BigInt(LAMPORTS_PER_SOL);
/** Decimals of SOL and of the wager token (USDC). */
export const SOL_DECIMALS = 9;
export const USDC_DECIMALS = 6;

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/**
 * 1234567 → "1,234,567". One formatter for every figure: `toLocaleString('en-US')` builds a new one per
 * call, and the Queue formats its visible rows' numbers at every live batch (it showed in its frame profile).
 */
const GROUPED = new Intl.NumberFormat('en-US');
export const groupDigits = (value: number | bigint): string => GROUPED.format(value);

/**
 * A non-negative base-unit amount as a decimal string with `decimals` places, trailing zeros trimmed (no
 * decimal point for whole amounts).
 * @example formatUnits(10_000_000n, 9) // "0.01"; formatUnits(0n, 9) // "0"; formatUnits(1_500_000_000n, 9) // "1.5"
 */
export function formatUnits(amount: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const whole = amount / scale;
  const fraction = (amount % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/**
 * Lamports as a bare SOL decimal, exact, trailing zeros trimmed, no digit grouping (what a flag or a form
 * takes back, and the faucet's and deploy's figures).
 * @example formatSolDecimal(1_500_000_000n) // "1.5"; formatSolDecimal(-50_000_000n) // "-0.05"
 */
export const formatSolDecimal = (lamports: bigint): string =>
  `${lamports < 0n ? '-' : ''}${formatUnits(lamports < 0n ? -lamports : lamports, SOL_DECIMALS)}`;

/**
 * Lamports as SOL in a sentence of the core (sweep refusals, the sweep command): exact, trimmed, no grouping.
 * @example solText(50_000_000n) // '0.05 SOL'; solText(1_000_005_000n) // '1.000005 SOL'
 */
export const solText = (lamports: bigint): string => `${formatSolDecimal(lamports)} SOL`;

const splitSol = (lamports: number | bigint | string) => {
  const value = BigInt(lamports);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  return {
    sign: negative ? '-' : '',
    whole: groupDigits(abs / LAMPORTS_PER_SOL_BIGINT),
    fraction: (abs % LAMPORTS_PER_SOL_BIGINT).toString().padStart(SOL_DECIMALS, '0'),
  };
};

/** 1234500000 → "1.2345 SOL": exact (no float), grouped, trailing zeros trimmed to at least 2 decimals. For earnings. */
export function formatSol(lamports: number | bigint | string): string {
  const { sign, whole, fraction } = splitSol(lamports);
  return `${sign}${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')} SOL`;
}

/** 1234567890 → "1.234567890 SOL": grouped, every lamport shown (9 decimals). For balances. */
export function formatSolExact(lamports: number | bigint | string): string {
  const { sign, whole, fraction } = splitSol(lamports);
  return `${sign}${whole}.${fraction} SOL`;
}

/** USDC base units → "1.50 USDC" (grouped, at least two decimals, more when the amount has them); null → "—". */
export function formatUsdc(base: string | null): string {
  if (base === null) return '—';
  const value = BigInt(base);
  const scale = 10n ** BigInt(USDC_DECIMALS);
  const fraction = (value % scale).toString().padStart(USDC_DECIMALS, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${groupDigits(value / scale)}.${fraction} USDC`;
}

/**
 * SOL typed by a person (a flag, a form) as lamports: up to 9 decimals, not negative.
 * @example parseSol('0.05') // 50_000_000n; parseSol('1e3') // null
 */
export function parseSol(text: string): bigint | null {
  const match = /^(\d+)(?:\.(\d{1,9}))?$/.exec(text.trim());
  if (!match) return null;
  return BigInt(match[1]!) * LAMPORTS_PER_SOL_BIGINT + BigInt((match[2] ?? '').padEnd(SOL_DECIMALS, '0'));
}

/** The duration units people type, largest first, in seconds. */
const DURATION_UNITS: readonly [string, number][] = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
];

/**
 * A duration as people write it (a flag, a form): 90s, 30m (or 30min), 6h, 1d, or bare seconds.
 * @example parseDuration('6h') // 21600; parseDuration('soon') // null
 */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)\s*(s|m|min|h|d)?$/.exec(text.trim());
  if (!match) return null;
  const unit = match[2] === 'min' ? 'm' : (match[2] ?? 's');
  return Number(match[1]) * DURATION_UNITS.find(([name]) => name === unit)![1];
}

/**
 * Seconds written back as parseDuration reads them, in the largest unit that divides them.
 * @example formatDurationSeconds(86_400) // "1d"; formatDurationSeconds(5_400) // "90m"
 */
export function formatDurationSeconds(seconds: number): string {
  const [unit, size] = DURATION_UNITS.find(([, size]) => seconds % size === 0)!;
  return `${seconds / size}${unit}`;
}
