/**
 * What the chaos runs share: the keeper as a black box (`wager-keeper keeper`, the real CLI, on its own
 * key and SQLite file), wagers opened at a steady pace, waiting until every wager is closed on chain, and
 * what each wager's history says. The localnet is the keeper tests' in-process one (keeperTestbed), whose
 * slot clock the run drives.
 */
import { type Address } from '@solana/kit';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';
import { openWager, waitFor, wagerHistory, type KeeperTestbed } from '../../keeper/__tests__/keeper-test-helpers';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));
const SOL = 1_000_000_000n;

/** A keypair file for the keeper (funded with 50 SOL on the testbed's chain) and its address. */
export async function keeperKeyFile(bed: KeeperTestbed, name = 'keeper.json'): Promise<{ file: string; address: Address }> {
  const key = await generateKeypairWithBytes();
  bed.localnet.chain.airdrop(key.signer.address, 50n * SOL);
  const file = bed.dir.path(name);
  await writeFile(file, JSON.stringify(Array.from(key.secretKey)), { mode: 0o600 });
  return { file, address: key.signer.address };
}

export interface KeeperRun {
  child: ChildProcessWithoutNullStreams;
  /** Its first stdout line (the ready line) or its end, whichever comes first. */
  ready: Promise<void>;
  exited: Promise<void>;
  output: { stderr: string };
  summary: { startedAt: number; readyAfterMs: number | null; exit: string | null };
}

/** Starts `wager-keeper keeper` with these flags; the caller kills it (or `stopAll`). */
export function startKeeperProcess(args: { rpc: string; ws: string; keypair: string; db: string }, running: KeeperRun[]): KeeperRun {
  const child = spawn(process.execPath, [bin, 'keeper', '--rpc', args.rpc, '--ws', args.ws, '--keypair', args.keypair, '--db', args.db, '--port', '0'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, WAGER_KEEPER_LOG: 'warn' },
  });
  const output = { stderr: '' };
  child.stderr.on('data', (chunk: Buffer) => {
    output.stderr = (output.stderr + chunk.toString()).slice(-20_000);
    if (process.env.CHAOS_LOG) appendFileSync(process.env.CHAOS_LOG, chunk); // the whole log, for a failure's post-mortem
  });
  const summary = { startedAt: Date.now(), readyAfterMs: null as number | null, exit: null as string | null };
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      summary.exit = signal ?? `code ${code}`;
      resolve();
    }),
  );
  const ready = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout }).once('line', () => {
      summary.readyAfterMs = Date.now() - summary.startedAt;
      resolve();
    });
    void exited.then(resolve);
  });
  const run = { child, ready, exited, output, summary };
  running.push(run);
  return run;
}

/** SIGKILLs every keeper still running (a test's afterEach). */
export function killAll(running: KeeperRun[]): void {
  for (const { child } of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/**
 * Opens `count` wagers (dice, 0.1 USDC, the dev app key), `perSecond` at a time each second, straight to the
 * localnet (the user's side of the chaos is healthy). Resolves with their addresses in order.
 */
export async function openAtPace(bed: KeeperTestbed, count: number, perSecond: number, opened: Address[] = []): Promise<Address[]> {
  while (opened.length < count) {
    const batch = Math.min(perSecond, count - opened.length);
    const started = Date.now();
    const wagers = await Promise.all(Array.from({ length: batch }, () => openWager(bed.rpc, bed.localnet, bed.parts.app, { paytable: 'dice', stake: 100_000n })));
    opened.push(...wagers.map((w) => w.wager));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1_000 - (Date.now() - started)))); // the pace of arrivals, not a wait for a state
  }
  return opened;
}

/** Waits until every one of `wagers` is closed on chain; returns the error on timeout instead of throwing. */
export async function waitAllClosed(bed: KeeperTestbed, wagers: readonly Address[], ms: number): Promise<true | Error> {
  return waitFor(
    async () => {
      for (let i = 0; i < wagers.length; i += 100) {
        const { value } = await bed.rpc.getMultipleAccounts(wagers.slice(i, i + 100), { encoding: 'base64', commitment: 'confirmed' }).send();
        if (value.some((account) => account !== null)) return undefined;
      }
      return true as const;
    },
    ms,
    'every wager to be closed on chain',
    500,
  ).catch((error: Error) => error);
}

/**
 * Waits until the keeper's SQLite records name how each of `wagers` ended (settled or expired, with the
 * transaction): a wager closed on chain is booked once the keeper sees its confirmation, which RPC faults
 * can delay by seconds after the chain closed it. Returns the error on timeout; the conservation check
 * then names what is missing.
 */
export async function waitRecordsBooked(dbFile: string, wagers: readonly Address[], ms: number): Promise<true | Error> {
  return waitFor(
    () => {
      const reader = new DatabaseSync(dbFile, { readOnly: true });
      try {
        const rows = reader.prepare('SELECT address, state, settle_signature, expire_signature FROM wagers').all() as {
          address: string; state: string; settle_signature: string | null; expire_signature: string | null;
        }[];
        const byAddress = new Map(rows.map((row) => [row.address, row]));
        const booked = wagers.every((wager) => {
          const row = byAddress.get(wager);
          return (row?.state === 'settled' && row.settle_signature !== null) || (row?.state === 'expired' && row.expire_signature !== null);
        });
        return booked ? (true as const) : undefined;
      } finally {
        reader.close();
      }
    },
    ms,
    "every wager's end booked in the keeper's records",
    250,
  ).catch((error: Error) => error);
}

/** Each wager's event names and the fee payer of its last step, from the chain's history. */
export function endings(bed: KeeperTestbed, wagers: readonly Address[]) {
  return wagers.map((wager) => {
    const history = wagerHistory(bed.localnet, wager, bed.parts.program);
    return { wager, names: history.flatMap((h) => h.events.map((e) => e.name)), lastFeePayer: history.at(-1)?.feePayer };
  });
}
