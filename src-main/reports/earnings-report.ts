/**
 * The earnings report for accounting (issue 28): one row per crank booked (UTC time, step, wager,
 * signature, fee earned, fee spent, net) or one row per UTC day, with each sweep to the operator's wallet
 * as its own row (its fee is spent, its amount is in `sent_to_wallet_sol`). Amounts in SOL with 9 decimals.
 * `wager-keeper earnings --csv` and the console's Download CSV both write it with this module.
 *
 * Per-crank rows come from the earnings bookings, which `--keep-history` prunes; per-day rows come from the
 * hourly rollup, which it keeps. A per-crank report over a pruned range says how many cranks it lacks.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from '../store/database';
import { baseUnitsDecimal, csvDocument } from '../../src-shared/csv';
import { DAY_MS, HOUR_MS } from '../../src-shared/units';

export type ReportGranularity = 'crank' | 'day';

export interface EarningsReportRange {
  /** Unix ms, inclusive. */
  sinceMs: number;
  /** Unix ms, exclusive. */
  untilMs: number;
  per: ReportGranularity;
  /** Refuse a per-crank report of more rows than this (the console's limit: it reads on the keeper's thread). */
  maxCrankRows?: number;
}

export interface EarningsReport {
  csv: string;
  /** Data rows (no header). */
  rows: number;
  /** Sums of the rows, in lamports (sweeps' fees are in spent and net). */
  totals: {
    cranks: number;
    earnedLamports: number;
    spentLamports: number;
    netLamports: number;
    sweeps: number;
    sentToWalletLamports: number;
  };
  /** Set when rows of the range were pruned (`--keep-history`): what is missing and what to do. */
  notice: string | null;
}

export const CRANK_COLUMNS = [
  'time_utc',
  'kind',
  'step',
  'wager',
  'signature',
  'fee_earned_sol',
  'fee_spent_sol',
  'net_sol',
  'sent_to_wallet_sol',
] as const;
export const DAY_COLUMNS = [
  'date_utc',
  'cranks',
  'fee_earned_sol',
  'fee_spent_sol',
  'net_sol',
  'sweeps',
  'sent_to_wallet_sol',
] as const;

/**
 * Lamports as SOL with exactly 9 decimals, from integers only (no float rounding).
 * @example sol(1_500_000_001) // '1.500000001'; sol(-5000) // '-0.000005000'
 */
export const sol = (lamports: number | bigint): string => baseUnitsDecimal(lamports, 9);

const iso = (ms: number) => new Date(ms).toISOString();

interface SweepRow {
  at_ms: number;
  sent_lamports: number;
  fee_lamports: number;
  signature: string;
}

/** The sweeps of the range (another part of the keeper writes this table; absent in an older file: none). */
function sweepsIn(db: Database, sinceMs: number, untilMs: number): SweepRow[] {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sweeps'").get();
  if (!exists) return [];
  return db
    .prepare(
      'SELECT at_ms, sent_lamports, fee_lamports, signature FROM sweeps WHERE at_ms >= ? AND at_ms < ? ORDER BY at_ms, id',
    )
    .all(sinceMs, untilMs) as unknown as SweepRow[];
}

/** Cranks the rollup counts in the range before the oldest booking still kept: pruned ones. */
function prunedCranks(
  db: Database,
  sinceMs: number,
  untilMs: number,
): { cranks: number; keptFromMs: number | null } {
  const oldest = db.prepare('SELECT MIN(at) AS at FROM earnings').get() as { at: string | null };
  const keptFromMs = oldest.at === null ? null : Date.parse(oldest.at);
  // Whole hours before the oldest kept booking's hour (that hour itself may be partly pruned: not counted).
  const end = Math.min(untilMs, keptFromMs === null ? untilMs : Math.floor(keptFromMs / HOUR_MS) * HOUR_MS);
  if (end <= sinceMs) return { cranks: 0, keptFromMs };
  const row = db
    .prepare('SELECT COALESCE(SUM(cranks), 0) AS n FROM earnings_hourly WHERE hour_ms >= ? AND hour_ms < ?')
    .get(sinceMs, end) as { n: number };
  return { cranks: Number(row.n), keptFromMs };
}

/** The report, read at once (the CLI: nothing else runs on its thread). */
export function earningsReport(db: Database, range: EarningsReportRange): EarningsReport {
  const { sweeps, totals } = begin(db, range);
  if (range.per === 'day') return perDay(db, range, sweeps, totals);
  checkCrankRows(db, range);
  return perCrank(db, range, readCranks(db, range.sinceMs, range.untilMs), sweeps, totals);
}

/**
 * The same report for a running keeper (the console): per-crank rows are read in pages with the event loop
 * let go between them, so a long range never holds the crank loop for more than a page.
 */
export async function earningsReportYielding(
  db: Database,
  range: EarningsReportRange,
): Promise<EarningsReport> {
  const { sweeps, totals } = begin(db, range);
  if (range.per === 'day') return perDay(db, range, sweeps, totals);
  checkCrankRows(db, range);
  const cranks: CrankRow[] = [];
  const page = db.prepare(
    `SELECT id, at, step, wager, signature, received_lamports AS received, fee_lamports AS fee FROM earnings
      WHERE (at > ? OR (at = ? AND id > ?)) AND at < ? ORDER BY at, id LIMIT ?`,
  );
  let after = { at: new Date(range.sinceMs - 1).toISOString(), id: Number.MAX_SAFE_INTEGER };
  for (;;) {
    const rows = page.all(
      after.at,
      after.at,
      after.id,
      iso(range.untilMs),
      PAGE_ROWS,
    ) as unknown as (CrankRow & { id: number })[];
    cranks.push(...rows.filter((row) => Date.parse(row.at) >= range.sinceMs));
    if (rows.length < PAGE_ROWS) break;
    const last = rows[rows.length - 1]!;
    after = { at: last.at, id: Number(last.id) };
    await nextTurn();
  }
  return perCrank(db, range, cranks, sweeps, totals);
}

/** Rows per page of a yielding read: a few milliseconds each. */
const PAGE_ROWS = 5_000;

interface CrankRow {
  at: string;
  step: string;
  wager: string | null;
  signature: string | null;
  received: number;
  fee: number;
}

function begin(
  db: Database,
  range: EarningsReportRange,
): { sweeps: SweepRow[]; totals: EarningsReport['totals'] } {
  const { sinceMs, untilMs } = range;
  if (!(untilMs > sinceMs)) throw new Error('the report range is empty: --until must be after --since');
  const totals = {
    cranks: 0,
    earnedLamports: 0,
    spentLamports: 0,
    netLamports: 0,
    sweeps: 0,
    sentToWalletLamports: 0,
  };
  const sweeps = sweepsIn(db, sinceMs, untilMs);
  for (const sweep of sweeps) {
    totals.sweeps += 1;
    totals.spentLamports += Number(sweep.fee_lamports);
    totals.netLamports -= Number(sweep.fee_lamports);
    totals.sentToWalletLamports += Number(sweep.sent_lamports);
  }
  return { sweeps, totals };
}

function checkCrankRows(db: Database, { sinceMs, untilMs, maxCrankRows }: EarningsReportRange): void {
  if (maxCrankRows === undefined) return;
  // Counted from the hourly rollup (the hours the range touches): cheap, and at least the rows it would read.
  const { n } = db
    .prepare('SELECT COALESCE(SUM(cranks), 0) AS n FROM earnings_hourly WHERE hour_ms >= ? AND hour_ms < ?')
    .get(Math.floor(sinceMs / HOUR_MS) * HOUR_MS, untilMs) as { n: number };
  if (Number(n) > maxCrankRows)
    throw new Error(
      `${Number(n)} cranks in this range, more than the ${maxCrankRows} a per-crank download takes here: choose a shorter range, download per day, or run \`wager-keeper earnings --since DATE --csv\` on this machine`,
    );
}

function readCranks(db: Database, sinceMs: number, untilMs: number): CrankRow[] {
  return db
    .prepare(
      'SELECT at, step, wager, signature, received_lamports AS received, fee_lamports AS fee FROM earnings WHERE at >= ? AND at < ? ORDER BY at, id',
    )
    .all(iso(sinceMs), iso(untilMs)) as unknown as CrankRow[];
}

function perCrank(
  db: Database,
  { sinceMs, untilMs }: EarningsReportRange,
  cranks: CrankRow[],
  sweeps: SweepRow[],
  totals: EarningsReport['totals'],
): EarningsReport {
  const rows: { atMs: number; cells: string[] }[] = [];
  for (const crank of cranks) {
    const received = Number(crank.received);
    const fee = Number(crank.fee);
    totals.cranks += 1;
    totals.earnedLamports += received;
    totals.spentLamports += fee;
    totals.netLamports += received - fee;
    rows.push({
      atMs: Date.parse(crank.at),
      cells: [
        crank.at,
        'crank',
        crank.step,
        crank.wager ?? '',
        crank.signature ?? '',
        sol(received),
        sol(fee),
        sol(received - fee),
        sol(0),
      ],
    });
  }
  for (const sweep of sweeps) {
    const fee = Number(sweep.fee_lamports);
    rows.push({
      atMs: Number(sweep.at_ms),
      cells: [
        iso(Number(sweep.at_ms)),
        'sweep',
        'sweep',
        '',
        sweep.signature,
        sol(0),
        sol(fee),
        sol(-fee),
        sol(Number(sweep.sent_lamports)),
      ],
    });
  }
  // Stable: cranks keep their booking order, a sweep comes after the cranks of its millisecond.
  rows.sort((a, b) => a.atMs - b.atMs);
  const pruned = prunedCranks(db, sinceMs, untilMs);
  const notice =
    pruned.cranks > 0
      ? `${pruned.cranks} crank(s) of this range were pruned by --keep-history (rows are kept from ${pruned.keptFromMs === null ? 'no date: none is kept' : iso(pruned.keptFromMs)}): download the report per day for the whole range, its totals are kept`
      : null;
  return {
    csv: csvDocument(
      CRANK_COLUMNS,
      rows.map((row) => row.cells),
    ),
    rows: rows.length,
    totals,
    notice,
  };
}

function perDay(
  db: Database,
  { sinceMs, untilMs }: EarningsReportRange,
  sweeps: SweepRow[],
  totals: EarningsReport['totals'],
): EarningsReport {
  const days = new Map<
    number,
    { cranks: number; earned: number; spent: number; sweeps: number; sent: number }
  >();
  const day = (atMs: number) => {
    const start = Math.floor(atMs / DAY_MS) * DAY_MS;
    let sums = days.get(start);
    if (!sums) days.set(start, (sums = { cranks: 0, earned: 0, spent: 0, sweeps: 0, sent: 0 }));
    return sums;
  };
  const book = (atMs: number, cranks: number, received: number, fee: number) => {
    const sums = day(atMs);
    sums.cranks += cranks;
    sums.earned += received;
    sums.spent += fee;
    totals.cranks += cranks;
    totals.earnedLamports += received;
    totals.spentLamports += fee;
    totals.netLamports += received - fee;
  };
  // Whole hours from the rollup (kept whatever --keep-history prunes); the bookings only for the part
  // hours at either end of a range that does not start or end on the hour.
  const firstHour = Math.ceil(sinceMs / HOUR_MS) * HOUR_MS;
  const endHour = Math.max(firstHour, Math.floor(untilMs / HOUR_MS) * HOUR_MS);
  const hours = db
    .prepare(
      'SELECT hour_ms, SUM(cranks) AS n, SUM(received_lamports) AS r, SUM(fee_lamports) AS f FROM earnings_hourly WHERE hour_ms >= ? AND hour_ms < ? GROUP BY hour_ms',
    )
    .all(firstHour, endHour) as { hour_ms: number; n: number; r: number; f: number }[];
  for (const hour of hours) book(Number(hour.hour_ms), Number(hour.n), Number(hour.r), Number(hour.f));
  const edge = db.prepare(
    'SELECT at, received_lamports AS r, fee_lamports AS f FROM earnings WHERE at >= ? AND at < ?',
  );
  const edges: [number, number][] = [
    [sinceMs, Math.min(firstHour, untilMs)],
    [Math.max(endHour, sinceMs), untilMs],
  ];
  for (const [from, to] of edges) {
    if (to <= from) continue;
    for (const row of edge.all(iso(from), iso(to)) as { at: string; r: number; f: number }[])
      book(Date.parse(row.at), 1, Number(row.r), Number(row.f));
  }
  for (const sweep of sweeps) {
    const sums = day(Number(sweep.at_ms));
    sums.sweeps += 1;
    sums.spent += Number(sweep.fee_lamports);
    sums.sent += Number(sweep.sent_lamports);
  }
  const rows = [...days.entries()]
    .sort(([a], [b]) => a - b)
    .map(([start, sums]) => [
      iso(start).slice(0, 10),
      String(sums.cranks),
      sol(sums.earned),
      sol(sums.spent),
      sol(sums.earned - sums.spent),
      String(sums.sweeps),
      sol(sums.sent),
    ]);
  return { csv: csvDocument(DAY_COLUMNS, rows), rows: rows.length, totals, notice: null };
}
