/**
 * The Queue screen's logic as pure functions: slot countdowns and the next step of a wager, state filters,
 * sorting, and the queue index that live record batches merge into (O(changes) per batch).
 */
import { ACTIVE_WAGER_STATES, type WagerState } from '@shared/crank-vocabulary';
import { FINISHED_ROW_TTL_MS, type QueueRow } from '@shared/contract/activity';
import { expiresAt, requestOpensAt } from '@shared/wager-timing';
import { formatDuration, formatSlots, formatUsdc } from './format';

/** Settled, expired or unknown, with no parked payout left to claim: the keeper has nothing more to do. */
export const isFinished = (row: Pick<QueueRow, 'state' | 'payoutPending'>): boolean => !ACTIVE_WAGER_STATES.includes(row.state) && !row.payoutPending;

/** What the keeper does next for a row, and when, from the current slot. */
export interface NextStep {
  /** "request", "settle", "expire", "claim payout", or "none" (finished). */
  step: 'request' | 'settle' | 'expire' | 'claim payout' | 'none';
  /** "in 2 slots", "now", "waiting for the oracle", "retry in 8 s"; for a finished row its state. */
  when: string;
  /** Slots left in the request window (queued) or to expiry (requested); null when it does not apply. */
  slotsLeft: number | null;
  /** The "slots left" column: "request window opens in 2 slots", "140 slots left to request", … */
  slotsLeftLabel: string;
  /** "retry in 8 s" while the keeper backs off after a failure; null otherwise. */
  backoff: string | null;
}

/** "retry in 8 s" while `nextAttemptAt` is ahead of now, else null. */
export const backoffOf = (nextAttemptAt: number, nowMs: number): string | null =>
  nextAttemptAt > nowMs ? `retry in ${Math.ceil((nextAttemptAt - nowMs) / 1000)} s` : null;

/**
 * The request window is open+2 .. expiry (open+150): before it "request window opens in N slots", in it
 * "N slots left to request"; a requested wager is "waiting for the oracle" with "N slots to expiry"; a
 * fulfilled one is "settling" (even past expiry); an unfulfilled one past expiry is "expirable now".
 */
export function nextStepOf(row: QueueRow, slot: number | null, nowMs: number): NextStep {
  const backoff = backoffOf(row.nextAttemptAt, nowMs);
  if (row.payoutPending) return { step: 'claim payout', when: backoff ?? 'now', slotsLeft: null, slotsLeftLabel: 'payout parked', backoff };
  if (isFinished(row)) return { step: 'none', when: row.state, slotsLeft: null, slotsLeftLabel: '—', backoff: null };
  const fallbackStep = row.state === 'queued' ? 'request' : 'settle';
  if (row.openSlot === null || slot === null) return { step: fallbackStep, when: backoff ?? '…', slotsLeft: null, slotsLeftLabel: '—', backoff };

  const windowOpens = requestOpensAt(row.openSlot);
  const expiry = row.expirySlot ?? expiresAt(row.openSlot);
  if (row.state === 'fulfilled') return { step: 'settle', when: backoff ?? 'now', slotsLeft: null, slotsLeftLabel: 'settling', backoff };
  if (slot > expiry) return { step: 'expire', when: backoff ?? 'now', slotsLeft: 0, slotsLeftLabel: 'expirable now', backoff };
  const left = expiry - slot;
  if (row.state === 'queued') {
    if (slot < windowOpens) {
      const wait = windowOpens - slot;
      return { step: 'request', when: `in ${formatSlots(wait)}`, slotsLeft: left, slotsLeftLabel: `request window opens in ${formatSlots(wait)}`, backoff };
    }
    return { step: 'request', when: backoff ?? 'now', slotsLeft: left, slotsLeftLabel: `${formatSlots(left)} left to request`, backoff };
  }
  // requested: the oracle's answer makes it settleable; past expiry it is expirable instead.
  return { step: 'settle', when: backoff ?? 'waiting for the oracle', slotsLeft: left, slotsLeftLabel: `${formatSlots(left)} to expiry`, backoff };
}

// ---- filters and sorting

export type StateFilter = 'all' | 'queued' | 'requested' | 'fulfilled' | 'parked' | 'finished';
export const STATE_FILTERS: readonly { value: StateFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'queued', label: 'queued' },
  { value: 'requested', label: 'requested' },
  { value: 'fulfilled', label: 'fulfilled' },
  { value: 'parked', label: 'parked payout' },
  { value: 'finished', label: 'finished (last 10 min)' },
];

export type SortKey = 'openSlot' | 'state' | 'stake' | 'updatedAt';
export interface SortOrder {
  key: SortKey;
  descending: boolean;
}

/** Clicking a column header: the same column flips the direction, another one sorts by it (descending first). */
export const toggleSort = (order: SortOrder, key: SortKey): SortOrder => ({ key, descending: order.key === key ? !order.descending : true });

const STATE_RANK: Record<WagerState, number> = { queued: 0, requested: 1, fulfilled: 2, settled: 3, expired: 4, unknown: 5 };

export function matchesFilter(row: QueueRow, filter: StateFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'parked':
      return row.payoutPending;
    case 'finished':
      return isFinished(row);
    default:
      return row.state === filter && !row.payoutPending;
  }
}

/** The address search over the rows: any of its addresses (wager, paytable, oracle request, transactions) contains the text, case-insensitively. */
export function matchesSearch(row: QueueRow, search: string): boolean {
  const text = search.trim().toLowerCase();
  if (text === '') return true;
  return [row.address, row.paytable, row.paytableName, row.oracleRequest, row.requestSignature, row.settleSignature, row.expireSignature, row.claimSignature].some(
    (value) => value !== null && value.toLowerCase().includes(text),
  );
}

/** The value a row sorts by (numbers or ISO strings, computed once per row, not per comparison). */
function sortValue(row: QueueRow, key: SortKey): number | string {
  switch (key) {
    case 'openSlot':
      return row.openSlot ?? -1;
    case 'state':
      // A parked payout sorts with the settled ones it belongs to, just before them.
      return row.payoutPending ? STATE_RANK.settled - 0.5 : STATE_RANK[row.state];
    case 'stake':
      // USDC base units: a Number orders them exactly up to 2^53 (9 billion USDC).
      return row.stake === null ? -1 : Number(row.stake);
    case 'updatedAt':
      return row.updatedAt; // ISO 8601 strings sort as times
  }
}

/** Filter then sort (ties by address, so the order is stable while rows update). */
export function visibleRows(rows: Iterable<QueueRow>, filter: StateFilter, order: SortOrder, search = ''): QueueRow[] {
  const keyed: { row: QueueRow; value: number | string }[] = [];
  for (const row of rows) if (matchesFilter(row, filter) && matchesSearch(row, search)) keyed.push({ row, value: sortValue(row, order.key) });
  const sign = order.descending ? -1 : 1;
  keyed.sort((a, b) => {
    if (a.value !== b.value) return a.value < b.value ? -sign : sign;
    return a.row.address < b.row.address ? -1 : a.row.address > b.row.address ? 1 : 0;
  });
  return keyed.map((entry) => entry.row);
}

/** How many rows are still being worked on and how many finished (for "N wagers (M in progress)"). */
export function countRows(rows: Iterable<QueueRow>): { total: number; inProgress: number; finished: number } {
  let total = 0;
  let finished = 0;
  for (const row of rows) {
    total++;
    if (isFinished(row)) finished++;
  }
  return { total, inProgress: total - finished, finished };
}

// ---- the queue index (what the ['queue'] query caches)

/**
 * The queue as the cache keeps it: a Map by address, mutated in place by each batch (O(changes)), in a new
 * wrapper each time (a new `version`) so that React and TanStack Query see the change.
 */
export interface QueueIndex {
  rows: Map<string, QueueRow>;
  version: number;
  /**
   * What the last version changed: the rows of the batch, and whether it added or removed any (null:
   * unknown, e.g. a fresh read). Lets the sorted view update in place instead of sorting again.
   */
  lastBatch: { rows: readonly QueueRow[]; addedOrRemoved: boolean } | null;
}

export const indexQueue = (rows: readonly QueueRow[]): QueueIndex => ({
  rows: new Map(rows.map((row) => [row.address, row])),
  version: 0,
  lastBatch: null,
});

/** A finished row stays for FINISHED_ROW_TTL_MS after its last change (so a cranker sees it end), then leaves. */
export const isExpiredFromList = (row: QueueRow, nowMs: number): boolean => isFinished(row) && nowMs - Date.parse(row.updatedAt) > FINISHED_ROW_TTL_MS;

/** Folds one batch of records in: each replaces its row by address (or leaves when its time in the list is up). */
export function mergeRecords(index: QueueIndex, records: readonly QueueRow[], nowMs: number): QueueIndex {
  let addedOrRemoved = false;
  const kept: QueueRow[] = [];
  for (const row of records) {
    if (isExpiredFromList(row, nowMs)) addedOrRemoved = index.rows.delete(row.address) || addedOrRemoved;
    else {
      if (!index.rows.has(row.address)) addedOrRemoved = true;
      index.rows.set(row.address, row);
      kept.push(row);
    }
  }
  return { rows: index.rows, version: index.version + 1, lastBatch: { rows: kept, addedOrRemoved } };
}

/** Folds in the rows that are at least as new as the index's own (by updatedAt) or missing from it: batches that raced a fresh read. */
export function mergeNewer(index: QueueIndex, records: readonly QueueRow[], nowMs: number): QueueIndex {
  const newer = records.filter((row) => {
    const known = index.rows.get(row.address);
    return !known || row.updatedAt >= known.updatedAt;
  });
  return newer.length ? mergeRecords(index, newer, nowMs) : index;
}

/**
 * Drops finished rows past their time in the list, and the oldest finished ones beyond `maxFinished` (the
 * core lists up to 500). O(rows): run it now and then, not per batch. Returns the same index when nothing left.
 */
export function pruneFinished(index: QueueIndex, nowMs: number, maxFinished = 500): QueueIndex {
  const finished: QueueRow[] = [];
  let removed = 0;
  for (const row of index.rows.values()) {
    if (!isFinished(row)) continue;
    if (isExpiredFromList(row, nowMs)) {
      index.rows.delete(row.address);
      removed++;
    } else finished.push(row);
  }
  if (finished.length > maxFinished) {
    finished.sort((a, b) => (a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : 0));
    for (const row of finished.slice(0, finished.length - maxFinished)) {
      index.rows.delete(row.address);
      removed++;
    }
  }
  return removed === 0 ? index : { rows: index.rows, version: index.version + 1, lastBatch: null };
}

// ---- the sorted, filtered view the table shows

export interface QueueView {
  rows: QueueRow[];
  /** Address → index in `rows`. */
  position: Map<string, number>;
  filter: StateFilter;
  order: SortOrder;
  /** The address search the rows passed. */
  search: string;
  /** The index version this view shows. */
  version: number;
}

/**
 * The table's rows for `index`, `filter` and `order`. When `previous` showed the version just before and
 * the last batch only changed rows in place (same filter membership, same sort value: e.g. a state change
 * while sorted by open slot), the rows are replaced where they stand: O(rows copied + changes), no sort.
 * Otherwise filter and sort again.
 */
export function queueView(previous: QueueView | null, index: QueueIndex, filter: StateFilter, order: SortOrder, search = ''): QueueView {
  const batch = index.lastBatch;
  if (
    previous &&
    batch &&
    !batch.addedOrRemoved &&
    previous.version === index.version - 1 &&
    previous.filter === filter &&
    previous.search === search &&
    previous.order.key === order.key &&
    previous.order.descending === order.descending
  ) {
    const rows = previous.rows.slice();
    let inPlace = true;
    for (const row of batch.rows) {
      const at = previous.position.get(row.address);
      const shown = matchesFilter(row, filter) && matchesSearch(row, search);
      if (at === undefined) {
        if (shown) inPlace = false; // enters the filter: it needs a place
      } else if (!shown || sortValue(row, order.key) !== sortValue(rows[at]!, order.key)) inPlace = false;
      else rows[at] = row;
      if (!inPlace) break;
    }
    if (inPlace) return { rows, position: previous.position, filter, order, search, version: index.version };
  }
  const rows = visibleRows(index.rows.values(), filter, order, search);
  return { rows, position: new Map(rows.map((row, at) => [row.address, at])), filter, order, search, version: index.version };
}

// ---- how a finished wager ended, and the CSV of what is shown

/** A finished row's outcome: "bucket 1 · 1.96 USDC", "parked: 1.96 USDC", "expired", "unknown"; "—" while in progress. */
export function outcomeOf(row: QueueRow): string {
  if (row.payoutPending) return `parked: ${formatUsdc(row.payout)}`;
  if (row.state === 'settled') return `bucket ${row.bucket ?? '—'} · ${formatUsdc(row.payout)}`;
  if (row.state === 'expired') return 'expired';
  if (row.state === 'unknown') return 'unknown';
  return '—';
}

/**
 * From open to settle (or expiry), for a finished row: the slots from the open slot to the randomness'
 * fulfilment (settlement follows it at once) when the record has them, and the seconds from when the
 * keeper first saw the wager to its last change (its end). Null while in progress.
 */
export function settleTimeOf(row: QueueRow): { slots: number | null; ms: number } | null {
  if (!isFinished(row) && !row.payoutPending) return null;
  const slots = row.openSlot !== null && row.fulfilledSlot !== null ? row.fulfilledSlot - row.openSlot : row.state === 'expired' && row.openSlot !== null && row.expirySlot !== null ? row.expirySlot - row.openSlot : null;
  return { slots, ms: Math.max(0, Date.parse(row.updatedAt) - Date.parse(row.createdAt)) };
}

/** "12 slots · 4.8 s", "4.8 s", or "—". */
export function formatSettleTime(time: { slots: number | null; ms: number } | null): string {
  if (!time) return '—';
  const seconds = time.ms < 60_000 ? `${(time.ms / 1000).toFixed(1)} s` : formatDuration(time.ms);
  return time.slots === null ? seconds : `${formatSlots(time.slots)} · ${seconds}`;
}

export const QUEUE_CSV_HEADER = [
  'wager',
  'state',
  'paytable',
  'stake_usdc',
  'open_slot',
  'expiry_slot',
  'bucket',
  'payout_usdc',
  'payout_parked',
  'settle_slots',
  'settle_seconds',
  'attempts',
  'last_error',
  'created_at',
  'updated_at',
] as const;

/** Base units as a plain decimal (6 places), for spreadsheets: no thousands separators, no unit. */
const usdcDecimal = (base: string | null): string => {
  if (base === null) return '';
  const value = BigInt(base);
  return `${value / 1_000_000n}.${(value % 1_000_000n).toString().padStart(6, '0')}`;
};

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; a leading =+-@ is prefixed so a spreadsheet does not run it. */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (/^[=+\-@]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows as shown (filtered, searched, sorted) as CSV with a header row; lines end with CRLF. */
export function queueCsv(rows: readonly QueueRow[]): string {
  const lines = [QUEUE_CSV_HEADER.join(',')];
  for (const row of rows) {
    const time = settleTimeOf(row);
    lines.push(
      [
        row.address,
        row.payoutPending ? 'parked payout' : row.state,
        row.paytableName ?? row.paytable,
        usdcDecimal(row.stake),
        row.openSlot,
        row.expirySlot,
        row.bucket,
        usdcDecimal(row.payout),
        row.payoutPending,
        time?.slots ?? null,
        time ? (time.ms / 1000).toFixed(1) : null,
        row.attempts,
        row.lastError,
        row.createdAt,
        row.updatedAt,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
