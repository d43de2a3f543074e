/**
 * Attack (issue 33, item 8): two sweeps of the keeper's SOL at once. Each plans from the balance it read,
 * so without one lock around every sweep both "fit" above the reserve and both land, leaving the keeper
 * below its reserve (its fees for the next days). Through the console's real sweep service (`sweepNow`,
 * the automatic mode) on a real localnet and a real SQLite file: whatever the overlap, the keeper keeps
 * at least its reserve, and the sweep that no longer fits is refused with the new figures.
 */
import {
  createSolanaRpc,
  generateKeyPairSigner,
  lamports,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnet, type BareLocalnet } from '../../localnet/localnet';
import { eventually, type LocalRpc } from '../../localnet/__tests__/localnet-test-helpers';
import { CONSOLE_SETTINGS_DEFAULTS, DEFAULT_SWEEP_SETTINGS } from '../../runtime/console-settings';
import type { KeeperControl } from '../../runtime/keeper-control';
import type { ConsoleSettings } from '../../../src-shared/contract/settings';
import { createSweepService } from '../../operator/sweep-service';
import { openDatabase, type Database } from '../../store/database';

const SOL = 1_000_000_000n;
const RESERVE = SOL / 10n;

let localnet: BareLocalnet;
let rpc: LocalRpc;
let folder: string;
const databases: Database[] = [];

const balanceOf = async (of: Address) => (await rpc.getBalance(of, { commitment: 'confirmed' }).send()).value;

/** A fresh keeper holding exactly `held` lamports. */
async function keeperHolding(held: bigint): Promise<KeyPairSigner> {
  const keeper = await generateKeyPairSigner();
  await rpc.requestAirdrop(keeper.address, lamports(held)).send();
  await eventually(async () => ((await balanceOf(keeper.address)) === held ? true : undefined), 10_000, 'the keeper funded');
  return keeper;
}

/** The console's sweep service over a keeper with this key (its settings in memory, its ledger in SQLite). */
function sweepServiceFor(keeper: KeyPairSigner, sweep: Partial<ConsoleSettings['sweep']>) {
  const db = openDatabase(join(folder, `${keeper.address}.db`));
  databases.push(db);
  let saved: ConsoleSettings = {
    ...CONSOLE_SETTINGS_DEFAULTS,
    sweep: { ...DEFAULT_SWEEP_SETTINGS, keepLamports: RESERVE.toString(), ...sweep },
  };
  const side = {
    signer: keeper,
    core: { db, connection: { rpc }, keeper: { earnings: { totals: () => [] } } },
  };
  const control = {
    keeperSide: side,
    chain: { view: { name: 'localnet' } },
    settings: () => saved,
    notRunning: (what: string) => new Error(`cannot ${what}: no keeper`),
  } as unknown as KeeperControl;
  const settings = {
    get store() {
      return saved;
    },
    set: (changes: Partial<ConsoleSettings>) => void (saved = { ...saved, ...changes }),
  };
  const log = { info: () => undefined, warn: () => undefined } as never;
  return createSweepService(control, { flags: {}, settings, log } as never, () => undefined);
}

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, bare: true });
  rpc = createSolanaRpc(localnet.rpcUrl);
  folder = await mkdtemp(join(tmpdir(), 'concurrent-sweep-'));
});
afterAll(async () => {
  for (const db of databases) db.close();
  await localnet?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('two sweeps at once', () => {
  it('sweepNow twice: the second plans from the balance the first left, so the keeper keeps its reserve', async () => {
    // 0.3 SOL above the reserve: 0.2 and 0.15 each fit alone, not both (yet the keeper could pay both, from its reserve).
    const keeper = await keeperHolding(RESERVE + 3n * (SOL / 10n));
    const wallet = (await generateKeyPairSigner()).address;
    const service = sweepServiceFor(keeper, { destination: wallet });
    try {
      const results = await Promise.allSettled([
        service.api.sweepNow({ confirm: true, amountLamports: (2n * (SOL / 10n)).toString() }),
        service.api.sweepNow({ confirm: true, amountLamports: (15n * (SOL / 100n)).toString() }),
      ]);
      expect(await balanceOf(keeper.address)).toBeGreaterThanOrEqual(RESERVE);
      expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: 'cutsIntoReserve' });
    } finally {
      service.stop();
    }
  });

  it('sweepNow during an automatic sweep: the keeper keeps its reserve', async () => {
    // The automatic mode sends everything above the reserve; Send now asks for 0.05 SOL at the same moment.
    const keeper = await keeperHolding(RESERVE + SOL);
    const wallet = (await generateKeyPairSigner()).address;
    const service = sweepServiceFor(keeper, { destination: wallet, automatic: true, thresholdLamports: (SOL / 10n).toString() });
    try {
      service.start(); // the first automatic check runs at once (setImmediate)
      const manual = await service.api
        .sweepNow({ confirm: true, amountLamports: (SOL / 20n).toString() })
        .then(() => 'sent', (error: { code?: string }) => error.code ?? 'failed');
      // The automatic sweep lands either way (first, or after Send now with what is left above the reserve).
      await eventually(async () => ((await service.api.earningsSweep()).recent.some((sweep) => sweep.trigger === 'automatic') ? true : undefined), 10_000, 'the automatic sweep');
      expect(await balanceOf(keeper.address)).toBeGreaterThanOrEqual(RESERVE);
      expect(['sent', 'nothingAboveReserve', 'cutsIntoReserve']).toContain(manual);
    } finally {
      service.stop();
    }
  });
});
