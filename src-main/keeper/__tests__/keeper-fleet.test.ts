/**
 * Issue 19 on a real localnet (its own process, 400 ms slots, real time): three keepers as a fleet (`shard` 0/3, 1/3, 2/3)
 * settle every wager with under 1 % lost races and no fee wasted on the chain; one member stopped, the
 * wagers of its shard are still settled inside T_SETTLE by the others. And three keepers that know nothing
 * of each other take turns once they have met (rival-yield.ts): none of their transactions fails on chain,
 * and fewer of their cranks are lost than when racing blind. FLEET_TEST_WAGERS (default 150) sets the size; the bench
 * (`npm run bench:fleet`) runs 1 000 and prints the figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from '@solana/kit';
import type { OverdueWager } from '../overdue';
import { shardOf } from '../shard';
import { T_SETTLE_SLOTS } from '../../../src-shared/wager-timing';
import { openWagers, oracleRequestFrom, runFigures, startFleetBed, startKeepers, waitClosed, wagerFigures, type FleetBed, type FleetKeeper } from './fleet-harness';

const WAGERS = Number(process.env.FLEET_TEST_WAGERS ?? 150);
/** Wagers opened after a member is stopped (about a third of them are its shard's). */
const AFTER_KILL = Math.max(30, Math.round(WAGERS / 3));

let bed: FleetBed;
const running: FleetKeeper[] = [];

beforeAll(async () => {
  // The chain as its own process, like a validator: the keepers of this process do not wait on its work.
  bed = await startFleetBed(400, { ownProcess: true });
});
afterAll(async () => {
  for (const keeper of running) await keeper.stop();
  await bed?.stop();
});

describe('keepers sharing one chain', () => {
  it(`a fleet of three (--shard I/3) settles ${WAGERS} wagers without racing itself, and loses nothing when a member stops`, async () => {
    const fleet = await startKeepers(bed, 'fleet', 3, { shards: true });
    running.push(...fleet);
    // As the console does from Settings → Fleet's members: each knows the others' keys (never its rivals).
    for (const member of fleet) member.keeper.setFleetPeers(fleet.map((other) => other.key.address));
    expect((await fleet[1]!.keeper.health()).shard).toBe('1/3');

    const wagers = await openWagers(bed, WAGERS);
    await waitClosed(bed, wagers, 120_000);
    const figures = await wagerFigures(bed, wagers, oracleRequestFrom(fleet), 3);
    const run = runFigures(figures, fleet);
    console.log(JSON.stringify({ fleet: run }));
    expect(run.lateOrExpired).toBe(0);
    expect(run.lostRacesPct).toBeLessThan(1);
    expect(run.wastedPct).toBeLessThan(1);
    // Each member cranked its own shard's wagers: no takeovers while all are up.
    for (const member of fleet) expect(member.keeper.fleet().takeovers).toEqual({});

    // Member 2 dies: its shard waits the takeover (20 slots) and is cranked by the others, inside T_SETTLE.
    const overdueSeen: { member: number; entry: OverdueWager }[] = [];
    fleet.slice(0, 2).forEach((member, index) => member.keeper.events.on('overdue', (entry) => overdueSeen.push({ member: index, entry })));
    await fleet[2]!.stop();
    const later = await openWagers(bed, AFTER_KILL);
    await waitClosed(bed, later, 120_000);
    const orphaned = (await wagerFigures(bed, later, oracleRequestFrom(fleet), 3)).filter((f) => f.shard === 2);
    expect(orphaned.length).toBeGreaterThan(0);
    const settledInTime = orphaned.filter((f) => f.fulfilSlot !== undefined && f.closeSlot - f.openSlot <= T_SETTLE_SLOTS);
    console.log(JSON.stringify({ afterKill: { shardWagers: orphaned.length, settledWithinTSettle: settledInTime.length, slotsOpenToSettle: orphaned.map((f) => f.closeSlot - f.openSlot) } }));
    expect(settledInTime.length).toBe(orphaned.length);
    // Its wagers were overdue (10 slots late) before the takeover (20): each said whose it is and when this member sends it.
    const heldOverdue = overdueSeen.filter(({ entry }) => shardOf(entry.wager as Address, 3) === 2);
    expect(heldOverdue.length).toBeGreaterThan(0);
    for (const { member, entry } of heldOverdue) {
      expect(entry.heldFor?.shard).toBe('2/3');
      expect(entry.heldFor!.takeoverSlot).toBeGreaterThanOrEqual(entry.openSlot + 2 + (member === 0 ? 20 : 25));
    }
    // Member 0 (its successor) took them over, member 1 only as a later backup.
    expect(fleet[0]!.keeper.fleet().takeovers.settle ?? 0).toBeGreaterThan(0);
    expect(later.filter((w) => shardOf(w, 3) === 2)).toHaveLength(orphaned.length);
    // A takeover race lost to a member does not make the two take turns on their own shards.
    for (const member of fleet.slice(0, 2)) {
      expect(member.keeper.fleet().rivals).toEqual([]);
      expect(member.keeper.fleet().peers).toHaveLength(2);
    }
    for (const member of fleet) await member.stop();
  }, 300_000);

  it(`three independent keepers on ${WAGERS} wagers take turns once they have met: none of their transactions fails on chain, fewer races are lost`, async () => {
    const keepers = await startKeepers(bed, 'independent', 3);
    running.push(...keepers);
    const wagers = await openWagers(bed, WAGERS);
    await waitClosed(bed, wagers, 120_000);
    const run = runFigures(await wagerFigures(bed, wagers, oracleRequestFrom(keepers)), keepers);
    console.log(JSON.stringify({ independent: run, rivals: keepers.map((k) => k.keeper.fleet().rivals.length) }));
    expect(run.lateOrExpired).toBe(0);
    // Each learned at least one rival (a keeper learns one by losing a race to it) and no stranger.
    const addresses = keepers.map((k) => k.key.address as string);
    for (const keeper of keepers) {
      expect(keeper.keeper.fleet().rivals.length).toBeGreaterThan(0);
      for (const rival of keeper.keeper.fleet().rivals) expect(addresses).toContain(rival);
    }
    // Nothing paid for on chain in vain (the send's preflight refuses a crank already done; on a real
    // cluster a race the preflight cannot see lands and fails, which is what the turns avoid).
    expect(run.wastedPct).toBeLessThan(10);
    // Racing blind, two of three keepers lose every step (67 %); taking turns, fewer (the bench measures
    // how many; a loaded machine delays the first keeper's crank past the next one's turn at times).
    expect(run.lostRacesPct).toBeLessThan(60);
  }, 300_000);
});
