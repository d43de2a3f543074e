/**
 * The keeper's SQLite file (node:sqlite, no native build): WAL journal so readers never block the loop,
 * synchronous=FULL so a committed record survives a crash, and numbered migrations applied in one
 * transaction each. Every write that must be all-or-nothing goes through `transaction`.
 */
import { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS } from './migrations';

export type Database = DatabaseSync;

/** Opens (creating) a SQLite file and applies `migrations` (the keeper's by default; the gateway has its own). */
export function openDatabase(path: string, migrations: readonly string[] = MIGRATIONS): Database {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  migrate(db, migrations);
  return db;
}

function migrate(db: Database, migrations: readonly string[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((row) => row.version),
  );
  for (const [index, sql] of migrations.entries()) {
    const version = index + 1;
    if (applied.has(version)) continue;
    transaction(db, () => {
      db.exec(sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString());
    });
  }
}

/** Runs `work` in one IMMEDIATE transaction: all of it is committed, or none of it. */
export function transaction<T>(db: Database, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
