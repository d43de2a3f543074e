/**
 * Requests per second of `GET /v1/wagers/:address` on the real public API (createPublicApi +
 * listenPublicApi, a keeper over an in-process localnet, a wager the keeper has settled) against a bare
 * `node:http` server answering the same JSON, in one run, with the same concurrent clients.
 * Target: the API serves at least 0.5x the bare server's rate. Prints JSON; asserts nothing.
 * `npm run bench:api [-- seconds [connections [rounds]]]` (default 5 s per measurement, 8 connections, 2 rounds).
 *
 * The API's rate limits are lifted through its options (every bucket effectively unlimited), so the figure is
 * the cost of routing, CORS, the limiter's bookkeeping, the record read (SQLite) and the JSON answer. The
 * servers run on this thread; the clients run in a worker thread (plain node:http with keep-alive, one request
 * at a time per connection), so client and server each have a core of their own. The chain's slot clock is
 * stopped while measuring, so the keeper loop is idle (no slot notifications) for both servers alike.
 */
import { address, generateKeyPairSigner } from '@solana/kit';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { devApp } from './bench-chain';
import { createPublicApi, listenPublicApi } from '../src-main/api/public-api';
import { connectToChain } from '../src-main/chain/rpc-connection';
import { createKeeper } from '../src-main/keeper/keeper';
import { startLocalnet } from '../src-main/localnet/localnet';
import { openDatabase } from '../src-main/store/database';

const SECONDS = Number(process.argv[2] ?? 5);
const CONNECTIONS = Number(process.argv[3] ?? 8);
const ROUNDS = Number(process.argv[4] ?? 2);
const WARMUP_MS = 1_000;
const TARGET_RATIO = 0.5;
const UNLIMITED = { perMinute: 1e12, burst: 1e12 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// --- a keeper with one settled wager, over an in-process localnet
const localnet = await startLocalnet({ rpcPort: 0, slotMs: 100 });
const dir = await mkdtemp(join(tmpdir(), 'bench-api-'));
const db = openDatabase(join(dir, 'keeper.db'));
const keeperKey = await generateKeyPairSigner();
localnet.chain.airdrop(keeperKey.address, 10_000_000_000n);
const connection = connectToChain(localnet.rpcUrl, localnet.wsUrl);
const keeper = createKeeper({ connection, signer: keeperKey, db, programAddress: address(localnet.manifest.programs.wager) });
await keeper.start();

const { manifest } = localnet;
const { value: lifetime } = await connection.rpc.getLatestBlockhash().send();
const { wager, wire } = await (await devApp(manifest)).signedOpen(address(manifest.paytables[0]!.address), BigInt(Date.now()), lifetime);
await connection.rpc.sendTransaction(wire, { encoding: 'base64' }).send();
await keeper.submitWager(wager);
for (let waited = 0; keeper.records.get(wager)?.state !== 'settled'; waited += 100) {
  if (waited > 20_000) throw new Error(`the wager was not settled: ${JSON.stringify(keeper.records.get(wager))}`);
  await sleep(100);
}
localnet.chain.stop(); // no more slots: the keeper loop goes quiet for the measurements
const record = await keeper.lookupWager(wager);
const path = `/v1/wagers/${wager}`;

// --- the two servers
const api = await listenPublicApi(
  createPublicApi({ keeper, allowedOrigins: [], rateLimit: { read: UNLIMITED, submitWager: UNLIMITED, faucetClaim: UNLIMITED } }),
  { port: 0 },
);
const bare = createServer((req, res) => {
  if (req.method === 'GET' && req.url === path) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(record));
  } else {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":"not found"}');
  }
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}`;

// Same answer from both (the API's body is the record the bare server sends).
const fromApi = await (await fetch(`${api.url}${path}`)).text();
const fromBare = await (await fetch(`${bareUrl}${path}`)).text();
if (fromApi !== fromBare) throw new Error(`the two servers answer differently:\n${fromApi}\n${fromBare}`);

// --- the clients: a worker thread with CONNECTIONS keep-alive connections, each sending one request at a time
const CLIENT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, path, connections, warmupMs, durationMs } = workerData;
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const get = () => new Promise((resolve) => {
  const started = process.hrtime.bigint();
  const req = http.get({ host: target.hostname, port: target.port, path, agent }, (res) => {
    res.resume();
    res.on('end', () => resolve({ ok: res.statusCode === 200, ns: process.hrtime.bigint() - started }));
  });
  req.on('error', () => resolve({ ok: false, ns: process.hrtime.bigint() - started }));
});
(async () => {
  const measureFrom = Date.now() + warmupMs;
  const stopAt = measureFrom + durationMs;
  let ok = 0, failed = 0;
  const latencies = [];
  await Promise.all(Array.from({ length: connections }, async () => {
    while (Date.now() < stopAt) {
      const before = Date.now();
      const result = await get();
      if (before < measureFrom) continue;
      if (result.ok) { ok++; if (latencies.length < 200000) latencies.push(Number(result.ns) / 1e6); } else failed++;
    }
  }));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p) => latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)] * 1000) / 1000 : null;
  parentPort.postMessage({ ok, failed, perSecond: Math.round(ok / (durationMs / 1000)), latencyMs: { p50: q(0.5), p99: q(0.99) } });
})();
`;

function measure(url: string): Promise<{ ok: number; failed: number; perSecond: number; latencyMs: { p50: number; p99: number } }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT_SOURCE, { eval: true, workerData: { url, path, connections: CONNECTIONS, warmupMs: WARMUP_MS, durationMs: SECONDS * 1000 } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

const rounds: { bare: Awaited<ReturnType<typeof measure>>; api: Awaited<ReturnType<typeof measure>> }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the order so neither server always runs first.
  if (round % 2 === 0) {
    const b = await measure(bareUrl);
    const a = await measure(api.url);
    rounds.push({ bare: b, api: a });
  } else {
    const a = await measure(api.url);
    const b = await measure(bareUrl);
    rounds.push({ bare: b, api: a });
  }
}
const mean = (values: number[]) => Math.round(values.reduce((s, v) => s + v, 0) / values.length);
const apiRate = mean(rounds.map((r) => r.api.perSecond));
const bareRate = mean(rounds.map((r) => r.bare.perSecond));

console.log(
  JSON.stringify(
    {
      bench: 'api-throughput',
      route: 'GET /v1/wagers/:address',
      answer: record,
      secondsPerMeasurement: SECONDS,
      connections: CONNECTIONS,
      rounds,
      requestsPerSecond: { api: apiRate, bare: bareRate },
      ratio: Math.round((apiRate / bareRate) * 100) / 100,
      target: `api >= ${TARGET_RATIO} x bare`,
    },
    null,
    2,
  ),
);

await api.close();
await new Promise<void>((resolve) => bare.close(() => resolve()));
await keeper.stop();
db.close();
await localnet.stop();
await rm(dir, { recursive: true, force: true });
