/**
 * Throughput of the embedded localnet: simple SOL transfers sent over HTTP `sendTransaction` as fast as a
 * few concurrent clients can, first with skipPreflight, then with preflight; and how far the 400 ms slot
 * clock drifts under that load (slot lengths from the chain's own 'slot' events).
 * Prints JSON; asserts nothing. `npm run bench:localnet [-- transfers [clients [inFlight [payers]]]]`.
 *
 * Target to report against: >= 1 000 transfers per second executed, slot drift under 10 %.
 * The localnet runs on this thread as `startLocalnet` runs it; each client is a worker thread (its own
 * event loop and HTTP connections, as a separate app would be) keeping `inFlight` requests open.
 */
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Blockhash,
  type KeyPairSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startLocalnet } from '../src-main/localnet/localnet';

const TRANSFERS = Number(process.argv[2] ?? 8_000);
const CLIENTS = Number(process.argv[3] ?? 3);
const IN_FLIGHT = Number(process.argv[4] ?? 4);
const PAYERS = Number(process.argv[5] ?? 8);
const SLOT_MS = 400;
const IDLE_MS = 4_000;
const TARGET_TPS = 1_000;
const TARGET_DRIFT_PERCENT = 10;

const localnet = await startLocalnet({ rpcPort: 0, slotMs: SLOT_MS });
const { chain } = localnet;

// Slot clock: the time of every 'slot' event, so each phase can take the slots that fell inside it.
const slotTimes: number[] = [];
chain.on('slot', () => slotTimes.push(performance.now()));

const payers: KeyPairSigner[] = await Promise.all(Array.from({ length: PAYERS }, () => generateKeyPairSigner()));
for (const payer of payers) chain.airdrop(payer.address, 1_000_000_000_000n);
const sink = (await generateKeyPairSigner()).address;
chain.airdrop(sink, 1_000_000_000n);

/** `count` distinct signed transfers (payer i % PAYERS; the amount makes each one unique). */
async function buildTransfers(count: number, destination: Address, offset: number): Promise<string[]> {
  const { blockhash, lastValidBlockHeight } = chain.latestBlockhash();
  const lifetime = { blockhash: blockhash as Blockhash, lastValidBlockHeight };
  const wires: string[] = [];
  for (let i = 0; i < count; i++) {
    const payer = payers[i % PAYERS]!;
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions([getTransferSolInstruction({ source: payer, destination, amount: BigInt(offset + i + 1) })], m),
    );
    wires.push(getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message)));
  }
  return wires;
}

function slotStats(from: number, to: number) {
  const times = slotTimes.filter((t) => t >= from && t <= to);
  const lengths = times.slice(1).map((t, i) => t - times[i]!);
  if (lengths.length === 0) return { slots: 0 };
  const sorted = [...lengths].sort((a, b) => a - b);
  const mean = lengths.reduce((sum, value) => sum + value, 0) / lengths.length;
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    slots: times.length,
    meanMs: round(mean),
    p95Ms: round(sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))]!),
    maxMs: round(sorted.at(-1)!),
    driftPercent: round(((mean - SLOT_MS) / SLOT_MS) * 100),
  };
}

/**
 * One client: waits for 'go', then sends its wire transactions one request each, `inFlight` at a time,
 * and reports how many were accepted and the error messages of the others. Plain JS (eval worker).
 */
const CLIENT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, wires, skipPreflight, inFlight } = workerData;
parentPort.once('message', async () => {
  let next = 0, accepted = 0;
  const errors = {};
  const loop = async () => {
    for (let i = next++; i < wires.length; i = next++) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'sendTransaction', params: [wires[i], { encoding: 'base64', skipPreflight }] }),
      });
      const body = await response.json();
      if (body.result) accepted++;
      else { const m = (body.error && body.error.message) || 'no result'; errors[m] = (errors[m] || 0) + 1; }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, loop));
  parentPort.postMessage({ accepted, errors });
});
parentPort.postMessage('ready');
`;

async function send(wires: string[], skipPreflight: boolean) {
  const processedBefore = chain.processedTransactionCount();
  const clients = Array.from({ length: CLIENTS }, (_, c) => {
    const share = wires.filter((_, i) => i % CLIENTS === c);
    return new Worker(CLIENT_SOURCE, { eval: true, workerData: { url: localnet.rpcUrl, wires: share, skipPreflight, inFlight: IN_FLIGHT } });
  });
  await Promise.all(clients.map((worker) => new Promise((resolve) => worker.once('message', resolve))));
  const started = performance.now();
  const results = await Promise.all(
    clients.map((worker) => {
      const done = new Promise<{ accepted: number; errors: Record<string, number> }>((resolve) => worker.once('message', resolve));
      worker.postMessage('go');
      return done;
    }),
  );
  const ended = performance.now();
  await Promise.all(clients.map((worker) => worker.terminate()));
  const accepted = results.reduce((sum, r) => sum + r.accepted, 0);
  const errors = new Map<string, number>();
  for (const result of results) for (const [message, count] of Object.entries(result.errors)) errors.set(message, (errors.get(message) ?? 0) + count);
  const seconds = (ended - started) / 1000;
  const executed = Number(chain.processedTransactionCount() - processedBefore);
  return {
    transfers: wires.length,
    accepted,
    executed,
    errors: Object.fromEntries(errors),
    seconds: Math.round(seconds * 1000) / 1000,
    executedPerSecond: Math.round(executed / seconds),
    slotClock: slotStats(started, ended),
  };
}

// Idle baseline: the slot clock with nothing to do.
const idleFrom = performance.now();
await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
const idle = slotStats(idleFrom, performance.now());

const withoutPreflight = await send(await buildTransfers(TRANSFERS, sink, 0), true);
const withPreflight = await send(await buildTransfers(TRANSFERS, sink, TRANSFERS), false);
await localnet.stop();

const verdict = (phase: typeof withoutPreflight) => ({
  tps: phase.executedPerSecond >= TARGET_TPS ? 'meets' : 'below',
  drift: phase.slotClock.driftPercent !== undefined && Math.abs(phase.slotClock.driftPercent) < TARGET_DRIFT_PERCENT ? 'meets' : 'exceeds',
});

console.log(
  JSON.stringify(
    {
      benchmark: 'localnet sendTransaction throughput (simple SOL transfers over HTTP)',
      config: { transfers: TRANSFERS, clients: CLIENTS, inFlightPerClient: IN_FLIGHT, payers: PAYERS, slotMs: SLOT_MS, node: process.version, cpus: (await import('node:os')).cpus().length },
      target: { executedPerSecond: TARGET_TPS, slotDriftPercentBelow: TARGET_DRIFT_PERCENT },
      idle,
      skipPreflight: { ...withoutPreflight, againstTarget: verdict(withoutPreflight) },
      preflight: { ...withPreflight, againstTarget: verdict(withPreflight) },
    },
    null,
    2,
  ),
);
