/**
 * `wager-keeper earnings` as a user runs it (the built CLI, `npx electron-vite build` first) on a keeper
 * file booked with the store's own code: the CSV per crank with the sweep row, the JSON totals, and the
 * errors that say what to do.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../store/database';
import { createEarningsLedger } from '../../store/earnings-ledger';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wk-earnings-cli-'));
const dbPath = join(dir, 'keeper.db');

const cli = (...args: string[]) => {
  const result = spawnSync(process.execPath, [bin, 'earnings', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

beforeAll(() => {
  const db = openDatabase(dbPath);
  const ledger = createEarningsLedger(db);
  ledger.record({
    at: '2026-11-02T10:00:00.000Z',
    wager: 'W1',
    step: 'request',
    signature: 'sig1',
    receivedLamports: 50_000,
    feeLamports: 5_000,
  });
  ledger.record({
    at: '2026-11-02T10:00:01.500Z',
    wager: 'W1',
    step: 'settle',
    signature: 'sig2',
    receivedLamports: 100_000,
    feeLamports: 5_000,
  });
  ledger.record({
    at: '2026-11-05T00:00:00.000Z',
    wager: 'W2',
    step: 'request',
    signature: 'sig3',
    receivedLamports: 50_000,
    feeLamports: 5_000,
  });
  db.prepare(
    'INSERT INTO sweeps (at_ms, destination, sent_lamports, fee_lamports, kept_lamports, signature, trigger) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(
    Date.parse('2026-11-02T12:00:00.000Z'),
    'Dest',
    2_000_000_000,
    5_000,
    50_000_000,
    'sweepsig',
    'command',
  );
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('wager-keeper earnings', () => {
  it('prints the CSV of a range of UTC dates (the --until day whole), with the sweep as its own row', () => {
    const { code, stdout, stderr } = cli(
      '--db',
      dbPath,
      '--since',
      '2026-11-01',
      '--until',
      '2026-11-02',
      '--csv',
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'time_utc,kind,step,wager,signature,fee_earned_sol,fee_spent_sol,net_sol,sent_to_wallet_sol',
        '2026-11-02T10:00:00.000Z,crank,request,W1,sig1,0.000050000,0.000005000,0.000045000,0.000000000',
        '2026-11-02T10:00:01.500Z,crank,settle,W1,sig2,0.000100000,0.000005000,0.000095000,0.000000000',
        '2026-11-02T12:00:00.000Z,sweep,sweep,,sweepsig,0.000000000,0.000005000,-0.000005000,2.000000000',
        '',
      ].join('\r\n'),
    );
  });

  it('per day, and as JSON totals without --csv', () => {
    const perDay = cli(
      '--db',
      dbPath,
      '--since',
      '2026-11-01',
      '--until',
      '2026-11-30',
      '--per',
      'day',
      '--csv',
    );
    expect(perDay.stdout.split('\r\n')).toEqual([
      'date_utc,cranks,fee_earned_sol,fee_spent_sol,net_sol,sweeps,sent_to_wallet_sol',
      '2026-11-02,2,0.000150000,0.000015000,0.000135000,1,2.000000000',
      '2026-11-05,1,0.000050000,0.000005000,0.000045000,0,0.000000000',
      '',
    ]);
    const totals = JSON.parse(
      cli('--db', dbPath, '--since', '2026-11-01', '--until', '2026-11-30').stdout,
    ) as Record<string, unknown>;
    expect(totals).toMatchObject({
      cranks: 3,
      earnedLamports: 200_000,
      spentLamports: 20_000,
      netLamports: 180_000,
      sweeps: 1,
      sentToWalletLamports: 2_000_000_000,
    });
  });

  it('says what to do: --since missing or malformed (exit 2), a --db that does not exist (exit 1, nothing created)', () => {
    expect(cli('--db', dbPath, '--csv')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--since DATE is required'),
    });
    expect(cli('--db', dbPath, '--since', '11/01/2026')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('give a date as YYYY-MM-DD'),
    });
    const missing = cli('--db', join(dir, 'nope.db'), '--since', '2026-11-01');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("pass the keeper's file with --db FILE");
  });
});
