/** The units module: SOL, USDC and durations as the core, the commands and the console write and read them. */
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  formatDurationSeconds,
  formatSol,
  formatSolDecimal,
  formatSolExact,
  formatUnits,
  formatUsdc,
  HOUR_MS,
  LAMPORTS_PER_SOL,
  LAMPORTS_PER_SOL_BIGINT,
  MINUTE_MS,
  parseDuration,
  parseSol,
  solText,
} from '../units';

describe('units', () => {
  it('has one value per constant', () => {
    expect([MINUTE_MS, HOUR_MS, DAY_MS]).toEqual([60_000, 3_600_000, 86_400_000]);
    expect(BigInt(LAMPORTS_PER_SOL)).toBe(LAMPORTS_PER_SOL_BIGINT);
    expect(LAMPORTS_PER_SOL_BIGINT).toBe(1_000_000_000n);
  });

  it('writes SOL in each of its forms, exactly', () => {
    expect(formatUnits(10_000_000n, 9)).toBe('0.01');
    expect([formatSolDecimal(0n), formatSolDecimal(1_500_000_000n), formatSolDecimal(-50_000_000n)]).toEqual(['0', '1.5', '-0.05']);
    expect([solText(50_000_000n), solText(1_000_005_000n)]).toEqual(['0.05 SOL', '1.000005 SOL']);
    expect([formatSol(0), formatSol(1_234_500_000n), formatSol('123456789012345678')]).toEqual(['0.00 SOL', '1.2345 SOL', '123,456,789.012345678 SOL']);
    expect(formatSolExact(-1_234_567_890)).toBe('-1.234567890 SOL');
    expect([formatUsdc('1500000'), formatUsdc('1234567'), formatUsdc(null)]).toEqual(['1.50 USDC', '1.234567 USDC', '—']);
  });

  it('reads SOL and durations as people type them, and writes them back the same way', () => {
    expect([parseSol(' 0.05 '), parseSol('1'), parseSol('1.0000000001'), parseSol('-1'), parseSol('1e3')]).toEqual([50_000_000n, 1_000_000_000n, null, null, null]);
    expect(formatSolDecimal(parseSol('12.345678901')!)).toBe('12.345678901');
    expect(['90s', '30m', '30min', '6h', '1d', '120', 'soon', '1w'].map(parseDuration)).toEqual([90, 1_800, 1_800, 21_600, 86_400, 120, null, null]);
    for (const seconds of [45, 60, 5_400, 21_600, 86_400, 2_592_000]) expect(parseDuration(formatDurationSeconds(seconds))).toBe(seconds);
    expect([formatDurationSeconds(86_400), formatDurationSeconds(5_400), formatDurationSeconds(90)]).toEqual(['1d', '90m', '90s']);
  });
});
