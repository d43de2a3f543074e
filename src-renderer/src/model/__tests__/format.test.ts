/** The console's arithmetic and wording, as an operator reads them. */
import { describe, expect, it } from 'vitest';
import type { EarningsPoint, QueueRow } from '../../../../src-main/operator/operator-interface';
import {
  clusterLabel,
  cumulativeNetSol,
  describeRunway,
  formatAge,
  formatSol,
  formatUsdc,
  nextStepOf,
  startOfLocalDay,
  sumEarnings,
  visibleRows,
} from '../format';

const row = (overrides: Partial<QueueRow>): QueueRow => ({
  address: 'W1111111111111111111111111111111111111111111',
  state: 'queued',
  paytable: null,
  paytableName: 'coin-flip',
  stake: '1000000',
  openSlot: 1_000,
  expirySlot: 1_150,
  oracleRequest: null,
  requestSignature: null,
  requestedSlot: null,
  fulfilledSlot: null,
  settleSignature: null,
  expireSignature: null,
  claimSignature: null,
  bucket: null,
  payout: null,
  payoutPending: false,
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  createdAt: '2026-11-24T00:00:00.000Z',
  updatedAt: '2026-11-24T00:00:00.000Z',
  ...overrides,
});

describe('amounts with their units', () => {
  it('shows SOL from lamports exactly, with thousands separators and no float rounding', () => {
    expect(formatSol(1_234_500_000n)).toBe('1.2345 SOL');
    expect(formatSol('100000240000')).toBe('100.00024 SOL');
    expect(formatSol(0)).toBe('0.00 SOL');
    expect(formatSol(-15_000)).toBe('-0.000015 SOL');
    expect(formatSol('123456789012345678')).toBe('123,456,789.012345678 SOL');
  });

  it('shows USDC from base units with at least two decimals', () => {
    expect(formatUsdc('1000000')).toBe('1.00 USDC');
    expect(formatUsdc('1500000')).toBe('1.50 USDC');
    expect(formatUsdc('1234567')).toBe('1.234567 USDC');
    expect(formatUsdc(null)).toBe('—');
  });

  it('says how long ago, in the unit that reads best', () => {
    const now = 1_000_000;
    expect(formatAge(now - 400, now)).toBe('0.4 s ago');
    expect(formatAge(now - 42_000, now)).toBe('42 s ago');
    expect(formatAge(now - 600_000, now)).toBe('10 min ago');
    expect(formatAge(0, now)).toBe('never');
  });
});

describe('earnings and runway', () => {
  const points: EarningsPoint[] = [
    { bucketStart: 0, receivedLamports: 250_000, feeLamports: 10_000, netLamports: 240_000, cranks: 2 },
    { bucketStart: 60_000, receivedLamports: 50_000, feeLamports: 5_000, netLamports: 45_000, cranks: 1 },
    { bucketStart: 120_000, receivedLamports: 0, feeLamports: 5_000, netLamports: -5_000, cranks: 1 },
  ];

  it('nets the fees received against the transaction fees paid', () => {
    expect(sumEarnings(points)).toEqual({ netLamports: 280_000, cranks: 4 });
    expect(sumEarnings([])).toEqual({ netLamports: 0, cranks: 0 });
  });

  it('draws the running total in SOL, falling after a failed crank that only cost a fee', () => {
    expect(cumulativeNetSol(points).map((p) => p.netSol)).toEqual([0.00024, 0.000285, 0.00028]);
  });

  it('words the runway with its unit', () => {
    expect(describeRunway({ lamportsPerCrank: 5_000, cranks: 19_999, low: false })).toBe('about 19,999 cranks at 5,000 lamports each');
  });

  it('starts "today" at local midnight', () => {
    const noon = new Date(2026, 10, 24, 12, 30).getTime();
    expect(startOfLocalDay(noon)).toBe(new Date(2026, 10, 24).getTime());
  });
});

describe('slot countdowns and next steps', () => {
  const now = 10_000;
  it('counts down to the request window, then the slots left to request in it', () => {
    expect(nextStepOf(row({}), 1_000, now)).toMatchObject({ step: 'request', when: 'in 2 slots', slotsLeftLabel: 'window opens in 2' });
    expect(nextStepOf(row({}), 1_001, now)).toMatchObject({ when: 'in 1 slot' });
    expect(nextStepOf(row({}), 1_010, now)).toMatchObject({ step: 'request', when: 'now', slotsLeft: 140, slotsLeftLabel: '140 slots to request' });
  });

  it('waits for the oracle with the slots left to expiry, then says it is expirable past open + 150', () => {
    expect(nextStepOf(row({ state: 'requested' }), 1_100, now)).toMatchObject({ step: 'settle', when: 'waiting for the oracle', slotsLeft: 50 });
    expect(nextStepOf(row({ state: 'requested' }), 1_151, now)).toMatchObject({ step: 'expire', when: 'now', slotsLeftLabel: 'expirable' });
    expect(nextStepOf(row({ state: 'queued' }), 1_200, now)).toMatchObject({ step: 'expire' });
  });

  it('settles a fulfilled wager even past the window, and shows a backoff as a retry countdown', () => {
    expect(nextStepOf(row({ state: 'fulfilled' }), 1_200, now)).toMatchObject({ step: 'settle', when: 'now' });
    expect(nextStepOf(row({ state: 'fulfilled', nextAttemptAt: now + 7_200 }), 1_020, now)).toMatchObject({ when: 'retry in 8 s' });
  });

  it('claims a parked payout, and has nothing to do for a finished wager', () => {
    expect(nextStepOf(row({ state: 'settled', payoutPending: true }), 1_020, now)).toMatchObject({ step: 'claim payout', slotsLeftLabel: 'parked payout' });
    expect(nextStepOf(row({ state: 'expired' }), 1_200, now)).toMatchObject({ step: 'none' });
  });
});

describe('queue filters and sorting', () => {
  const rows = [
    row({ address: 'A', state: 'queued', openSlot: 5, stake: '3000000' }),
    row({ address: 'B', state: 'requested', openSlot: 9, stake: '1000000' }),
    row({ address: 'C', state: 'settled', openSlot: 7, payoutPending: true, stake: '2000000' }),
    row({ address: 'D', state: 'settled', openSlot: 8, stake: '2000000' }),
  ];
  const addresses = (list: QueueRow[]) => list.map((r) => r.address);

  it('filters by state, parked payouts apart from the state they are in, finished ones together', () => {
    expect(addresses(visibleRows(rows, 'queued', { key: 'openSlot', descending: false }))).toEqual(['A']);
    expect(addresses(visibleRows(rows, 'parked', { key: 'openSlot', descending: false }))).toEqual(['C']);
    expect(addresses(visibleRows(rows, 'finished', { key: 'openSlot', descending: false }))).toEqual(['D']);
    expect(visibleRows(rows, 'all', { key: 'openSlot', descending: false })).toHaveLength(4);
  });

  it('sorts by open slot, stake or state, ties in a stable order', () => {
    expect(addresses(visibleRows(rows, 'all', { key: 'openSlot', descending: true }))).toEqual(['B', 'D', 'C', 'A']);
    expect(addresses(visibleRows(rows, 'all', { key: 'stake', descending: false }))).toEqual(['B', 'C', 'D', 'A']);
    expect(addresses(visibleRows(rows, 'all', { key: 'state', descending: false }))).toEqual(['A', 'B', 'C', 'D']);
  });

  it('labels the cluster, saying when it is the embedded localnet', () => {
    expect(clusterLabel({ name: 'localnet', embedded: true, rpcUrl: '', wsUrl: '', genesisHash: null, wagerKeeperLocalnet: true })).toBe('localnet (embedded)');
    expect(clusterLabel({ name: 'devnet', embedded: false, rpcUrl: '', wsUrl: '', genesisHash: null, wagerKeeperLocalnet: false })).toBe('devnet');
    expect(clusterLabel(null)).toBe('no cluster');
  });
});
