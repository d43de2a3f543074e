/** Net earnings: received − fees, totals, the chart's running total and its accessible name. */
import { describe, expect, it } from 'vitest';
import type { EarningsPoint } from '@shared/contract/activity';
import { cumulativeNetSol, EARNINGS_RANGES, earningsSummary, netOf, sumEarnings } from '../earnings';

const points: EarningsPoint[] = [
  { bucketStart: 60_000, receivedLamports: 50_000, feeLamports: 5_000, netLamports: 45_000, cranks: 1 },
  { bucketStart: 0, receivedLamports: 250_000, feeLamports: 10_000, netLamports: 240_000, cranks: 2 },
  { bucketStart: 120_000, receivedLamports: 0, feeLamports: 5_000, netLamports: -5_000, cranks: 1 },
];

describe('earnings arithmetic', () => {
  it('nets the fees received against the transaction fees paid', () => {
    expect(netOf({ receivedLamports: 250_000, feeLamports: 10_000 })).toBe(240_000);
    expect(sumEarnings(points)).toEqual({ receivedLamports: 300_000, feeLamports: 20_000, netLamports: 280_000, cranks: 4 });
    expect(sumEarnings([])).toEqual({ receivedLamports: 0, feeLamports: 0, netLamports: 0, cranks: 0 });
  });

  it('draws the running total in SOL in time order, falling after a crank that only cost its fee', () => {
    expect(cumulativeNetSol(points).map((p) => [p.at, p.netSol, p.cranks])).toEqual([
      [0, 0.00024, 2],
      [60_000, 0.000285, 3],
      [120_000, 0.00028, 4],
    ]);
  });

  it('spans the whole range: 0 at its start, the total at now', () => {
    const chart = cumulativeNetSol(points.slice(0, 1), -60_000, 200_000);
    expect(chart).toEqual([
      { at: -60_000, netSol: 0, cranks: 0 },
      { at: 60_000, netSol: 0.000045, cranks: 1 },
      { at: 200_000, netSol: 0.000045, cranks: 1 },
    ]);
    expect(cumulativeNetSol([], 0, 1_000)).toEqual([
      { at: 0, netSol: 0, cranks: 0 },
      { at: 1_000, netSol: 0, cranks: 0 },
    ]);
  });

  it('names the chart with its total, crank count and range', () => {
    const [hour, day, week] = EARNINGS_RANGES;
    expect(earningsSummary(points, hour!)).toBe('Net earnings: 0.00028 SOL over 4 cranks in the last hour');
    expect(earningsSummary(points.slice(0, 1), day!)).toBe('Net earnings: 0.000045 SOL over 1 crank in the last 24 hours');
    expect(earningsSummary([], week!)).toBe('Net earnings: 0.00 SOL over 0 cranks in the last 7 days');
  });

  it('uses 1-minute buckets for the hour, 15-minute for the day, 2-hour for the week', () => {
    expect(EARNINGS_RANGES.map((r) => [r.label, r.spanMs / r.bucketMs])).toEqual([
      ['1 h', 60],
      ['24 h', 96],
      ['7 d', 84],
    ]);
  });
});
