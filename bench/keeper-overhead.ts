/**
 * The keeper's own delay, in slots, on a localnet with 400 ms slots: ~100 wagers opened one by one, spread
 * over time, handled by one keeper; for each wager, the slots from its opening to its request landing
 * (allowed from open+2; target: 99 % by open+3) and from the oracle's fulfilment to the settlement landing
 * (target: within 1 slot). Prints JSON; asserts nothing.
 * `npm run bench:keeper [-- wagers [spreadMs]]` (default 100 wagers over 40 s).
 *
 * The localnet runs as its own process (`wager-keeper localnet --rpc-port 0 --slot-ms 400`), like a
 * validator; the keeper and the opening app run in this process. Every slot is read from the chain: open,
 * request and settle slots from getTransaction of the signatures (the keeper's records name them), the
 * fulfilment slot from the oracle request account's fulfil transaction. The keeper's own view (the slot it
 * saw each fulfilment in) is reported next to it.
 */
import { address, createSolanaRpc, type Address, type Signature } from '@solana/kit';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devApp, startLocalnetProcess } from './bench-chain';
import { connectToChain } from '../src-main/chain/rpc-connection';
import { createKeeper } from '../src-main/keeper/keeper';
import { keypairFromBytes } from '../src-main/secrets/keypair-bytes';
import { openDatabase } from '../src-main/store/database';

const WAGERS = Number(process.argv[2] ?? 100);
const SPREAD_MS = Number(process.argv[3] ?? 40_000);
const SLOT_MS = 400;
const REQUEST_TARGET_SLOTS = 3;
const SETTLE_TARGET_SLOTS = 1;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// --- the chain, as its own process
const localnet = await startLocalnetProcess(SLOT_MS);
const { manifest } = localnet;
const rpc = createSolanaRpc(manifest.rpcUrl);
const dir = await mkdtemp(join(tmpdir(), 'bench-keeper-'));

// --- the keeper
const db = openDatabase(join(dir, 'keeper.db'));
const keeper = createKeeper({
  connection: connectToChain(manifest.rpcUrl, manifest.wsUrl),
  signer: await keypairFromBytes(manifest.devKeys.keeper.keypair),
  db,
  programAddress: address(manifest.programs.wager),
});
await keeper.start();

// --- the app: opens WAGERS wagers, one at a random moment in each of WAGERS equal time slices
const { signedOpen } = await devApp(manifest);
const paytables = manifest.paytables.map((p) => address(p.address));
let nonce = BigInt(Date.now()) * 1000n;

async function openOne(index: number): Promise<Address> {
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const { wager, signature, wire } = await signedOpen(paytables[index % paytables.length]!, nonce++, lifetime);
  await rpc.sendTransaction(wire, { encoding: 'base64', preflightCommitment: 'confirmed' }).send();
  for (;;) {
    const status = (await rpc.getSignatureStatuses([signature]).send()).value[0];
    if (status?.err) throw new Error(`open ${signature} failed: ${JSON.stringify(status.err)}`);
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return wager;
    await sleep(50);
  }
}

const started = Date.now();
const slice = SPREAD_MS / WAGERS;
const wagers = await Promise.all(
  Array.from({ length: WAGERS }, async (_, index) => {
    await sleep(index * slice + Math.random() * slice);
    return openOne(index);
  }),
);
const openedAllAfterMs = Date.now() - started;

// --- wait for every wager to be closed by the keeper (settled or expired)
const done = () => wagers.every((w) => ['settled', 'expired', 'unknown'].includes(keeper.records.get(w)?.state ?? ''));
const deadline = Date.now() + 200 * SLOT_MS;
while (!done() && Date.now() < deadline) await sleep(200);
await keeper.stop();

// --- slots, read back from the chain
const slotOf = async (signature: string | null) =>
  signature ? ((await rpc.getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send())?.slot ?? null) : null;

async function fulfilSlot(oracleRequest: Address | null): Promise<bigint | null> {
  if (!oracleRequest) return null;
  const signatures = await rpc.getSignaturesForAddress(oracleRequest, { commitment: 'confirmed' }).send();
  for (const entry of signatures) {
    const tx = await rpc.getTransaction(entry.signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send();
    if (tx && !tx.meta?.err && tx.transaction.message.accountKeys[0] === manifest.oracle.fulfilmentAuthority) return tx.slot;
  }
  return null;
}

const rows: { state: string; openSlot: bigint | null; requestSlot: bigint | null; fulfilledSlot: bigint | null; settleSlot: bigint | null; keeperSawFulfilmentSlot: number | null }[] = [];
for (const wager of wagers) {
  const record = keeper.records.get(wager)!;
  const [requestSlot, settleSlot, fulfilledSlot] = await Promise.all([
    slotOf(record.requestSignature),
    slotOf(record.settleSignature),
    fulfilSlot(record.oracleRequest as Address | null),
  ]);
  rows.push({
    state: record.state,
    openSlot: record.openSlot === null ? null : BigInt(record.openSlot),
    requestSlot,
    fulfilledSlot,
    settleSlot,
    keeperSawFulfilmentSlot: record.fulfilledSlot,
  });
}

const delays = (values: (bigint | null)[]) => values.filter((v): v is bigint => v !== null).map(Number).sort((a, b) => a - b);
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : null);
const histogram = (sorted: number[]) => Object.fromEntries([...new Set(sorted)].map((v) => [v, sorted.filter((x) => x === v).length]));
const summary = (sorted: number[], target: number) => ({
  samples: sorted.length,
  min: sorted[0] ?? null,
  p50: quantile(sorted, 0.5),
  p90: quantile(sorted, 0.9),
  p99: quantile(sorted, 0.99),
  max: sorted.at(-1) ?? null,
  withinTargetPercent: sorted.length ? Math.round((sorted.filter((v) => v <= target).length / sorted.length) * 1000) / 10 : null,
  histogram: histogram(sorted),
});

const requestDelays = delays(rows.map((r) => (r.requestSlot !== null && r.openSlot !== null ? r.requestSlot - r.openSlot : null)));
const settleDelays = delays(rows.map((r) => (r.settleSlot !== null && r.fulfilledSlot !== null ? r.settleSlot - r.fulfilledSlot : null)));
const seenDelays = delays(rows.map((r) => (r.keeperSawFulfilmentSlot !== null && r.fulfilledSlot !== null ? BigInt(r.keeperSawFulfilmentSlot) - r.fulfilledSlot : null)));
const states = Object.fromEntries(['settled', 'expired', 'unknown', 'queued', 'requested', 'fulfilled'].map((s) => [s, rows.filter((r) => r.state === s).length]));

console.log(
  JSON.stringify(
    {
      bench: 'keeper-overhead',
      slotMs: SLOT_MS,
      wagers: WAGERS,
      spreadMs: SPREAD_MS,
      openedAllAfterMs,
      states,
      requestSlotsAfterOpen: { target: `99% <= open+${REQUEST_TARGET_SLOTS} (earliest allowed: open+2)`, ...summary(requestDelays, REQUEST_TARGET_SLOTS) },
      settleSlotsAfterFulfilment: { target: `<= fulfilment+${SETTLE_TARGET_SLOTS}`, ...summary(settleDelays, SETTLE_TARGET_SLOTS) },
      keeperSawFulfilmentSlotsAfterIt: summary(seenDelays, 0),
      counters: keeper.counters(),
    },
    null,
    2,
  ),
);

db.close();
await localnet.stop();
await rm(dir, { recursive: true, force: true });
