/**
 * Several keepers on one localnet, and what they cost (issue 19): the fleet test and bench/keeper-fleet.ts
 * share it. A localnet with real-time slots (400 ms by default), keepers as createKeeper instances with
 * their own keys, SQLite files and connections (as separate processes would have), wagers opened by
 * several senders at once, and the figures read back from the chain over JSON-RPC: every transaction that
 * touched a wager after its opening (sent by a keeper), the ones that landed and failed (wasted fees), the
 * settle slot against the oracle's fulfilment slot, and the slots from opening to closing.
 */
import { generateKeyPairSigner, type Address, type KeyPairSigner, type Lamports, type Signature } from '@solana/kit';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { connectToChain } from '../../chain/rpc-connection';
import { startLocalnet, type Localnet, type LocalnetManifest } from '../../localnet/localnet';
import type { Database } from '../../store/database';
import { createKeeper, type Keeper } from '../keeper';
import { shardOf } from '../shard';
import { T_SETTLE_SLOTS } from '../../../src-shared/wager-timing';
import { freshDatabase, localnetParts, openWager, tempDir, type LocalnetParts } from './keeper-test-helpers';


export interface FleetBed {
  localnet: Pick<Localnet, 'rpcUrl' | 'wsUrl' | 'manifest'>;
  parts: LocalnetParts;
  dir: Awaited<ReturnType<typeof tempDir>>;
  airdrop(to: Address, lamports: bigint): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A localnet with real-time slots: in this process, or (`ownProcess`, as the bench runs it) as its own
 * `wager-keeper localnet` process, like a validator, so that the keepers of this process do not share
 * their event loop with the chain.
 */
export async function startFleetBed(slotMs = 400, { ownProcess = false } = {}): Promise<FleetBed> {
  const dir = await tempDir('fleet-');
  if (!ownProcess) {
    const localnet = await startLocalnet({ rpcPort: 0, slotMs });
    return {
      localnet,
      parts: await localnetParts(localnet),
      dir,
      airdrop: async (to, lamports) => void localnet.chain.airdrop(to, lamports),
      async stop() {
        await localnet.stop();
        await dir.remove();
      },
    };
  }
  const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));
  const child = spawn(process.execPath, [bin, 'localnet', '--rpc-port', '0', '--slot-ms', String(slotMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const manifest = await new Promise<LocalnetManifest>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as LocalnetManifest));
    child.once('exit', (code) => reject(new Error(`the localnet exited (${code})`)));
  });
  const localnet = { rpcUrl: manifest.rpcUrl, wsUrl: manifest.wsUrl, manifest };
  const parts = await localnetParts(localnet as Localnet);
  return {
    localnet,
    parts,
    dir,
    airdrop: async (to, lamports) => void (await parts.rpc.requestAirdrop(to, lamports as Lamports).send()),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await dir.remove();
    },
  };
}

export interface FleetKeeper {
  keeper: Keeper;
  key: KeyPairSigner;
  db: Database;
  shard?: number;
  running: boolean;
  stop(): Promise<void>;
}

/** `count` keepers, each with a fresh funded key, its own SQLite file and its own chain connection; a fleet with `shards`. */
export async function startKeepers(bed: FleetBed, name: string, count: number, { shards = false, yieldToRivals = true } = {}): Promise<FleetKeeper[]> {
  const keepers: FleetKeeper[] = [];
  for (let index = 0; index < count; index++) {
    const key = await generateKeyPairSigner();
    await bed.airdrop(key.address, 100_000_000_000n);
    const db = freshDatabase(bed.dir, `${name}-${index}.db`);
    const keeper = createKeeper({
      connection: connectToChain(bed.localnet.rpcUrl, bed.localnet.wsUrl),
      signer: key,
      db,
      programAddress: bed.parts.program,
      sweepIntervalMs: 60_000,
      yieldToRivals,
      ...(shards ? { shard: { index, count } } : {}),
    });
    const member: FleetKeeper = {
      keeper,
      key,
      db,
      ...(shards ? { shard: index } : {}),
      running: true,
      async stop() {
        if (!member.running) return;
        member.running = false;
        await keeper.stop();
        db.close();
      },
    };
    keepers.push(member);
  }
  await Promise.all(keepers.map((k) => k.keeper.start()));
  return keepers;
}

/** Opens `count` wagers with `senders` at once (each waits for its open to land); every keeper finds them by its subscription. */
export async function openWagers(bed: FleetBed, count: number, senders = 6, onProgress?: (opened: number) => void): Promise<Address[]> {
  const opened: Address[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: senders }, async () => {
      while (next < count) {
        next++;
        const { wager } = await openWager(bed.parts.rpc, bed.localnet as Localnet, bed.parts.app, { stake: 1_000_000n });
        opened.push(wager);
        if (opened.length % 100 === 0) onProgress?.(opened.length);
      }
    }),
  );
  return opened;
}

/** Waits until every wager is closed on chain (settled or expired), reading 100 at a time. */
export async function waitClosed(bed: FleetBed, wagers: readonly Address[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let open = [...wagers];
  while (open.length > 0) {
    if (Date.now() > deadline) throw new Error(`${open.length} of ${wagers.length} wagers still open after ${timeoutMs} ms (e.g. ${open.slice(0, 3).join(', ')})`);
    const still: Address[] = [];
    for (let i = 0; i < open.length; i += 100) {
      const chunk = open.slice(i, i + 100);
      const { value } = await bed.parts.rpc.getMultipleAccounts(chunk, { encoding: 'base64', commitment: 'confirmed' }).send();
      value.forEach((account, index) => account && still.push(chunk[index]!));
    }
    open = still;
    if (open.length > 0) await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export interface WagerFigures {
  wager: Address;
  openSlot: number;
  closeSlot: number;
  /** The oracle's fulfilment (undefined for an expired wager). */
  fulfilSlot?: number;
  /** Keeper transactions that touched it (landed), and those that failed on chain. */
  sent: number;
  failed: number;
  /** Its fleet shard, with `shards`. */
  shard?: number;
}

const mapLimit = async <T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> => {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
};

/** Reads each closed wager's history from the chain (JSON-RPC). `oracleRequestOf` names its oracle request (a keeper's record). */
export async function wagerFigures(bed: FleetBed, wagers: readonly Address[], oracleRequestOf: (wager: Address) => string | null, shards?: number): Promise<WagerFigures[]> {
  const { rpc } = bed.parts;
  return mapLimit(wagers, 8, async (wager) => {
    // Newest first; the oldest is the opening (the app's), the others are keepers' cranks.
    const history = await rpc.getSignaturesForAddress(wager, { limit: 1000, commitment: 'confirmed' }).send();
    const opening = history.at(-1)!;
    const cranks = history.slice(0, -1);
    const closing = cranks.find((s) => s.err === null);
    const request = oracleRequestOf(wager);
    let fulfilSlot: number | undefined;
    if (request) {
      const own = new Set(history.map((s) => s.signature));
      const oracle = await rpc.getSignaturesForAddress(request as Address, { limit: 100, commitment: 'confirmed' }).send();
      const fulfils = oracle.filter((s) => s.err === null && !own.has(s.signature as Signature)).map((s) => Number(s.slot));
      if (fulfils.length) fulfilSlot = Math.min(...fulfils);
    }
    return {
      wager,
      openSlot: Number(opening.slot),
      closeSlot: Number(closing?.slot ?? -1),
      ...(fulfilSlot !== undefined ? { fulfilSlot } : {}),
      sent: cranks.length,
      failed: cranks.filter((s) => s.err !== null).length,
      ...(shards ? { shard: shardOf(wager, shards) } : {}),
    };
  });
}

const percentile = (values: number[], p: number): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const pct = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

export interface RunFigures {
  wagers: number;
  /** Keeper transactions that landed on the wagers (successful or failed). */
  transactionsSent: number;
  /** Landed and failed: fees paid for nothing. */
  wasted: number;
  wastedPct: number;
  /** Cranks the keepers recorded as lost to another keeper (on chain or at simulation), over all their crank outcomes. */
  lostRaces: number;
  lostRacesPct: number;
  /** Lost races per step. */
  lostBy: Record<string, number>;
  /** Slots from the oracle's fulfilment to the settlement. */
  settleDelayAfterFulfilSlots: { p50: number | null; p99: number | null; max: number | null };
  /** Closed more than T_SETTLE slots after opening, or not settled. */
  lateOrExpired: number;
}

/** The figures of one run: the chain's history of every wager, and the keepers' own lost/landed counts. */
export function runFigures(figures: readonly WagerFigures[], keepers: readonly FleetKeeper[]): RunFigures {
  const transactionsSent = figures.reduce((sum, f) => sum + f.sent, 0);
  const wasted = figures.reduce((sum, f) => sum + f.failed, 0);
  let lost = 0;
  let outcomes = 0;
  const lostBy: Record<string, number> = {};
  for (const { keeper } of keepers) {
    for (const [step, counts] of Object.entries(keeper.counters())) {
      if (!['request', 'settle', 'expire'].includes(step)) continue;
      lost += counts.lost;
      lostBy[step] = (lostBy[step] ?? 0) + counts.lost;
      outcomes += counts.landed + counts.lost + counts.skipped + counts.failed;
    }
  }
  const delays = figures.flatMap((f) => (f.fulfilSlot !== undefined && f.closeSlot >= 0 ? [f.closeSlot - f.fulfilSlot] : []));
  return {
    wagers: figures.length,
    transactionsSent,
    wasted,
    wastedPct: pct(wasted, transactionsSent),
    lostRaces: lost,
    lostRacesPct: pct(lost, outcomes),
    lostBy,
    settleDelayAfterFulfilSlots: { p50: percentile(delays, 50), p99: percentile(delays, 99), max: percentile(delays, 100) },
    lateOrExpired: figures.filter((f) => f.fulfilSlot === undefined || f.closeSlot < 0 || f.closeSlot - f.openSlot > T_SETTLE_SLOTS).length,
  };
}

/** A wager's oracle request, from whichever keeper recorded it. */
export const oracleRequestFrom = (keepers: readonly FleetKeeper[]) => (wager: Address) => {
  for (const { keeper, running } of keepers) {
    if (!running) continue; // its file is closed
    const request = keeper.records.get(wager)?.oracleRequest;
    if (request) return request;
  }
  return null;
};
