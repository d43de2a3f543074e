/**
 * What the console shows, as pure functions (tested in __tests__): amounts with their units, ages,
 * earnings arithmetic, runway, slot countdowns, and the queue's filters and sorting.
 */
import {
  ACTIVE_WAGER_STATES,
  REQUEST_DELAY_SLOTS,
  T_SETTLE_SLOTS,
  type ClusterView,
  type EarningsPoint,
  type QueueRow,
  type RunwayView,
} from '../../../src-main/operator/operator-interface';

export const LAMPORTS_PER_SOL = 1_000_000_000;
const USDC_BASE = 1_000_000n;

/** 1234500000 → "1.2345 SOL" (up to 9 decimals, trailing zeros trimmed, at least 2). */
export function formatSol(lamports: number | bigint | string): string {
  const value = BigInt(lamports);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / 1_000_000_000n;
  const fraction = (abs % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole.toLocaleString('en-US')}.${fraction} SOL`;
}

/** 12345 → "12,345 lamports". */
export const formatLamports = (lamports: number): string => `${Math.round(lamports).toLocaleString('en-US')} lamports`;

/** USDC base units → "1.50 USDC" (two decimals at least, more when the amount has them). */
export function formatUsdc(base: string | null): string {
  if (base === null) return '—';
  const value = BigInt(base);
  const whole = value / USDC_BASE;
  const fraction = (value % USDC_BASE).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole.toLocaleString('en-US')}.${fraction} USDC`;
}

/** Milliseconds ago → "0.4 s ago", "12 s ago", "3 min ago", "2 h ago"; 0 (never) → "never". */
export function formatAge(atMs: number, nowMs: number): string {
  if (!atMs) return 'never';
  const seconds = Math.max(0, (nowMs - atMs) / 1000);
  if (seconds < 10) return `${seconds.toFixed(1)} s ago`;
  if (seconds < 120) return `${Math.round(seconds)} s ago`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

/** "AbCd…WxYz" for long addresses and signatures (the full text stays in a title and the copy button). */
export const shorten = (text: string, keep = 4): string => (text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`);

/** Net earnings of a series: received − fees, and the crank count. */
export function sumEarnings(points: readonly EarningsPoint[]): { netLamports: number; cranks: number } {
  return points.reduce((sum, point) => ({ netLamports: sum.netLamports + point.receivedLamports - point.feeLamports, cranks: sum.cranks + point.cranks }), {
    netLamports: 0,
    cranks: 0,
  });
}

/** The series as a running total of net SOL (what the chart draws). */
export function cumulativeNetSol(points: readonly EarningsPoint[]): { bucketStart: number; netSol: number; cranks: number }[] {
  let total = 0;
  return points.map((point) => {
    total += point.receivedLamports - point.feeLamports;
    return { bucketStart: point.bucketStart, netSol: total / LAMPORTS_PER_SOL, cranks: point.cranks };
  });
}

/** "about 19,999 cranks at 5,000 lamports each". */
export const describeRunway = (runway: RunwayView): string =>
  `about ${runway.cranks.toLocaleString('en-US')} cranks at ${formatLamports(runway.lamportsPerCrank)} each`;

/** Local midnight of the day containing `nowMs` (the "today" of earnings and crank counts). */
export function startOfLocalDay(nowMs: number): number {
  const day = new Date(nowMs);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/** What the keeper does next for a row, and when, from the current slot. */
export interface NextStep {
  /** e.g. "request", "settle", "expire", "claim payout", "none". */
  step: string;
  /** e.g. "in 2 slots", "now", "retry in 8 s", "waiting for the oracle". */
  when: string;
  /** Slots left in the request window (queued) or to expiry (requested); null when it does not apply. */
  slotsLeft: number | null;
  slotsLeftLabel: string;
}

export function nextStepOf(row: QueueRow, slot: number | null, nowMs: number): NextStep {
  const backoff = row.nextAttemptAt > nowMs ? `retry in ${Math.ceil((row.nextAttemptAt - nowMs) / 1000)} s` : null;
  if (row.payoutPending) return { step: 'claim payout', when: backoff ?? 'now', slotsLeft: null, slotsLeftLabel: 'parked payout' };
  if (!ACTIVE_WAGER_STATES.includes(row.state)) return { step: 'none', when: row.state, slotsLeft: null, slotsLeftLabel: '—' };
  if (row.openSlot === null || slot === null) return { step: row.state === 'queued' ? 'request' : 'settle', when: backoff ?? '…', slotsLeft: null, slotsLeftLabel: '—' };
  const windowOpens = row.openSlot + REQUEST_DELAY_SLOTS;
  const expiry = row.expirySlot ?? row.openSlot + T_SETTLE_SLOTS;
  if (row.state !== 'fulfilled' && slot > expiry) return { step: 'expire', when: backoff ?? 'now', slotsLeft: 0, slotsLeftLabel: 'expirable' };
  if (row.state === 'queued') {
    if (slot < windowOpens) {
      const wait = windowOpens - slot;
      return { step: 'request', when: `in ${wait} slot${wait === 1 ? '' : 's'}`, slotsLeft: expiry - slot, slotsLeftLabel: `window opens in ${wait}` };
    }
    const left = expiry - slot;
    return { step: 'request', when: backoff ?? 'now', slotsLeft: left, slotsLeftLabel: `${left} slots to request` };
  }
  if (row.state === 'requested') {
    const left = expiry - slot;
    return { step: 'settle', when: backoff ?? 'waiting for the oracle', slotsLeft: left, slotsLeftLabel: `${left} slots to expiry` };
  }
  return { step: 'settle', when: backoff ?? 'now', slotsLeft: null, slotsLeftLabel: 'fulfilled' };
}

export type StateFilter = 'all' | 'queued' | 'requested' | 'fulfilled' | 'parked' | 'finished';
export type SortKey = 'openSlot' | 'state' | 'stake' | 'updatedAt';
export interface SortOrder {
  key: SortKey;
  descending: boolean;
}

const STATE_ORDER = ['queued', 'requested', 'fulfilled', 'settled', 'expired', 'unknown'];

export function matchesFilter(row: QueueRow, filter: StateFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'parked':
      return row.payoutPending;
    case 'finished':
      return !ACTIVE_WAGER_STATES.includes(row.state) && !row.payoutPending;
    default:
      return row.state === filter && !row.payoutPending;
  }
}

export function compareRows(a: QueueRow, b: QueueRow, key: SortKey): number {
  switch (key) {
    case 'openSlot':
      return (a.openSlot ?? 0) - (b.openSlot ?? 0);
    case 'state':
      return STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state);
    case 'stake': {
      const diff = BigInt(a.stake ?? '0') - BigInt(b.stake ?? '0');
      return diff === 0n ? 0 : diff < 0n ? -1 : 1;
    }
    case 'updatedAt':
      return a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : 0;
  }
}

/** Filter then sort (ties by address, so the order is stable as rows update). */
export function visibleRows(rows: Iterable<QueueRow>, filter: StateFilter, order: SortOrder): QueueRow[] {
  const kept = [...rows].filter((row) => matchesFilter(row, filter));
  const sign = order.descending ? -1 : 1;
  return kept.sort((a, b) => sign * compareRows(a, b, order.key) || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

/** "localnet (embedded)", "devnet", "custom". */
export const clusterLabel = (cluster: ClusterView | null): string =>
  cluster ? `${cluster.name}${cluster.embedded ? ' (embedded)' : ''}` : 'no cluster';
