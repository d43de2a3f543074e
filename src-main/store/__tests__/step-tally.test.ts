import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../database';
import { createEarningsLedger } from '../earnings-ledger';
import { createStepLog } from '../step-log';
import { createStepTally, failureReason } from '../step-tally';

let dir: string;
let db: Database;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wk-tally-'));
  db = openDatabase(join(dir, 'keeper.db'));
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the per-step tally', () => {
  it('counts each step by outcome and reason inside the window, with its fees earned and spent', () => {
    const log = createStepLog(db);
    const ledger = createEarningsLedger(db);
    const now = Date.parse('2026-11-26T12:00:00Z');
    const hourAgo = now - 3_600_000;
    const entry = (atMs: number, step: 'request' | 'settle', outcome: 'landed' | 'lost' | 'failed', error: string | null = null) =>
      log.record({ atMs, wager: 'W', step, outcome, signature: null, error });
    entry(now - 1_000, 'request', 'landed');
    entry(now - 2_000, 'request', 'landed');
    entry(now - 3_000, 'request', 'failed', 'oracle insufficientFunds');
    entry(now - 4_000, 'settle', 'lost', 'alreadySettled');
    entry(now - 5_000, 'settle', 'failed', 'fetch failed: connect ECONNREFUSED 127.0.0.1:8899');
    entry(now - 6_000, 'settle', 'failed', 'fetch failed: socket hang up');
    log.record({ atMs: now - 7_000, wager: 'W', step: 'settle', outcome: 'skipped', signature: null, error: 'fee exceeds pay: 0.00021 SOL to earn 0.0002 SOL' });
    entry(hourAgo - 1, 'settle', 'landed'); // outside the window
    ledger.record({ at: new Date(now - 1_000).toISOString(), wager: 'W', step: 'request', signature: 's1', receivedLamports: 50_000, feeLamports: 5_000 });
    ledger.record({ at: new Date(now - 2_000).toISOString(), wager: 'W', step: 'request', signature: 's2', receivedLamports: 50_000, feeLamports: 5_000 });
    ledger.record({ at: new Date(hourAgo - 1).toISOString(), wager: 'W', step: 'settle', signature: 's3', receivedLamports: 200_000, feeLamports: 5_000 });

    const tally = createStepTally(db).since(hourAgo);
    const request = tally.find((t) => t.step === 'request')!;
    expect(request).toMatchObject({ tried: 3, landed: 2, failed: 1, lost: 0, receivedLamports: 100_000, feeLamports: 10_000 });
    expect(request.failures).toEqual([{ reason: 'oracle insufficientFunds', count: 1 }]);
    const settle = tally.find((t) => t.step === 'settle')!;
    expect(settle).toMatchObject({ tried: 4, landed: 0, lost: 1, failed: 2, skipped: 1, receivedLamports: 0, feeLamports: 0 });
    expect(settle.failures).toEqual([{ reason: 'fetch failed', count: 2 }]);
    expect(settle.skips).toEqual([{ reason: 'fee exceeds pay', count: 1 }]);
  });

  it('groups an error by its first clause and keeps a program code whole', () => {
    expect(failureReason('epochNotClosed')).toBe('epochNotClosed');
    expect(failureReason('simulation failed: {"InstructionError":[1,{"Custom":6005}]}')).toBe('simulation failed');
    expect(failureReason(null)).toBe('unknown');
  });
});
