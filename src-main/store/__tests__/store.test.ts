import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, transaction, type Database } from '../database';
import { createEarningsLedger } from '../earnings-ledger';
import { MIGRATIONS } from '../migrations';
import { createOracleLatencyLog } from '../oracle-latency';
import { createWagerRecordStore } from '../wager-records';

let dir: string;
let path: string;
let db: Database;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wk-store-'));
  path = join(dir, 'keeper.db');
  db = openDatabase(path);
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the keeper store', () => {
  it('is a WAL SQLite file with every migration applied exactly once, also when reopened', () => {
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    db.close();
    db = openDatabase(path);
    const versions = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[];
    expect(versions.map((v) => v.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('keeps a wager record across a reopen, with its fields as written', () => {
    const records = createWagerRecordStore(db, () => new Date('2026-11-22T10:00:00.123Z'));
    expect(records.insert('W1', { state: 'queued', openSlot: 100, expirySlot: 250 })).toBe(true);
    expect(records.insert('W1', { state: 'queued' })).toBe(false);
    records.update('W1', { state: 'settled', bucket: 1, payout: '1960000', settleSignature: 'sig', payoutPending: true });
    db.close();
    db = openDatabase(path);
    expect(createWagerRecordStore(db).get('W1')).toMatchObject({
      state: 'settled', openSlot: 100, expirySlot: 250, bucket: 1, payout: '1960000', settleSignature: 'sig', payoutPending: true,
      updatedAt: '2026-11-22T10:00:00.123Z',
    });
  });

  it('refuses a state outside the spec, and leaves the record as it was', () => {
    const records = createWagerRecordStore(db);
    records.insert('W2', { state: 'queued' });
    expect(() => records.update('W2', { state: 'bogus' as never })).toThrow(/CHECK constraint/);
    expect(records.get('W2')?.state).toBe('queued');
  });

  it('rolls a failed transaction back entirely: nothing half-written', () => {
    const records = createWagerRecordStore(db);
    expect(() =>
      transaction(db, () => {
        records.insert('W3', { state: 'queued' });
        records.insert('W4', { state: 'queued' });
        throw new Error('crash in the middle');
      }),
    ).toThrow('crash in the middle');
    expect(records.get('W3')).toBeUndefined();
    expect(records.get('W4')).toBeUndefined();
  });

  it('counts work by state and sums earnings and oracle latency for the console', () => {
    const records = createWagerRecordStore(db);
    records.insert('A', { state: 'queued' });
    records.insert('B', { state: 'requested' });
    records.insert('C', { state: 'settled' });
    expect(records.countByState(['queued', 'requested', 'fulfilled'])).toBe(2);
    expect(records.byState(['settled']).map((r) => r.address)).toEqual(['C']);

    const earnings = createEarningsLedger(db);
    earnings.record({ at: '2026-11-22T10:00:01.000Z', wager: 'A', step: 'request', signature: 's1', receivedLamports: 50_000, feeLamports: 5_000 });
    earnings.record({ at: '2026-11-22T10:00:59.000Z', wager: 'A', step: 'settle', signature: 's2', receivedLamports: 200_000, feeLamports: 5_000 });
    earnings.record({ at: '2026-11-22T10:01:10.000Z', wager: 'B', step: 'request', signature: 's3', receivedLamports: 50_000, feeLamports: 5_000 });
    expect(earnings.summary()).toEqual({ receivedLamports: 300_000, feeLamports: 15_000, cranks: 3 });
    expect(earnings.totals(Date.parse('2026-11-22T10:00:00Z'), 60_000)).toEqual([
      { bucketStart: Date.parse('2026-11-22T10:00:00Z'), receivedLamports: 250_000, feeLamports: 10_000, cranks: 2 },
      { bucketStart: Date.parse('2026-11-22T10:01:00Z'), receivedLamports: 50_000, feeLamports: 5_000, cranks: 1 },
    ]);

    const latency = createOracleLatencyLog(db);
    latency.record({ wager: 'A', requestedSlot: 102, fulfilledSlot: 103, at: '2026-11-22T10:00:02.000Z' });
    latency.record({ wager: 'B', requestedSlot: 110, fulfilledSlot: 140, at: '2026-11-22T10:00:30.000Z' });
    expect(latency.history(10).map((e) => [e.wager, e.slots])).toEqual([['B', 30], ['A', 1]]);
  });

  it('is readable by another connection while the keeper writes (WAL)', () => {
    createWagerRecordStore(db).insert('R', { state: 'queued' });
    const reader = new DatabaseSync(path, { readOnly: true });
    try {
      expect(reader.prepare('SELECT state FROM wagers WHERE address = ?').get('R')).toEqual({ state: 'queued' });
    } finally {
      reader.close();
    }
  });
});
