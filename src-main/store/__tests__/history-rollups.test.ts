import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src-shared/units';
import { openDatabase, transaction, type Database } from '../database';
import { createEarningsLedger, type EarningsEntry } from '../earnings-ledger';
import { parseKeepHistory, pruneHistory } from '../history-retention';
import { MIGRATIONS } from '../migrations';
import { createStepLog } from '../step-log';
import { createStepTally } from '../step-tally';
import { createWagerRecordStore } from '../wager-records';

const NOW = Date.parse('2026-11-27T15:20:00.000Z');

let dir: string;
let db: Database;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wk-rollups-'));
});
afterEach(async () => {
  // The migration test closes and reopens: close whatever is still open.
  if (db?.isOpen) db.close();
  await rm(dir, { recursive: true, force: true });
});

/** 300 cranks, one every 30 minutes ending at NOW (about 6 days), with fees that differ per crank. */
const bookings = (): EarningsEntry[] =>
  Array.from({ length: 300 }, (_, i) => ({
    at: new Date(NOW - i * 1_800_000 - 7_000).toISOString(),
    wager: `W${i}`,
    step: i % 3 === 0 ? 'expire' : 'settle',
    signature: `sig${i}`,
    receivedLamports: 40_000 + i,
    feeLamports: 5_000 + (i % 7),
  }));

/** What the rows alone say (the pre-rollup query): the reference for every window. */
function fromRows(sinceMs: number): { receivedLamports: number; feeLamports: number; cranks: number } {
  const row = db
    .prepare(
      'SELECT COALESCE(SUM(received_lamports), 0) AS r, COALESCE(SUM(fee_lamports), 0) AS f, COUNT(*) AS n FROM earnings WHERE at >= ?',
    )
    .get(new Date(sinceMs).toISOString()) as { r: number; f: number; n: number };
  return { receivedLamports: Number(row.r), feeLamports: Number(row.f), cranks: Number(row.n) };
}

describe('earnings rollups', () => {
  it('are kept as each crank is booked: every window and chart bucket equals the rows, at any start time', () => {
    db = openDatabase(join(dir, 'keeper.db'));
    const ledger = createEarningsLedger(db);
    for (const entry of bookings()) ledger.record(entry);
    const rollupRows = (db.prepare('SELECT COUNT(*) AS n FROM earnings_hourly').get() as { n: number }).n;
    expect(Number(rollupRows)).toBeGreaterThan(100);
    for (const sinceMs of [0, NOW - DAY_MS, NOW - 7 * DAY_MS, NOW - 2 * DAY_MS - 1_234_567, NOW - 60_000])
      expect(ledger.summary(sinceMs), `since ${new Date(sinceMs).toISOString()}`).toEqual(fromRows(sinceMs));
    // The 7-day chart (2 h buckets, mostly from the rollup) and the 24 h one (15 min, rows only).
    for (const [sinceMs, bucketMs] of [
      [NOW - 7 * DAY_MS + 999_999, 7_200_000],
      [NOW - DAY_MS, 900_000],
    ] as const) {
      const points = ledger.totals(sinceMs, bucketMs);
      expect(points.reduce((sum, p) => sum + p.receivedLamports, 0)).toBe(fromRows(sinceMs).receivedLamports);
      expect(points.reduce((sum, p) => sum + p.cranks, 0)).toBe(fromRows(sinceMs).cranks);
      const starts = points.map((p) => p.bucketStart);
      expect(starts).toEqual([...new Set(starts)].sort((a, b) => a - b));
      for (const start of starts) expect(start % bucketMs).toBe(0);
    }
  });

  it('are backfilled from the rows of a file made before them, with the wagers counted by state', () => {
    const path = join(dir, 'old.db');
    db = openDatabase(path, MIGRATIONS.slice(0, 4));
    const ledger = {
      record: (e: EarningsEntry) =>
        db
          .prepare(
            'INSERT INTO earnings (at, wager, step, signature, received_lamports, fee_lamports) VALUES (?, ?, ?, ?, ?, ?)',
          )
          .run(e.at, e.wager, e.step, e.signature, e.receivedLamports, e.feeLamports),
    };
    for (const entry of bookings()) ledger.record(entry);
    const records = createWagerRecordStore(db, () => new Date(NOW));
    for (let i = 0; i < 30; i++)
      records.insert(`W${i}`, { state: i < 20 ? 'settled' : i < 25 ? 'expired' : 'queued' });
    const allBefore = fromRows(0);
    db.close();

    db = openDatabase(path);
    const upgraded = createEarningsLedger(db);
    expect(upgraded.summary()).toEqual(allBefore);
    expect(upgraded.summary(NOW - 3 * DAY_MS)).toEqual(fromRows(NOW - 3 * DAY_MS));
    expect(createWagerRecordStore(db).countsByState().states).toEqual({
      queued: 5,
      requested: 0,
      fulfilled: 0,
      settled: 20,
      expired: 5,
      unknown: 0,
    });
  });

  it('count crank steps per hour as they are logged: cranks today and the step table equal the rows, reasons included', () => {
    db = openDatabase(join(dir, 'keeper.db'));
    const steps = createStepLog(db);
    const outcomes = ['landed', 'landed', 'lost', 'skipped', 'failed'] as const;
    transaction(db, () => {
      for (let i = 0; i < 400; i++)
        steps.record({
          atMs: NOW - i * 700_000,
          wager: `W${i}`,
          step: i % 2 ? 'settle' : 'request',
          outcome: outcomes[i % 5]!,
          signature: null,
          error: i % 5 === 4 ? `boom ${i % 3}: detail` : i % 5 === 3 ? 'FeeAboveReward' : null,
        });
    });
    for (const sinceMs of [NOW - DAY_MS - 1_111_111, NOW - 2 * DAY_MS]) {
      const rows = db
        .prepare('SELECT outcome, step, error FROM crank_steps WHERE at_ms >= ?')
        .all(sinceMs) as { outcome: string; step: string; error: string | null }[];
      const counts = steps.countsSince(sinceMs);
      for (const outcome of ['landed', 'lost', 'skipped', 'failed'] as const)
        expect(counts[outcome]).toBe(rows.filter((r) => r.outcome === outcome).length);
      const settle = createStepTally(db)
        .since(sinceMs)
        .find((tally) => tally.step === 'settle')!;
      const settleRows = rows.filter((r) => r.step === 'settle');
      expect(settle.tried).toBe(settleRows.length);
      expect(settle.failed).toBe(settleRows.filter((r) => r.outcome === 'failed').length);
      expect(settle.failures.reduce((sum, f) => sum + f.count, 0)).toBe(settle.failed);
      expect(settle.skips).toEqual([{ reason: 'FeeAboveReward', count: settle.skipped }]);
    }
  });

  it('count wagers by state as they are inserted, change state and are deleted', () => {
    db = openDatabase(join(dir, 'keeper.db'));
    const records = createWagerRecordStore(db);
    records.insert('A', { state: 'queued' });
    records.insert('B', { state: 'queued' });
    records.update('A', { state: 'requested' });
    records.update('A', { attempts: 2 });
    records.update('B', { state: 'settled', payout: '0' });
    db.prepare("DELETE FROM wagers WHERE address = 'B'").run();
    expect(records.countsByState().states).toEqual({
      queued: 0,
      requested: 1,
      fulfilled: 0,
      settled: 0,
      expired: 0,
      unknown: 0,
    });
  });
});

describe('--keep-history', () => {
  it('reads 90d and 36h, and refuses anything else with the way to write it', () => {
    expect(parseKeepHistory('90d')).toBe(90 * DAY_MS);
    expect(parseKeepHistory('36h')).toBe(36 * 3_600_000);
    expect(parseKeepHistory('7')).toBe(7 * DAY_MS);
    for (const bad of ['0d', '-1d', '90 days', 'forever'])
      expect(() => parseKeepHistory(bad)).toThrow(/give a duration such as 90d/);
  });

  it('prunes old finished rows but keeps work in progress, parked payouts and the all-time figures', async () => {
    db = openDatabase(join(dir, 'keeper.db'));
    const ledger = createEarningsLedger(db);
    const steps = createStepLog(db);
    for (const entry of bookings()) {
      ledger.record(entry);
      steps.record({
        atMs: Date.parse(entry.at),
        wager: entry.wager,
        step: entry.step,
        outcome: 'landed',
        signature: entry.signature,
        error: null,
      });
    }
    let clock = NOW - 5 * DAY_MS;
    const records = createWagerRecordStore(db, () => new Date(clock));
    records.insert('old-settled', { state: 'settled', payout: '0' });
    records.insert('old-parked', { state: 'settled', payout: '5', payoutPending: true });
    records.insert('old-requested', { state: 'requested' });
    clock = NOW;
    records.insert('new-settled', { state: 'settled', payout: '0' });
    const allTime = ledger.summary();
    const weekFromRollup = ledger.summary(NOW - 7 * DAY_MS);

    const pruned = await pruneHistory(db, 2 * DAY_MS, NOW);

    expect(pruned.wagers).toBe(1);
    const older = bookings().filter((e) => Date.parse(e.at) < NOW - 2 * DAY_MS).length;
    expect(older).toBeGreaterThan(100);
    expect(pruned.earnings).toBe(older);
    expect(pruned.crankSteps).toBe(older);
    expect(fromRows(0).cranks).toBe(bookings().filter((e) => Date.parse(e.at) >= NOW - 2 * DAY_MS).length);
    expect(
      (
        db.prepare('SELECT COUNT(*) AS n FROM crank_steps WHERE at_ms < ?').get(NOW - 2 * DAY_MS) as {
          n: number;
        }
      ).n,
    ).toBe(0);
    expect(records.get('old-settled')).toBeUndefined();
    expect(records.get('old-parked')?.payoutPending).toBe(true);
    expect(records.get('old-requested')?.state).toBe('requested');
    // The all-time and whole-hour windows still come whole from the rollup.
    expect(ledger.summary()).toEqual(allTime);
    expect(ledger.summary(NOW - 7 * DAY_MS)).toEqual(weekFromRollup);
    expect(records.countsByState().states.settled).toBe(2);
  });
});
