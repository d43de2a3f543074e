/**
 * The alert history (issue 26): every firing, reminder and resolution, and the mutes in force, in its own
 * SQLite file `alerts.db` in the data folder (desktop: userData; headless: the folder of --db or
 * ~/.local/share/wager-keeper), so it survives cluster switches. WAL and synchronous=FULL with one
 * transaction per write (store/database.ts): a crash leaves nothing half-written.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openDatabase, type Database } from '../store/database';
import type { AlertHistoryEntry } from '../../src-shared/alert-types';
import type { AlertMessage, AlertName } from '../../src-shared/alert-types';

export const ALERT_HISTORY_FILE = 'alerts.db';
/** Rows kept: the console shows the last 200; older ones are trimmed as new ones come. */
const KEPT_ROWS = 5_000;

/** The schema, as numbered migrations (version = index + 1). Append only; never edit an applied one. */
export const ALERT_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE alert_history (
    id INTEGER PRIMARY KEY,
    alert TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('firing', 'resolved')),
    severity TEXT NOT NULL CHECK (severity IN ('warning', 'critical')),
    summary TEXT NOT NULL,
    at TEXT NOT NULL,
    reminder INTEGER NOT NULL DEFAULT 0,
    muted INTEGER NOT NULL DEFAULT 0,
    keeper TEXT,
    cluster TEXT
  );
  CREATE TABLE alert_mutes (
    alert TEXT PRIMARY KEY,
    until_ms INTEGER NOT NULL
  );
  `,
];

export interface AlertHistory {
  record(message: AlertMessage, muted: boolean): AlertHistoryEntry;
  /** Newest first. */
  recent(limit: number): AlertHistoryEntry[];
  setMute(alert: AlertName, untilMs: number | null): void;
  mutes(): Partial<Record<AlertName, number>>;
  close(): void;
}

interface HistoryRow {
  id: number;
  alert: AlertName;
  state: AlertHistoryEntry['state'];
  severity: AlertHistoryEntry['severity'];
  summary: string;
  at: string;
  reminder: number;
  muted: number;
}

export function alertHistoryPath(dataDirectory: string): string {
  return join(dataDirectory, ALERT_HISTORY_FILE);
}

export function openAlertHistory(path: string): AlertHistory {
  mkdirSync(dirname(path), { recursive: true });
  const db: Database = openDatabase(path, ALERT_MIGRATIONS);
  const insert = db.prepare('INSERT INTO alert_history (alert, state, severity, summary, at, reminder, muted, keeper, cluster) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const trim = db.prepare('DELETE FROM alert_history WHERE id <= ?');
  const select = db.prepare('SELECT id, alert, state, severity, summary, at, reminder, muted FROM alert_history ORDER BY id DESC LIMIT ?');
  const upsertMute = db.prepare('INSERT INTO alert_mutes (alert, until_ms) VALUES (?, ?) ON CONFLICT (alert) DO UPDATE SET until_ms = excluded.until_ms');
  const deleteMute = db.prepare('DELETE FROM alert_mutes WHERE alert = ?');
  const toEntry = (row: HistoryRow): AlertHistoryEntry => ({ ...row, reminder: row.reminder === 1, muted: row.muted === 1 });

  return {
    record(message, muted) {
      // One statement each: SQLite commits each in its own transaction.
      const { lastInsertRowid } = insert.run(message.alert, message.state, message.severity, message.summary, message.at, message.reminder ? 1 : 0, muted ? 1 : 0, message.keeper, message.cluster);
      const id = Number(lastInsertRowid);
      if (id > KEPT_ROWS) trim.run(id - KEPT_ROWS);
      return { id, alert: message.alert, state: message.state, severity: message.severity, summary: message.summary, at: message.at, reminder: Boolean(message.reminder), muted };
    },
    recent: (limit) => (select.all(limit) as unknown as HistoryRow[]).map(toEntry),
    setMute(alert, untilMs) {
      if (untilMs === null) deleteMute.run(alert);
      else upsertMute.run(alert, untilMs);
    },
    mutes: () => Object.fromEntries((db.prepare('SELECT alert, until_ms FROM alert_mutes').all() as { alert: AlertName; until_ms: number }[]).map((row) => [row.alert, row.until_ms])),
    close: () => db.close(),
  };
}
