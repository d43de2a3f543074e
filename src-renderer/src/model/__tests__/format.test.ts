/** Amounts with their units, ages, the cluster badge, the runway and the low-balance advice, as an operator reads them. */
import { describe, expect, it } from 'vitest';
import {
  clusterLabel,
  explorerUrl,
  describeRunway,
  formatAge,
  formatDuration,
  formatLamports,
  formatSlots,
  formatSol,
  formatSolExact,
  formatUsdc,
  lowBalanceAdvice,
  shorten,
  startOfLocalDay,
} from '../format';

describe('amounts with their units', () => {
  it('shows SOL from lamports exactly, with thousands separators and no float rounding', () => {
    expect(formatSol(1_234_500_000n)).toBe('1.2345 SOL');
    expect(formatSol('100000240000')).toBe('100.00024 SOL');
    expect(formatSol(0)).toBe('0.00 SOL');
    expect(formatSol(-15_000)).toBe('-0.000015 SOL');
    expect(formatSol('123456789012345678')).toBe('123,456,789.012345678 SOL');
  });

  it('shows a balance to the lamport (nine decimals)', () => {
    expect(formatSolExact('1234567890')).toBe('1.234567890 SOL');
    expect(formatSolExact('100001485000')).toBe('100.001485000 SOL');
    expect(formatSolExact(5_000)).toBe('0.000005000 SOL');
    // Above 2^53 lamports a float would round; the string is exact.
    expect(formatSolExact('9007199254740993')).toBe('9,007,199.254740993 SOL');
  });

  it('shows lamports, USDC and slots with their units', () => {
    expect(formatLamports(12_345)).toBe('12,345 lamports');
    expect(formatLamports(1)).toBe('1 lamport');
    expect(formatUsdc('1000000')).toBe('1.00 USDC');
    expect(formatUsdc('1500000')).toBe('1.50 USDC');
    expect(formatUsdc('1234567')).toBe('1.234567 USDC');
    expect(formatUsdc('2500000000')).toBe('2,500.00 USDC');
    expect(formatUsdc(null)).toBe('—');
    expect(formatSlots(1)).toBe('1 slot');
    expect(formatSlots(1_500)).toBe('1,500 slots');
  });

  it('says how long ago, in the unit that reads best', () => {
    const now = 1_000_000_000;
    expect(formatAge(now - 1_200, now)).toBe('1.2 s ago');
    expect(formatAge(now - 400, now)).toBe('0.4 s ago');
    expect(formatAge(now - 42_000, now)).toBe('42 s ago');
    expect(formatAge(now - 600_000, now)).toBe('10 min ago');
    expect(formatAge(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(formatAge(now - 3 * 86_400_000, now)).toBe('3 d ago');
    expect(formatAge(0, now)).toBe('never');
    // A clock a little behind the core's never shows a negative age.
    expect(formatAge(now + 500, now)).toBe('0 s ago');
    expect(formatDuration(5_000)).toBe('5 s');
    expect(formatDuration(1_500)).toBe('1.5 s');
  });

  it('shortens long addresses, keeping short text as it is', () => {
    expect(shorten('GmHJybd8DAeMMkrf2v83PjgDNjxm8i3aFeUbvJyqBq4q')).toBe('GmHJ…Bq4q');
    expect(shorten('abc')).toBe('abc');
  });
});

describe('cluster badge', () => {
  it('says "embedded localnet" for the app\'s own localnet and the plain name otherwise', () => {
    expect(clusterLabel({ name: 'localnet', embedded: true })).toBe('embedded localnet');
    expect(clusterLabel({ name: 'localnet', embedded: false })).toBe('localnet');
    expect(clusterLabel({ name: 'devnet', embedded: false })).toBe('devnet');
    expect(clusterLabel({ name: 'mainnet-beta', embedded: false })).toBe('mainnet-beta');
    expect(clusterLabel({ name: 'custom', embedded: false })).toBe('custom');
    expect(clusterLabel(null)).toBe('no cluster');
  });
});

describe('explorer links', () => {
  it('link addresses and transactions on public clusters only', () => {
    const key = 'GmHJybd8DAeMMkrf2v83PjgDNjxm8i3aFeUbvJyqBq4q';
    expect(explorerUrl('devnet', 'address', key)).toBe(`https://explorer.solana.com/address/${key}?cluster=devnet`);
    expect(explorerUrl('testnet', 'tx', key)).toBe(`https://explorer.solana.com/tx/${key}?cluster=testnet`);
    expect(explorerUrl('mainnet-beta', 'address', key)).toBe(`https://explorer.solana.com/address/${key}`);
    expect(explorerUrl('localnet', 'address', key)).toBeNull();
    expect(explorerUrl('custom', 'tx', key)).toBeNull();
    expect(explorerUrl(null, 'tx', key)).toBeNull();
  });
});

describe('runway and low balance', () => {
  it('words the runway with its unit', () => {
    expect(describeRunway({ lamportsPerCrank: 5_000, cranks: 19_999, low: false })).toBe('about 19,999 cranks at 5,000 lamports each');
    expect(describeRunway({ lamportsPerCrank: 7_500, cranks: 1, low: true })).toBe('about 1 crank at 7,500 lamports each');
  });

  it('says where to send SOL, and the airdrop command on devnet only', () => {
    const address = 'GmHJybd8DAeMMkrf2v83PjgDNjxm8i3aFeUbvJyqBq4q';
    expect(lowBalanceAdvice(address, 'devnet').airdrop).toBe(`solana airdrop 1 ${address} --url devnet`);
    expect(lowBalanceAdvice(address, 'devnet').send).toContain(`Send SOL to ${address}`);
    expect(lowBalanceAdvice(address, 'mainnet-beta').airdrop).toBeNull();
    expect(lowBalanceAdvice(address, 'localnet').airdrop).toBeNull();
  });

  it('starts "today" at local midnight', () => {
    const noon = new Date(2026, 10, 24, 12, 30).getTime();
    expect(startOfLocalDay(noon)).toBe(new Date(2026, 10, 24).getTime());
    expect(startOfLocalDay(new Date(2026, 10, 24, 0, 0, 0, 1).getTime())).toBe(new Date(2026, 10, 24).getTime());
  });
});
