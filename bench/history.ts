/**
 * A history that stays fast (issue 28): makes a keeper's long history with the keeper's own store code
 * (finished wagers, two earnings and two crank steps per wager, spread over 180 days up to now), then
 * starts the real `serve` on that file and on a fresh one and measures what the console's Overview, Queue
 * and Earnings screens call through the operator HTTP API, `/v1/health` p99 while a console polls, the
 * ready line, and the file's bytes per wager. One JSON line per file; asserts nothing.
 *
 *   npm run bench:history [-- --wagers 1000000] [-- --db FILE] [-- --calls 30]
 *
 * --db FILE keeps (and reuses, when it exists) the history file, so a second run measures without making
 * it again. Needs `npx electron-vite build` (it runs the built CLI).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { openDatabase, transaction } from '../src-main/store/database';
import { createEarningsLedger } from '../src-main/store/earnings-ledger';
import type { CrankStep } from '../src-shared/crank-vocabulary';
import { expiresAt } from '../src-shared/wager-timing';
import { createStepLog } from '../src-main/store/step-log';
import { createWagerRecordStore } from '../src-main/store/wager-records';
import { withConsoleToken } from '../src-main/service/__tests__/ready-console-url';

const { values } = parseArgs({
  options: {
    wagers: { type: 'string', default: '1000000' },
    db: { type: 'string' },
    calls: { type: 'string', default: '30' },
  },
});
const wagers = Number(values.wagers);
const calls = Number(values.calls);
const DAYS = 180;
const DAY_MS = 86_400_000;
const bin = fileURLToPath(new URL('../bin/wager-keeper.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'wk-bench-history-'));
const historyPath = values.db ?? join(work, 'history.db');

/** The history, booked as the keeper books it: records, earnings ledger and step log, in big transactions. */
function makeHistory(path: string, count: number): { ms: number } {
  const started = performance.now();
  const end = Date.now();
  const spanMs = DAYS * DAY_MS;
  let clock = end - spanMs;
  const db = openDatabase(path);
  const records = createWagerRecordStore(db, () => new Date(clock));
  const earnings = createEarningsLedger(db);
  const steps = createStepLog(db);
  const BATCH = 20_000;
  for (let first = 0; first < count; first += BATCH) {
    transaction(db, () => {
      for (let i = first; i < Math.min(count, first + BATCH); i++) {
        // Evenly over 180 days, the last one a few seconds ago (so the queue's "last 10 minutes" has some).
        clock = end - spanMs + Math.floor(((i + 1) / count) * spanMs) - 5_000;
        // Real lengths: a base58 address is 43-44 characters, a signature 87-88.
        const address = `${i.toString(36).padStart(8, '0')}WagerAddressOfBenchHistoryXXXXXXXXX`;
        const signature = (kind: string) => `${kind}${i.toString(36).padStart(8, '0')}`.padEnd(88, 'S');
        const expired = i % 20 === 0;
        records.insert(address, {
          state: expired ? 'expired' : 'settled',
          stake: '1000000',
          openSlot: i * 3,
          expirySlot: expiresAt(i * 3),
          requestSignature: signature('R'),
          requestedSlot: i * 3 + 1,
          fulfilledSlot: expired ? null : i * 3 + 2,
          settleSignature: expired ? null : signature('S'),
          expireSignature: expired ? signature('E') : null,
          bucket: expired ? null : i % 2,
          payout: expired ? null : i % 2 ? '1960000' : '0',
        });
        const second: CrankStep = expired ? 'expire' : 'settle';
        for (const [step, at] of [
          ['request', clock - 2_000],
          [second, clock],
        ] as const) {
          earnings.record({
            at: new Date(at).toISOString(),
            wager: address,
            step,
            signature: signature(step),
            receivedLamports: 50_000,
            feeLamports: 5_000,
          });
          steps.record({
            atMs: at,
            wager: address,
            step,
            outcome: 'landed',
            signature: signature(step),
            error: null,
          });
        }
      }
    });
  }
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  return { ms: Math.round(performance.now() - started) };
}

interface Served {
  child: ChildProcess;
  readyLineMs: number;
  api: string;
  operator: string;
  token: string;
}

async function serve(db: string): Promise<Served> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--port', '0', '--rpc-port', '0', '--gateway-port', '0', '--db', db],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        XDG_CONFIG_HOME: mkdtempSync(join(work, 'config-')),
        XDG_DATA_HOME: mkdtempSync(join(work, 'data-')),
      },
    },
  );
  const ready = await new Promise<{ api: string; console: string }>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (text) => {
      if (text.includes('"ready"')) resolve(withConsoleToken(JSON.parse(text) as { api: string; console: string }));
    });
    child.once('exit', () => reject(new Error('serve exited before its ready line')));
  });
  child.once('exit', (code, signal) => writeSync(2, `serve on ${db} exited: ${code ?? signal}\n`));
  const consoleUrl = new URL(ready.console);
  return {
    child,
    readyLineMs: Math.round(performance.now() - started),
    api: ready.api,
    operator: consoleUrl.origin,
    token: new URLSearchParams(consoleUrl.hash.slice(1)).get('token')!,
  };
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

/** Connections the server reset or refused (retried once, timed from the retry); printed with the figures. */
let resets = 0;

/** One request on its own connection; a reset connection is counted and tried once more. */
async function request(url: string, body?: object, token?: string): Promise<number> {
  try {
    return await requestOnce(url, body, token);
  } catch (error) {
    if (!/ECONNRESET|ECONNREFUSED/.test((error as Error).message)) throw error;
    await new Promise((resolve) => setTimeout(resolve, 200));
    resets += 1;
    return requestOnce(url, body, token);
  }
}

function requestOnce(url: string, body?: object, token?: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const outgoing = httpRequest(
      url,
      {
        method: payload ? 'POST' : 'GET',
        agent: false,
        headers: payload
          ? {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(payload),
            }
          : {},
      },
      (response) => {
        response.resume();
        response.once('end', () =>
          response.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`${url}: HTTP ${response.statusCode}`)),
        );
      },
    );
    outgoing.once('error', (error) =>
      reject(new Error(`${url}: ${error.message} after ${Math.round(performance.now() - started)} ms`)),
    );
    outgoing.end(payload);
  });
}

/** The console's calls, as its screens make them. */
function consoleCalls(served: Served): Record<string, () => Promise<number>> {
  const call = (method: string, body: object) => () =>
    request(`${served.operator}/operator/api/${method}`, body, served.token);
  const now = Date.now();
  const dayStart = new Date(now);
  dayStart.setHours(0, 0, 0, 0);
  return {
    overview: call('overview', { dayStartMs: dayStart.getTime() }),
    queue: call('queue', {}),
    earningsChart7d: call('earningsSeries', { sinceMs: now - 7 * DAY_MS, bucketMs: 2 * 3_600_000 }),
    cranksByStep24h: call('stepTally', { sinceMs: now - DAY_MS }),
  };
}

async function measure(label: string, db: string, extra: object): Promise<void> {
  const served = await serve(db);
  resets = 0;
  try {
    const callsOf = consoleCalls(served);
    // One warm-up of each (the first call pays for statement preparation and the page cache).
    for (const run of Object.values(callsOf)) await run();
    const figures: Record<string, { medianMs: number; p95Ms: number; maxMs: number }> = {};
    for (const [name, run] of Object.entries(callsOf)) {
      const times: number[] = [];
      for (let i = 0; i < calls; i++) times.push(await run());
      figures[name] = {
        medianMs: Math.round(quantile(times, 0.5)),
        p95Ms: Math.round(quantile(times, 0.95)),
        maxMs: Math.round(Math.max(...times)),
      };
    }
    // /v1/health every 110 ms (under its read limit, 10/s) while a console polls its four calls back to back
    // (worse than its real cadence).
    let polling = true;
    const poller = (async () => {
      while (polling) for (const run of Object.values(callsOf)) await run();
    })();
    const health: number[] = [];
    const until = performance.now() + 20_000;
    while (performance.now() < until) {
      health.push(await request(`${served.api}/v1/health`));
      await new Promise((resolve) => setTimeout(resolve, 110));
    }
    polling = false;
    await poller;
    console.log(
      JSON.stringify({
        bench: 'history',
        file: label,
        ...extra,
        readyLineMs: served.readyLineMs,
        calls: figures,
        connectionResets: resets,
        healthWhilePolling: {
          samples: health.length,
          p50Ms: Math.round(quantile(health, 0.5)),
          p99Ms: Math.round(quantile(health, 0.99)),
        },
        targets: { callMs: 50, healthP99Ms: 25, readyLineOverFreshMs: 1000 },
      }),
    );
  } finally {
    served.child.kill('SIGTERM');
    await new Promise((resolve) => served.child.once('exit', resolve));
  }
}

try {
  let made: { ms: number } | null = null;
  if (!existsSync(historyPath)) made = makeHistory(historyPath, wagers);
  const bytes = statSync(historyPath).size;
  await measure('fresh', join(work, 'fresh.db'), {});
  await measure('history', historyPath, {
    wagers,
    earningsRows: wagers * 2,
    crankSteps: wagers * 2,
    days: DAYS,
    ...(made ? { generateMs: made.ms } : {}),
    fileBytes: bytes,
    bytesPerWager: Math.round(bytes / wagers),
  });
} finally {
  rmSync(work, { recursive: true, force: true, maxRetries: 3 });
}
