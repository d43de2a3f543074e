/**
 * The console's start/pause switch, as an operator relies on it: a paused keeper sends nothing new (a
 * wager it knows stays queued well past open + 2, and no crank is booked), and resuming settles what waited.
 */
import { describe, expect, it } from 'vitest';
import { keeperTestbed, openWager, waitFor } from './keeper-test-helpers';

const bed = keeperTestbed();

describe('pausing and resuming the crank loop', () => {
  it('sends nothing while paused and settles the waiting wager on resume', async () => {
    const { keeper, db } = await bed.keeper('pause');
    keeper.setPaused(true);
    expect(keeper.isPaused()).toBe(true);

    const second = await openWager(bed.rpc, bed.localnet, bed.parts.app);
    await keeper.submitWager(second.wager);
    const openSlot = keeper.records.get(second.wager)!.openSlot!;
    // Well past open + 2, when an unpaused keeper requests at once.
    await waitFor(async () => ((await bed.rpc.getSlot({ commitment: 'confirmed' }).send()) > BigInt(openSlot + 12) ? true : undefined), 30_000, 'slots to pass');
    await keeper.tick();
    expect(keeper.records.get(second.wager)!.state).toBe('queued');
    const booked = (db.prepare('SELECT COUNT(*) AS n FROM earnings WHERE wager = ?').get(second.wager) as { n: number }).n;
    expect(booked).toBe(0);

    keeper.setPaused(false);
    await waitFor(() => (keeper.records.get(second.wager)?.state === 'settled' ? true : undefined), 30_000, 'the waiting wager to settle');
    expect(keeper.records.get(second.wager)).toMatchObject({ state: 'settled', paytable: bed.localnet.manifest.paytables[0]!.address, stake: '1000000' });
  });
});
