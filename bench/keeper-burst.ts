/**
 * A burst: 2 000 wagers opened at once (pre-signed, sent as fast as several concurrent senders can) on a
 * localnet with 400 ms slots, and one keeper that has to settle every one of them inside T_SETTLE
 * (150 slots after its opening). Reports the time and slots until all were settled, the ones that were
 * not (expired, still open, or settled after open+150), and the keeper's RPC cost per wager, counted at
 * the HTTP layer, and its WebSocket messages. Prints JSON and writes it to bench/results/burst.json (with
 * `command`, `date`, `rpcCallsPerWager`, `wsMessagesPerWager`, `wastedFeesPct`); asserts nothing.
 * `npm run bench:burst [-- wagers [senders [maxInFlight]]]` (default 2 000 wagers, 8 senders, the
 * keeper's own default of transactions in flight).
 *
 * The localnet runs as its own process (`wager-keeper localnet`), like a validator. The keeper runs in
 * this process and reaches the localnet through two counting proxies: HTTP (one count per HTTP request,
 * and per JSON-RPC method inside it) and WebSocket (every message, both ways, by method: subscribe
 * requests and their answers, notifications). The proxy also notes the signature of every transaction the
 * keeper sends; afterwards their statuses give the wasted fees: transactions that landed and failed on
 * chain (their fee paid for nothing) over distinct transactions sent. The bench's own reads (confirming
 * the opens, reading slots and statuses afterwards) go straight to the localnet and are not counted.
 */
import { address, createSolanaRpc, getBase58Decoder, type Address, type Signature } from '@solana/kit';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';
import { devApp, startLocalnetProcess } from './bench-chain';
import { connectToChain } from '../src-main/chain/rpc-connection';
import { DEFAULT_MAX_IN_FLIGHT, createKeeper } from '../src-main/keeper/keeper';
import { keypairFromBytes } from '../src-main/secrets/keypair-bytes';
import { openDatabase } from '../src-main/store/database';
import { T_SETTLE_SLOTS, expiresAt } from '../src-shared/wager-timing';

const WAGERS = Number(process.argv[2] ?? 2_000);
const SENDERS = Number(process.argv[3] ?? 8);
const MAX_IN_FLIGHT = process.argv[4] === undefined ? undefined : Number(process.argv[4]);
const SLOT_MS = 400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

// --- the chain, as its own process
const localnet = await startLocalnetProcess(SLOT_MS);
const { manifest } = localnet;
const rpc = createSolanaRpc(manifest.rpcUrl);
const dir = await mkdtemp(join(tmpdir(), 'bench-burst-'));

// --- the counting proxy in front of the localnet's JSON-RPC (the keeper's HTTP requests only)
const upstream = new URL(manifest.rpcUrl);
const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 64 });
const counted = { httpRequests: 0, methods: new Map<string, number>() };
/** Every distinct transaction the keeper sent (its first signature, read from the wire). */
const sentSignatures = new Set<string>();
const base58 = getBase58Decoder();
const noteSent = (call: { method?: string; params?: unknown[] }) => {
  const wire = call.method === 'sendTransaction' ? call.params?.[0] : undefined;
  if (typeof wire !== 'string') return;
  const bytes = Buffer.from(wire, 'base64');
  if (bytes.length >= 65) sentSignatures.add(base58.decode(bytes.subarray(1, 65))); // 1 signature: count byte, then 64 bytes
};
const proxy = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    counted.httpRequests += 1;
    try {
      const payload = JSON.parse(body.toString()) as { method?: string; params?: unknown[] } | { method?: string; params?: unknown[] }[];
      for (const call of Array.isArray(payload) ? payload : [payload]) {
        const method = call.method ?? '?';
        counted.methods.set(method, (counted.methods.get(method) ?? 0) + 1);
        noteSent(call);
      }
    } catch {
      counted.methods.set('(not JSON)', (counted.methods.get('(not JSON)') ?? 0) + 1);
    }
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers, agent: upstreamAgent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', (error) => {
      res.writeHead(502);
      res.end(error.message);
    });
    forward.end(body);
  });
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;

// --- the counting proxy in front of its WebSocket: every message, both ways, by method
const wsCounted = { messages: 0, fromKeeper: new Map<string, number>(), toKeeper: new Map<string, number>() };
const countWs = (into: Map<string, number>, text: string) => {
  wsCounted.messages += 1;
  let method: string;
  try {
    method = (JSON.parse(text) as { method?: string }).method ?? '(answer)';
  } catch {
    method = '(not JSON)';
  }
  into.set(method, (into.get(method) ?? 0) + 1);
};
const wsProxy = new WebSocketServer({ host: '127.0.0.1', port: 0 });
wsProxy.on('connection', (client) => {
  const upstreamSocket = new WebSocket(manifest.wsUrl);
  const pending: string[] = [];
  upstreamSocket.on('open', () => pending.splice(0).forEach((message) => upstreamSocket.send(message)));
  upstreamSocket.on('message', (data) => {
    const text = data.toString();
    countWs(wsCounted.toKeeper, text);
    if (client.readyState === WebSocket.OPEN) client.send(text);
  });
  upstreamSocket.on('close', () => client.close());
  upstreamSocket.on('error', () => client.close());
  client.on('message', (data) => {
    const text = data.toString();
    countWs(wsCounted.fromKeeper, text);
    if (upstreamSocket.readyState === WebSocket.OPEN) upstreamSocket.send(text);
    else pending.push(text);
  });
  client.on('close', () => upstreamSocket.close());
});
await new Promise<void>((resolve) => wsProxy.once('listening', resolve));
const wsProxyUrl = `ws://127.0.0.1:${(wsProxy.address() as { port: number }).port}`;

// --- the keeper
const db = openDatabase(join(dir, 'keeper.db'));
const keeper = createKeeper({
  connection: connectToChain(proxyUrl, wsProxyUrl),
  signer: await keypairFromBytes(manifest.devKeys.keeper.keypair),
  db,
  programAddress: address(manifest.programs.wager),
  maxInFlight: MAX_IN_FLIGHT,
});
await keeper.start();
const callsAtStart = counted.httpRequests;
const wsAtStart = wsCounted.messages;
const sentAtStart = sentSignatures.size;
const finishedAt = new Map<string, number>();
keeper.events.on('record', (record) => {
  if (['settled', 'expired', 'unknown'].includes(record.state) && !finishedAt.has(record.address)) finishedAt.set(record.address, Date.now());
});

// --- the burst: WAGERS opens signed up front (one blockhash, valid 150 blocks), then sent by SENDERS senders
const { signedOpen } = await devApp(manifest);
const paytable = address(manifest.paytables.find((p) => p.name === 'coin-flip')!.address);
const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
const signingStarted = Date.now();
const opens: Awaited<ReturnType<typeof signedOpen>>[] = [];
let nonce = BigInt(Date.now()) * 1000n;
for (let i = 0; i < WAGERS; i++) opens.push(await signedOpen(paytable, nonce++, lifetime));
const signingMs = Date.now() - signingStarted;
const stage = (what: string, extra: Record<string, unknown> = {}) => console.error(JSON.stringify({ stage: what, atMs: Date.now() - signingStarted, ...extra }));
stage('signed', { opens: opens.length });

const burstStarted = Date.now();
const sendErrors: string[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: SENDERS }, async () => {
    while (next < opens.length) {
      const open = opens[next++]!;
      await rpc
        .sendTransaction(open.wire, { encoding: 'base64', skipPreflight: true })
        .send()
        .catch((error: Error) => sendErrors.push(error.message));
    }
  }),
);
const sentAllMs = Date.now() - burstStarted;
stage('sent', { sendErrors: sendErrors.length });

// Which opens landed, and in which slot (an open still unknown after 10 s did not land: its send failed).
const openSlots = new Map<Address, bigint>();
const openFailures: string[] = [];
let notLanded = 0;
for (let i = 0; i < opens.length; i += 256) {
  const batch = opens.slice(i, i + 256);
  const giveUpAt = Date.now() + 10_000;
  for (;;) {
    const { value } = await rpc.getSignatureStatuses(batch.map((o) => o.signature)).send();
    if (value.every((status) => status !== null) || Date.now() > giveUpAt) {
      value.forEach((status, index) => {
        if (!status) notLanded += 1;
        else if (status.err) openFailures.push(JSON.stringify(status.err));
        else openSlots.set(batch[index]!.wager, status.slot);
      });
      break;
    }
    await sleep(100);
  }
}
stage('confirmed', { landed: openSlots.size, failedOnChain: openFailures.length, notLanded });
const landed = [...openSlots.keys()];
const firstOpenSlot = [...openSlots.values()].reduce((a, b) => (b < a ? b : a));
const lastOpenSlot = [...openSlots.values()].reduce((a, b) => (b > a ? b : a));

// --- wait until the keeper has finished every landed wager (or well past the last window)
const state = (wager: Address) => keeper.records.get(wager)?.state;
const finished = (wager: Address) => ['settled', 'expired', 'unknown'].includes(state(wager) ?? '');
let progressAt = Date.now();
for (;;) {
  const done = landed.filter(finished).length;
  if (done === landed.length) break;
  const slot = await rpc.getSlot({ commitment: 'confirmed' }).send();
  if (slot > expiresAt(lastOpenSlot) + 60n) break;
  if (Date.now() - progressAt > 10_000) {
    progressAt = Date.now();
    console.error(JSON.stringify({ progress: { finished: done, of: landed.length, slot: Number(slot), lastOpenSlot: Number(lastOpenSlot) } }));
  }
  await sleep(250);
}
const callsAtEnd = counted.httpRequests;
const wsAtEnd = wsCounted.messages;
const byCount = (map: Map<string, number>) => Object.fromEntries([...map.entries()].sort((a, b) => b[1] - a[1]));
const methodsAtEnd = byCount(counted.methods);
await keeper.stop();

// --- settlement slots, read back from the chain
const settleSlots = new Map<Address, bigint>();
const withSettle = landed.filter((w) => keeper.records.get(w)?.settleSignature);
let cursor = 0;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (cursor < withSettle.length) {
      const wager = withSettle[cursor++]!;
      const signature = keeper.records.get(wager)!.settleSignature as Signature;
      const tx = await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send();
      if (tx) settleSlots.set(wager, tx.slot);
    }
  }),
);
const slotsToSettle = landed
  .filter((w) => settleSlots.has(w))
  .map((w) => Number(settleSlots.get(w)! - openSlots.get(w)!))
  .sort((a, b) => a - b);
const quantile = (q: number) => slotsToSettle[Math.min(slotsToSettle.length - 1, Math.ceil(q * slotsToSettle.length) - 1)] ?? null;
const settledInTime = slotsToSettle.filter((s) => s <= T_SETTLE_SLOTS).length;
const lastSettleSlot = [...settleSlots.values()].reduce((a, b) => (b > a ? b : a), 0n);
const lastFinishedAt = Math.max(...[...finishedAt.values()]);
const states = Object.fromEntries(['queued', 'requested', 'fulfilled', 'settled', 'expired', 'unknown'].map((s) => [s, landed.filter((w) => state(w) === s).length]));
const keeperCalls = callsAtEnd - callsAtStart;

// --- wasted fees: the keeper's transactions that landed and failed on chain, over distinct transactions sent
const sent = [...sentSignatures] as Signature[];
let landedTransactions = 0;
let failedOnChain = 0;
for (let i = 0; i < sent.length; i += 256) {
  const { value } = await rpc.getSignatureStatuses(sent.slice(i, i + 256), { searchTransactionHistory: true }).send();
  for (const status of value) {
    if (!status) continue;
    landedTransactions += 1;
    if (status.err) failedOnChain += 1;
  }
}
const perWager = (n: number) => round(n / landed.length, 2);
const perMethod = Object.fromEntries(Object.entries(methodsAtEnd).map(([method, n]) => [method, perWager(n)]));

const command = `npm run bench:burst -- ${[WAGERS, SENDERS, ...(MAX_IN_FLIGHT === undefined ? [] : [MAX_IN_FLIGHT])].join(' ')}`;
const result = {
  command,
  date: new Date().toISOString(),
  rpcCallsPerWager: perWager(keeperCalls),
  wsMessagesPerWager: perWager(wsAtEnd - wsAtStart),
  wastedFeesPct: sent.length ? round((failedOnChain / sent.length) * 100, 2) : 0,
  bench: 'keeper-burst',
  slotMs: SLOT_MS,
  wagers: WAGERS,
  senders: SENDERS,
  keeperMaxInFlight: MAX_IN_FLIGHT ?? `default (${DEFAULT_MAX_IN_FLIGHT})`,
  opening: {
    signingMs,
    sentAllMs,
    landed: landed.length,
    sendErrors: sendErrors.length,
    firstSendError: sendErrors[0],
    failedOnChain: openFailures.length,
    notLanded,
    firstOnChainFailure: openFailures[0],
    openSlots: { first: Number(firstOpenSlot), last: Number(lastOpenSlot), spread: Number(lastOpenSlot - firstOpenSlot) },
  },
  settlement: {
    target: `every wager settled by open+${T_SETTLE_SLOTS}`,
    states,
    settledWithinTSettle: settledInTime,
    notSettledWithinTSettle: landed.length - settledInTime,
    slotsFromOpenToSettle: { min: slotsToSettle[0] ?? null, p50: quantile(0.5), p90: quantile(0.9), p99: quantile(0.99), max: slotsToSettle.at(-1) ?? null },
    allFinished: { msAfterFirstSend: Number.isFinite(lastFinishedAt) ? lastFinishedAt - burstStarted : null, slotsAfterFirstOpen: Number(lastSettleSlot - firstOpenSlot) },
  },
  rpc: {
    countedAt: 'HTTP requests from the keeper to the JSON-RPC endpoint (WebSocket subscriptions not included)',
    keeperStartup: callsAtStart,
    duringBurst: keeperCalls,
    perWager: perWager(keeperCalls),
    byMethod: methodsAtEnd,
    perWagerByMethod: perMethod,
  },
  websocket: {
    countedAt: 'messages on the keeper\'s WebSocket, both ways (subscribe requests and answers, notifications)',
    duringBurst: wsAtEnd - wsAtStart,
    perWager: perWager(wsAtEnd - wsAtStart),
    toKeeperByMethod: byCount(wsCounted.toKeeper),
    fromKeeperByMethod: byCount(wsCounted.fromKeeper),
  },
  transactions: {
    sent: sent.length,
    sentBeforeBurst: sentAtStart,
    landed: landedTransactions,
    landedAndFailed: failedOnChain,
    neverLanded: sent.length - landedTransactions,
  },
  counters: keeper.counters(),
};
console.log(JSON.stringify(result, null, 2));
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
await mkdir(resultsDir, { recursive: true });
await writeFile(join(resultsDir, 'burst.json'), `${JSON.stringify(result, null, 2)}\n`);

db.close();
proxy.close();
wsProxy.close();
upstreamAgent.destroy();
await localnet.stop();
await rm(dir, { recursive: true, force: true });
