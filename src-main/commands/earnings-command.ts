/**
 * `wager-keeper earnings [--db FILE] --since DATE [--until DATE] [--per day] [--csv]`: the keeper's earnings
 * for accounting, read from its SQLite file (also while the keeper runs: WAL readers never block it).
 * --csv prints the report (src-main/reports/earnings-report.ts: one row per crank, or per UTC day, and one
 * per sweep to the wallet); without it, one JSON line of the range's totals. A DATE is YYYY-MM-DD (UTC; an
 * --until date counts that whole day) or an ISO time (--until then excludes it).
 */
import { existsSync } from 'node:fs';
import { earningsReport, type ReportGranularity } from '../reports/earnings-report';
import { openDatabase } from '../store/database';
import { parseFlags, UsageError } from './cli-flags';
import { defaultDatabasePath } from './command-defaults';
import { DAY_MS } from '../../src-shared/units';

/** The flags of `earnings` (the usage text in cli.ts lists each; a test checks). */
export const EARNINGS_OPTIONS = {
  db: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  per: { type: 'string', default: 'crank' },
  csv: { type: 'boolean', default: false },
} as const;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A --since/--until value as Unix ms: a date is its UTC midnight (for --until, the next one: the whole day
 * counts); an ISO time is itself.
 * @example reportBound('since', '2026-11-01') // Date.UTC(2026, 10, 1)
 */
export function reportBound(flag: 'since' | 'until', text: string): number {
  const ms = DATE_ONLY.test(text)
    ? Date.parse(`${text}T00:00:00.000Z`)
    : /^\d{4}-\d{2}-\d{2}T/.test(text)
      ? Date.parse(text)
      : Number.NaN;
  if (!Number.isFinite(ms))
    throw new UsageError(
      `--${flag} ${text}: give a date as YYYY-MM-DD (UTC) or an ISO time such as 2026-11-01T12:00:00Z`,
    );
  return flag === 'until' && DATE_ONLY.test(text) ? ms + DAY_MS : ms;
}

export async function earningsCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, EARNINGS_OPTIONS);
  if (values.since === undefined)
    throw new UsageError('--since DATE is required (YYYY-MM-DD, UTC): the first day of the report');
  if (values.per !== 'crank' && values.per !== 'day')
    throw new UsageError(
      `--per ${values.per}: use --per day (one row per UTC day); without it, one row per crank`,
    );
  const sinceMs = reportBound('since', values.since);
  const untilMs = values.until === undefined ? Date.now() : reportBound('until', values.until);
  if (untilMs <= sinceMs)
    throw new UsageError(`--until must be after --since (got ${values.since} .. ${values.until})`);
  const path = values.db ?? defaultDatabasePath();
  // Never create a file that is not there: a mistyped --db would report an empty history as if it were one.
  if (!existsSync(path))
    throw new Error(
      `no keeper database at ${path}: pass the keeper's file with --db FILE (the ready line of keeper or serve prints it as "db")`,
    );
  const db = openDatabase(path);
  try {
    const report = earningsReport(db, { sinceMs, untilMs, per: values.per as ReportGranularity });
    if (report.notice) console.error(`wager-keeper earnings: ${report.notice}`);
    if (values.csv) process.stdout.write(report.csv);
    else
      console.log(
        JSON.stringify({
          since: new Date(sinceMs).toISOString(),
          until: new Date(untilMs).toISOString(),
          per: values.per,
          rows: report.rows,
          ...report.totals,
        }),
      );
    return 0;
  } finally {
    db.close();
  }
}
