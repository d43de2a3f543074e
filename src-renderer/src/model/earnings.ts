/** Earnings arithmetic for the Overview: net = received − fee, totals, the chart's running total and its wording. */
import type { EarningsPoint } from '@shared/contract/activity';
import { formatSol, LAMPORTS_PER_SOL } from './format';
import { HOUR_MS } from '@shared/units';

export interface EarningsRange {
  /** The range button's text. */
  label: string;
  /** How the chart's summary says it ("in the last hour"). */
  words: string;
  spanMs: number;
  bucketMs: number;
}

export const EARNINGS_RANGES: readonly EarningsRange[] = [
  { label: '1 h', words: 'hour', spanMs: HOUR_MS, bucketMs: 60_000 },
  { label: '24 h', words: '24 hours', spanMs: 24 * HOUR_MS, bucketMs: 15 * 60_000 },
  { label: '7 d', words: '7 days', spanMs: 7 * 24 * HOUR_MS, bucketMs: 2 * HOUR_MS },
];

/** Net of one bucket: what the keeper received minus the transaction fees it paid. */
export const netOf = (point: Pick<EarningsPoint, 'receivedLamports' | 'feeLamports'>): number => point.receivedLamports - point.feeLamports;

/** Totals of a series. */
export function sumEarnings(points: readonly EarningsPoint[]): { receivedLamports: number; feeLamports: number; netLamports: number; cranks: number } {
  let receivedLamports = 0;
  let feeLamports = 0;
  let cranks = 0;
  for (const point of points) {
    receivedLamports += point.receivedLamports;
    feeLamports += point.feeLamports;
    cranks += point.cranks;
  }
  return { receivedLamports, feeLamports, netLamports: receivedLamports - feeLamports, cranks };
}

export interface ChartPoint {
  at: number;
  /** Running total of net earnings since the start of the range, SOL. */
  netSol: number;
  cranks: number;
}

/**
 * The series as a running total of net SOL (what the chart draws), from 0 at `sinceMs` to the total at
 * `nowMs`, so the line spans the whole range even when cranks happened in one bucket only.
 */
export function cumulativeNetSol(points: readonly EarningsPoint[], sinceMs?: number, nowMs?: number): ChartPoint[] {
  const sorted = [...points].sort((a, b) => a.bucketStart - b.bucketStart);
  const chart: ChartPoint[] = [];
  if (sinceMs !== undefined && (sorted.length === 0 || sorted[0]!.bucketStart > sinceMs)) chart.push({ at: sinceMs, netSol: 0, cranks: 0 });
  let lamports = 0;
  let cranks = 0;
  for (const point of sorted) {
    lamports += netOf(point);
    cranks += point.cranks;
    chart.push({ at: point.bucketStart, netSol: lamports / LAMPORTS_PER_SOL, cranks });
  }
  if (nowMs !== undefined && (chart.length === 0 || chart[chart.length - 1]!.at < nowMs)) chart.push({ at: nowMs, netSol: lamports / LAMPORTS_PER_SOL, cranks });
  return chart;
}

/** "Net earnings: 0.00123 SOL over 5 cranks in the last hour" (the chart's accessible name and caption). */
export function earningsSummary(points: readonly EarningsPoint[], range: EarningsRange): string {
  const total = sumEarnings(points);
  return `Net earnings: ${formatSol(total.netLamports)} over ${total.cranks} ${total.cranks === 1 ? 'crank' : 'cranks'} in the last ${range.words}`;
}
