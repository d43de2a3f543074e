/**
 * Issue 16, reproduced as a user met it: `wager-keeper keeper` whose `--rpc` goes through a proxy that
 * fails 20 % of JSON-RPC calls (HTTP 500, 429 with Retry-After, a 3 s stall, a cut connection, a stale
 * answer; the WebSocket goes straight to the localnet), wagers opened all along, and the keeper SIGKILLed
 * at seeded moments and restarted on the same `--db` and key. While the oracle answers, no wager may
 * expire: expiry forfeits the user's stake.
 */
import { type Address } from '@solana/kit';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';
import { keeperTestbed, openWager, waitFor, wagerHistory } from './keeper-test-helpers';
import { seededRandom, startRpcFaultProxy, type RpcFaultProxy } from './rpc-fault-proxy';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));
const SOL = 1_000_000_000n;
/** Overridable for longer runs by hand: WAGERS=600 KILLS=10 SEED=7 npx vitest run keeper-faults-restart */
const WAGERS = Number(process.env.FAULT_TEST_WAGERS ?? 200);
const KILLS = Number(process.env.FAULT_TEST_KILLS ?? 5);
const SEED = Number(process.env.FAULT_TEST_SEED ?? 16);
const OPEN_PER_SECOND = 5;

/** Slots at a public cluster's pace: the window is 150 slots, about a minute. */
const bed = keeperTestbed({ prefix: 'keeper-faults-', pumpMs: 400 });
let proxy: RpcFaultProxy;
let keypairFile: string;
let dbFile: string;

beforeAll(async () => {
  const key = await generateKeypairWithBytes();
  bed.localnet.chain.airdrop(key.signer.address, 50n * SOL);
  keypairFile = bed.dir.path('keeper.json');
  await writeFile(keypairFile, JSON.stringify(Array.from(key.secretKey)), { mode: 0o600 });
  dbFile = bed.dir.path('keeper.db');
  proxy = await startRpcFaultProxy({ target: bed.localnet.rpcUrl, rate: 0.2, seed: SEED });
});
afterAll(() => proxy?.close());

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Each keeper process of the test: how long it took to be ready, and how it ended (for the failure report). */
const runs: { startedAt: number; readyAfterMs: number | null; exit: string | null }[] = [];

/** Starts the keeper behind the faulty proxy; does not wait for its ready line (its start-up reads are faulted too). */
function startKeeperProcess() {
  const child = spawn(process.execPath, [bin, 'keeper', '--rpc', proxy.url, '--ws', bed.localnet.wsUrl, '--keypair', keypairFile, '--db', dbFile, '--port', '0'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, WAGER_KEEPER_LOG: 'warn' },
  });
  children.push(child);
  const output = { stderr: '' };
  child.stderr.on('data', (chunk: Buffer) => {
    output.stderr = (output.stderr + chunk.toString()).slice(-20_000);
    if (process.env.FAULT_TEST_LOG) appendFileSync(process.env.FAULT_TEST_LOG, chunk);
  });
  const run = { startedAt: Date.now(), readyAfterMs: null as number | null, exit: null as string | null };
  runs.push(run);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      run.exit = signal ?? `code ${code}`;
      resolve();
    }),
  );
  // Ready (its first stdout line) or gone: a keeper is killed while it runs, not before it could start.
  const ready = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout }).once('line', () => {
      run.readyAfterMs = Date.now() - run.startedAt;
      resolve();
    });
    void exited.then(resolve);
  });
  return { child, output, exited, ready };
}

const readRecords = () => {
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    const rows = db.prepare('SELECT address, state, request_signature, open_slot, expiry_slot, attempts, last_error FROM wagers').all() as Record<string, unknown>[];
    return new Map(rows.map((row) => [row.address as string, row]));
  } finally {
    db.close();
  }
};

describe('a keeper behind a faulty RPC, SIGKILLed and restarted while wagers keep coming', () => {
  it(`requests randomness for every one of ${WAGERS} wagers in time: none expires while the oracle answers`, async () => {
    const random = seededRandom(SEED);
    const wagers: Address[] = [];
    // A keeper that runs first (its first start also warms the TypeScript cache; restarts are then as quick as an operator's).
    let keeper = startKeeperProcess();
    await keeper.ready;
    const openAll = (async () => {
      while (wagers.length < WAGERS) {
        const batch = Math.min(OPEN_PER_SECOND, WAGERS - wagers.length);
        const started = Date.now();
        const opened = await Promise.all(Array.from({ length: batch }, () => openWager(bed.rpc, bed.localnet, bed.parts.app, { paytable: 'dice', stake: 100_000n })));
        wagers.push(...opened.map((o) => o.wager));
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1_000 - (Date.now() - started)))); // the pace of arrivals, not a wait for a state
      }
    })();
    // SIGKILLs at seeded moments, each 3-8 s into a keeper's run (a keeper killed before it could do
    // anything proves nothing), each followed by a restart after a short, seeded downtime.
    for (let kill = 0; kill < KILLS; kill++) {
      await keeper.ready;
      await new Promise((resolve) => setTimeout(resolve, 3_000 + random() * 5_000)); // a seeded moment while it runs
      keeper.child.kill('SIGKILL');
      await keeper.exited;
      await new Promise((resolve) => setTimeout(resolve, 500 + random() * 2_500)); // down for a while: wagers keep coming
      keeper = startKeeperProcess();
    }
    await openAll;

    const closed = await waitFor(
      async () => {
        const { value } = await bed.rpc.getMultipleAccounts(wagers.slice(-100), { encoding: 'base64', commitment: 'confirmed' }).send();
        const rest = wagers.length > 100 ? (await bed.rpc.getMultipleAccounts(wagers.slice(0, -100), { encoding: 'base64', commitment: 'confirmed' }).send()).value : [];
        return [...rest, ...value].every((account) => account === null) ? true : undefined;
      },
      150_000,
      'every wager to be closed on chain',
      500,
    ).catch((error: Error) => error);

    const records = readRecords();
    const endings = wagers.map((wager) => {
      const names = wagerHistory(bed.localnet, wager, bed.parts.program).flatMap((h) => h.events.map((e) => e.name));
      return { wager, names, record: records.get(wager) };
    });
    const expired = endings.filter((e) => e.names.includes('WagerExpired'));
    const open = endings.filter((e) => !e.names.includes('WagerExpired') && !e.names.includes('WagerSettled'));
    const report = { faults: proxy.stats(), keeperRuns: runs.map(({ readyAfterMs, exit }) => ({ readyAfterMs, exit })), expired: expired.map((e) => e.record ?? e.wager), unfinished: open.map((e) => e.record ?? e.wager), stderr: keeper.output.stderr.slice(-4_000) };
    if (process.env.FAULT_TEST_REPORT) writeFileSync(process.env.FAULT_TEST_REPORT, JSON.stringify(report, null, 1));
    expect(closed, JSON.stringify(report, null, 1)).toBe(true);
    expect(expired, JSON.stringify(report, null, 1)).toEqual([]);
    expect(endings.every((e) => e.names.join() === 'WagerOpened,WagerRandomnessRequested,WagerSettled')).toBe(true);
    expect(proxy.stats().faults.stall).toBeGreaterThan(0);
  }, 400_000);
});
