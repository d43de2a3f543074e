/**
 * Chaos: 500 wagers in flight (5 opened per second) while the keeper (`wager-keeper keeper`, the real CLI, one key and one
 * SQLite file) is SIGKILLed at seeded moments 5 times and restarted each time after a seeded downtime.
 * The oracle answers throughout, so no wager may expire (expiry forfeits the stake): every one settles,
 * every record is complete and matches the chain, and the pool's USDC adds up (conservation.ts).
 * Knobs for longer runs by hand: CHAOS_WAGERS, CHAOS_KILLS, CHAOS_SEED.
 * (src-main/keeper/__tests__/keeper-faults-restart.test.ts is the shorter run inside `npm test`.)
 */
import { type Address } from '@solana/kit';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keeperTestbed, waitFor } from '../../keeper/__tests__/keeper-test-helpers';
import { seededRandom } from '../../keeper/__tests__/rpc-fault-proxy';
import { endings, keeperKeyFile, killAll, openAtPace, startKeeperProcess, waitAllClosed, type KeeperRun } from './chaos-harness';
import { checkConservation, conservationBaseline, poolOf } from './conservation';

const WAGERS = Number(process.env.CHAOS_WAGERS ?? 500);
const KILLS = Number(process.env.CHAOS_KILLS ?? 5);
const SEED = Number(process.env.CHAOS_SEED ?? 20);
const OPEN_PER_SECOND = 5;

/** Slots at a public cluster's pace: the 150-slot window is about a minute. */
const bed = keeperTestbed({ prefix: 'chaos-crash-', pumpMs: 400 });
const running: KeeperRun[] = [];
afterEach(() => killAll(running));
let key: { file: string; address: Address };
beforeAll(async () => {
  key = await keeperKeyFile(bed);
});

describe('a keeper SIGKILLed and restarted while 500 wagers are in flight', () => {
  it(`settles every one of ${WAGERS} wagers (none expires while the oracle answers); every record is complete and matches the chain`, async () => {
    const random = seededRandom(SEED);
    const db = bed.dir.path('keeper.db');
    const baseline = await conservationBaseline(bed.rpc, poolOf(bed.localnet.manifest));
    const start = () => startKeeperProcess({ rpc: bed.localnet.rpcUrl, ws: bed.localnet.wsUrl, keypair: key.file, db }, running);
    const runs: KeeperRun[] = [start()];
    await runs[0]!.ready; // its first start warms the TypeScript cache, as an operator's running keeper has
    const wagers: Address[] = [];
    const opening = openAtPace(bed, WAGERS, OPEN_PER_SECOND, wagers);
    for (let kill = 0; kill < KILLS; kill++) {
      const keeper = runs.at(-1)!;
      await keeper.ready;
      // A seeded moment 6-14 s into its run: long enough to catch up on what arrived while it was down (a
      // restart under load takes 10-16 s on a busy 2-core machine), so kills come every ~20 s over the opening.
      await new Promise((resolve) => setTimeout(resolve, 6_000 + random() * 8_000));
      keeper.child.kill('SIGKILL');
      await keeper.exited;
      await new Promise((resolve) => setTimeout(resolve, 500 + random() * 2_500)); // down for a while: wagers keep coming
      runs.push(start());
    }
    await opening;
    const closed = await waitAllClosed(bed, wagers, 180_000);

    const ends = endings(bed, wagers);
    const report = {
      closed,
      keeperRuns: runs.map((r) => r.summary),
      wagersOpenedDuringKills: wagers.length,
      notSettled: ends.filter((e) => e.names.join() !== 'WagerOpened,WagerRandomnessRequested,WagerSettled'),
      stderr: runs.at(-1)!.output.stderr.slice(-3_000),
    };
    expect(closed, JSON.stringify(report, null, 1)).toBe(true);
    expect(report.notSettled, JSON.stringify(report, null, 1)).toEqual([]);
    expect(runs.filter((r) => r.summary.exit === 'SIGKILL')).toHaveLength(KILLS);

    // Every record complete: the slots and signatures of its steps, as the chain has them. A wager settled
    // by a keeper killed before it wrote that down is learnt by the next one from the chain's history: wait.
    const readRows = () => {
      const reader = new DatabaseSync(db, { readOnly: true });
      try {
        const all = reader.prepare('SELECT address, state, open_slot, expiry_slot, oracle_request, request_signature, settle_signature, bucket, payout FROM wagers').all() as Record<string, unknown>[];
        return new Map(all.map((row) => [row.address as string, row]));
      } finally {
        reader.close();
      }
    };
    const incompleteOf = (rows: Map<string, Record<string, unknown>>) =>
      wagers.filter((wager) => {
        const row = rows.get(wager);
        return !row || row.state !== 'settled' || [row.open_slot, row.expiry_slot, row.oracle_request, row.request_signature, row.settle_signature, row.bucket, row.payout].some((v) => v === null);
      });
    const complete = await waitFor(() => (incompleteOf(readRows()).length === 0 ? true : undefined), 90_000, 'every record to be complete', 500).catch(() => false);
    const rows = readRows();
    expect(complete, JSON.stringify(incompleteOf(rows).map((wager) => rows.get(wager) ?? wager), null, 1)).toBe(true);
    for (const wager of wagers) {
      const history = ends.find((e) => e.wager === wager)!;
      expect(history.names).toHaveLength(3);
    }

    const conservation = await checkConservation({ rpc: bed.rpc, program: bed.parts.program, baseline, dbFile: db, wagers });
    expect(conservation.mismatches, JSON.stringify({ ...conservation, outcomes: undefined }, null, 1)).toEqual([]);
    expect(conservation.events).toMatchObject({ opened: WAGERS, settled: WAGERS, expired: 0 });
    expect(conservation.records?.checked).toBe(WAGERS);
  }, 480_000);
});
