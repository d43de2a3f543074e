/**
 * `wager-keeper keeper` as an operator runs it, killed at the worst moments: the keeper is a child process
 * (`bin/wager-keeper.js keeper --rpc ... --keypair FILE --db FILE --port 0`) against an in-process
 * localnet. It is SIGKILLed the instant one of its requests lands (before it could record it), restarted
 * on the same SQLite file, SIGKILLed again the instant one of its settlements lands, and restarted once
 * more: every wager still ends settled (or expired), nothing is lost or stuck, and the file is intact.
 */
import { type Address } from '@solana/kit';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionRecord } from '../../localnet/local-chain';
import { generateKeypairWithBytes, type KeypairWithBytes } from '../../secrets/keypair-bytes';
import { keeperTestbed, openWager, strictWagerEvents, waitFor, wagerHistory } from './keeper-test-helpers';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));
const SOL = 1_000_000_000n;

const bed = keeperTestbed({ prefix: 'keeper-restart-', pumpMs: 100 });
let key: KeypairWithBytes;
let keypairFile: string;
let dbFile: string;

beforeAll(async () => {
  key = await generateKeypairWithBytes();
  bed.localnet.chain.airdrop(key.signer.address, 10n * SOL);
  keypairFile = bed.dir.path('keeper.json');
  await writeFile(keypairFile, JSON.stringify(Array.from(key.secretKey)), { mode: 0o600 });
  dbFile = bed.dir.path('keeper.db');
});

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

interface KeeperProcess {
  child: ChildProcessWithoutNullStreams;
  ready: { event: string; api: string; keeper: string; keySource: string };
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  lines: string[];
}

/** Starts `wager-keeper keeper` on the test's key and SQLite file; resolves on its `ready` line. */
async function startKeeperProcess(): Promise<KeeperProcess> {
  const child = spawn(process.execPath, [bin, 'keeper', '--rpc', bed.localnet.rpcUrl, '--keypair', keypairFile, '--db', dbFile, '--port', '0'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, WAGER_KEEPER_LOG: 'info' },
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const line = await waitFor(() => lines[0] ?? (child.exitCode !== null ? Promise.reject(new Error(`keeper exited: ${stderr}`)) : undefined), 30_000, `the keeper's ready line (stderr: ${stderr})`);
  return { child, ready: JSON.parse(line) as KeeperProcess['ready'], stderr: () => stderr, exited, lines };
}

/** SIGKILLs `child` synchronously inside the chain's transaction handler, as soon as `match` says so. */
function killWhen(child: ChildProcessWithoutNullStreams, match: (record: TransactionRecord) => boolean): Promise<TransactionRecord> {
  return new Promise((resolve) => {
    const onTransaction = (record: TransactionRecord) => {
      if (!match(record)) return;
      child.kill('SIGKILL'); // before the localnet has even answered the keeper's sendTransaction
      bed.localnet.chain.off('transaction', onTransaction);
      resolve(record);
    };
    bed.localnet.chain.on('transaction', onTransaction);
  });
}

const sentByKeeperWith = (eventName: string) => (record: TransactionRecord) =>
  record.err === null && record.accountKeys[0] === key.signer.address && strictWagerEvents(record.logMessages, bed.parts.program).some((e) => e.name === eventName);

const readRecords = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const integrity = db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
    const rows = db.prepare('SELECT address, state, request_signature, settle_signature, expire_signature, bucket, payout FROM wagers').all() as {
      address: string;
      state: string;
      request_signature: string | null;
      settle_signature: string | null;
      expire_signature: string | null;
      bucket: number | null;
      payout: string | null;
    }[];
    return { integrity: integrity.map((row) => row.integrity_check), rows: new Map(rows.map((row) => [row.address, row])) };
  } finally {
    db.close();
  }
};

describe('a keeper process killed mid-flight and restarted on the same database', () => {
  it('finishes every wager after being SIGKILLed right after a request and right after a settlement landed, and its SQLite file is intact', async () => {
    const wagers: Address[] = [];
    const open = async (count: number) => {
      for (let i = 0; i < count; i++) wagers.push((await openWager(bed.rpc, bed.localnet, bed.parts.app, { paytable: 'dice', stake: 1_000_000n })).wager);
    };

    // Run 1: killed the instant its first request lands.
    const first = await startKeeperProcess();
    expect(first.ready).toMatchObject({ event: 'ready', keeper: key.signer.address, keySource: 'file' });
    const firstKill = killWhen(first.child, sentByKeeperWith('WagerRandomnessRequested'));
    await open(3);
    const killedAfterRequest = await firstKill;
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // It died before it could write down its own request: the file still says queued.
    const requestedWager = (strictWagerEvents(killedAfterRequest.logMessages, bed.parts.program)[0]!.data as { wager: Address }).wager;
    const afterFirst = readRecords(dbFile);
    expect(afterFirst.integrity).toEqual(['ok']);
    expect(afterFirst.rows.get(requestedWager)).toMatchObject({ state: 'queued', request_signature: null });
    // Wagers opened while no keeper runs.
    await open(3);

    // Run 2: finds everything again (its file and the sweep), killed the instant its first settlement lands.
    const second = await startKeeperProcess();
    const secondKill = killWhen(second.child, sentByKeeperWith('WagerSettled'));
    const killedAfterSettle = await secondKill;
    expect(await second.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const settledWager = (strictWagerEvents(killedAfterSettle.logMessages, bed.parts.program)[0]!.data as { wager: Address }).wager;
    const afterSecond = readRecords(dbFile);
    expect(afterSecond.integrity).toEqual(['ok']);
    expect(afterSecond.rows.get(settledWager)?.settle_signature).toBeNull();
    expect(afterSecond.rows.get(settledWager)?.state).not.toBe('settled');
    await open(2);

    // Run 3: runs to the end, then stops cleanly on SIGTERM.
    const third = await startKeeperProcess();
    await waitFor(
      async () => {
        const { value } = await bed.rpc.getMultipleAccounts(wagers, { encoding: 'base64', commitment: 'confirmed' }).send();
        return value.every((account) => account === null) ? true : undefined;
      },
      40_000,
      'every wager to be closed on chain',
      250,
    );
    // What a user polling the keeper's API sees, for each wager.
    const seen = await waitFor(
      async () => {
        const records = await Promise.all(wagers.map(async (w) => (await fetch(`${third.ready.api}/v1/wagers/${w}`)).json() as Promise<{ state: string; settleSignature?: string }>));
        return records.every((r) => r.state === 'settled' || r.state === 'expired') ? records : undefined;
      },
      15_000,
      'the API to report every wager finished',
      1_000,
    );
    third.child.kill('SIGTERM');
    expect(await third.exited).toEqual({ code: 0, signal: null });
    expect(third.lines.map((l) => JSON.parse(l) as { event: string }).at(-1)).toEqual({ event: 'stopped', signal: 'SIGTERM' });

    const { integrity, rows } = readRecords(dbFile);
    expect(integrity).toEqual(['ok']);
    expect(rows.size).toBe(wagers.length);
    for (const [index, wager] of wagers.entries()) {
      const history = wagerHistory(bed.localnet, wager, bed.parts.program);
      const names = history.flatMap((h) => h.events.map((e) => e.name));
      expect(names).toEqual(['WagerOpened', 'WagerRandomnessRequested', 'WagerSettled']);
      const settle = history.find((h) => h.events.some((e) => e.name === 'WagerSettled'))!;
      const event = settle.events[0]!.data as { bucket: number; payout: bigint };
      expect(rows.get(wager)).toMatchObject({ state: 'settled', settle_signature: settle.signature, bucket: event.bucket, payout: event.payout.toString() });
      expect(seen[index]).toMatchObject({ state: 'settled', settleSignature: settle.signature });
    }
    // The settlement that landed as the keeper died is the one it recorded after the restart (read back from the chain).
    expect(wagers).toContain(requestedWager);
    expect(rows.get(settledWager)?.settle_signature).toBe(killedAfterSettle.signature);
  });
});
