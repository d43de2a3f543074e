/**
 * Chaos: the oracle stops answering for 200 slots (`wager-keeper oracle stall`, then `oracle resume`) while
 * wagers are opened and a keeper (`wager-keeper keeper`, the real CLI) cranks them. Every wager waiting on
 * the oracle must be expired by the keeper once its window closes (none left behind, none settled out of
 * thin air), its stake kept by the pool; after the resume, new wagers settle again; and the pool's USDC
 * adds up (conservation.ts).
 */
import { type Address } from '@solana/kit';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keeperTestbed, waitFor } from '../../keeper/__tests__/keeper-test-helpers';
import { endings, waitRecordsBooked, keeperKeyFile, killAll, openAtPace, startKeeperProcess, waitAllClosed, type KeeperRun } from './chaos-harness';
import { checkConservation, conservationBaseline, poolOf } from './conservation';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));
const STALL_SLOTS = 200;
const STALLED_WAGERS = 30;
const AFTER_WAGERS = 10;

/** 100 ms slots: the 200-slot stall passes in about 20 s. */
const bed = keeperTestbed({ prefix: 'chaos-stall-', pumpMs: 100 });
const running: KeeperRun[] = [];
afterEach(() => killAll(running));
let key: { file: string; address: Address };
beforeAll(async () => {
  key = await keeperKeyFile(bed);
});

const oracle = async (action: 'stall' | 'resume' | 'status') => {
  const { stdout } = await promisify(execFile)(process.execPath, [bin, 'oracle', action, '--rpc', bed.localnet.rpcUrl]);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { stalled: boolean; pending: number };
};

describe('an oracle stalled for 200 slots', () => {
  it('leaves no wager behind: the keeper expires every one that waited on it, and wagers settle again after the resume', async () => {
    const baseline = await conservationBaseline(bed.rpc, poolOf(bed.localnet.manifest));
    const db = bed.dir.path('keeper.db');
    const keeper = startKeeperProcess({ rpc: bed.localnet.rpcUrl, ws: bed.localnet.wsUrl, keypair: key.file, db }, running);
    await keeper.ready;

    expect((await oracle('stall')).stalled).toBe(true);
    const stalledFrom = bed.localnet.chain.slot();
    const stalled = await openAtPace(bed, STALLED_WAGERS, 10);
    // The keeper asks for randomness for each; the oracle holds every request.
    await waitFor(async () => ((await oracle('status')).pending >= STALLED_WAGERS ? true : undefined), 60_000, `${STALLED_WAGERS} requests waiting on the oracle`, 250);
    await waitFor(() => (bed.localnet.chain.slot() >= stalledFrom + BigInt(STALL_SLOTS) ? true : undefined), 120_000, `${STALL_SLOTS} slots of stall`, 100);
    const expiredAll = await waitAllClosed(bed, stalled, 60_000);
    // Resumed only once every stalled wager is closed: a request fulfilled late would be settleable again.
    expect((await oracle('resume')).stalled).toBe(false);

    const after = await openAtPace(bed, AFTER_WAGERS, 10);
    const settledAfter = await waitAllClosed(bed, after, 60_000);

    const ends = endings(bed, [...stalled, ...after]);
    const report = { expiredAll, settledAfter, keeper: keeper.summary, stderr: keeper.output.stderr.slice(-3_000), unfinished: ends.filter((e) => e.names.length < 3) };
    expect(expiredAll, JSON.stringify(report, null, 1)).toBe(true);
    expect(settledAfter, JSON.stringify(report, null, 1)).toBe(true);
    for (const end of ends.slice(0, STALLED_WAGERS)) {
      expect(end.names, end.wager).toEqual(['WagerOpened', 'WagerRandomnessRequested', 'WagerExpired']);
      expect(end.lastFeePayer, `${end.wager} expired by the keeper`).toBe(key.address);
    }
    for (const end of ends.slice(STALLED_WAGERS)) expect(end.names, end.wager).toEqual(['WagerOpened', 'WagerRandomnessRequested', 'WagerSettled']);

    await waitRecordsBooked(db, [...stalled, ...after], 30_000); // booked after the chain closed them: confirmations come late under faults
    const conservation = await checkConservation({ rpc: bed.rpc, program: bed.parts.program, baseline, dbFile: db, wagers: [...stalled, ...after] });
    expect(conservation.mismatches, JSON.stringify({ ...conservation, outcomes: undefined }, null, 1)).toEqual([]);
    expect(conservation.events).toMatchObject({ opened: STALLED_WAGERS + AFTER_WAGERS, expired: STALLED_WAGERS, settled: AFTER_WAGERS });
    expect(conservation.records?.checked).toBe(STALLED_WAGERS + AFTER_WAGERS);
  }, 300_000);
});
