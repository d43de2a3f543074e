/**
 * The guardian as the spec runs it, on a real localnet: with the oracle stalled, new wagers are paused
 * before a randomness request has waited 60 + a few slots (the config's flag on chain; open_wager is then
 * refused with the program's `paused`), and once the oracle fulfils again the waiting wager settles and
 * the guardian resumes after the configured slots. A pause a person made is never lifted by it.
 */
import { address, type KeyPairSigner, type Signature } from '@solana/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { openWager as openWagerAsAnyone } from '../../deployment/open-wager';
import { findConfigPda, getSetPausedInstructionAsync } from '../../protocol/wager';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import { fetchConfig } from '../chain-view';
import { createGuardian, type Guardian } from '../guardian';
import type { Keeper } from '../keeper';
import { keeperTestbed, openWager, sendInstructions, waitFor } from './keeper-test-helpers';

const bed = keeperTestbed({ prefix: 'guardian-test-' });
/** Slots past the threshold within which the pause (or the resume) must land: the spec's target plus a pass or two. */
const A_FEW_SLOTS = 10;

let guardianKey: KeyPairSigner;
beforeAll(async () => {
  guardianKey = await keypairFromBytes(bed.localnet.manifest.devKeys.guardian.keypair);
});

const config = async () => fetchConfig(bed.rpc, (await findConfigPda({ programAddress: bed.parts.program }))[0], bed.parts.program);
const slotNow = async () => Number(await bed.rpc.getSlot({ commitment: 'confirmed' }).send());
const untilSlot = (slot: number) => waitFor(async () => ((await slotNow()) >= slot ? true : undefined), 60_000, `slot ${slot}`);

/** set_paused signed with the guardian key outside any guardian module (a person with another tool). */
async function setPausedByHand(paused: boolean) {
  const instruction = await getSetPausedInstructionAsync(
    { guardian: guardianKey, config: (await findConfigPda({ programAddress: bed.parts.program }))[0], paused: paused ? 1 : 0 },
    { programAddress: bed.parts.program },
  );
  await sendInstructions(bed.rpc, guardianKey, [instruction]);
}

/** Leaves the shared localnet open for the next test, whatever happened. */
async function endWith(guardian: Guardian) {
  await guardian.stop();
  if ((await config()).paused) await setPausedByHand(false);
}

/** Opens a wager with the oracle stalled and waits for the keeper's request: the record with its request slot. */
async function stalledRequest(keeper: Keeper) {
  bed.localnet.fulfiller.stall();
  const { wager } = await openWager(bed.rpc, bed.localnet, bed.parts.app);
  await keeper.submitWager(wager);
  return waitFor(
    () => {
      const record = keeper.records.get(wager);
      return record?.state === 'requested' && record.requestedSlot !== null ? { wager, requestedSlot: record.requestedSlot } : undefined;
    },
    30_000,
    'the keeper to request randomness',
  );
}

describe('the guardian', () => {
  it('pauses new wagers within 60 slots of an oracle stall and resumes after the oracle fulfilled again for 20 slots', async () => {
    const { keeper } = await bed.keeper('stall');
    const guardian = createGuardian({ keeper, rpc: bed.rpc, signer: guardianKey, programAddress: bed.parts.program, pauseAfterSlots: 60, resumeAfterSlots: 20 });
    guardian.start();
    try {
      expect((await config()).paused).toBe(0);
      const { wager, requestedSlot } = await stalledRequest(keeper);

      const paused = await waitFor(() => guardian.actions().find((action) => action.action === 'pause'), 60_000, 'the guardian to pause new wagers');
      expect((await config()).paused).toBe(1);
      // Not before the request waited 60 slots, and not much after.
      expect(paused.slot - requestedSlot).toBeGreaterThanOrEqual(60);
      expect(paused.slot - requestedSlot).toBeLessThanOrEqual(60 + A_FEW_SLOTS);
      expect(paused.by).toBe('guardian');
      expect(paused.reason).toMatch(new RegExp(`^oracle stalled: request of wager ${wager} waited \\d+ slots`));
      const landed = await bed.rpc.getTransaction(paused.signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send();
      expect(landed?.meta?.err).toBeNull();
      expect(landed?.transaction.message.accountKeys[0]).toBe(guardianKey.address);
      expect(guardian.state()).toMatchObject({ pausedByGuardian: true, lastError: null });

      // While paused, the program refuses new wagers by name.
      await expect(
        openWagerAsAnyone({ rpc: bed.rpc, deployment: bed.localnet.manifest.deployment, paytable: 'coin-flip', stake: 1_000_000n, stakeOwner: bed.parts.app }),
      ).rejects.toThrow('the wager was not opened: paused');

      bed.localnet.fulfiller.resume();
      await waitFor(() => (keeper.records.get(wager)?.state === 'settled' ? true : undefined), 30_000, 'the waiting wager to settle');
      const fulfilledSlot = keeper.records.get(wager)!.fulfilledSlot!;
      const resumed = await waitFor(() => guardian.actions().find((action) => action.action === 'resume'), 30_000, 'the guardian to resume new wagers');
      expect((await config()).paused).toBe(0);
      expect(resumed.slot - fulfilledSlot).toBeGreaterThanOrEqual(20);
      expect(resumed.slot - fulfilledSlot).toBeLessThanOrEqual(20 + A_FEW_SLOTS);
      expect(resumed).toMatchObject({ by: 'guardian', reason: expect.stringMatching(/^oracle fulfilling again/) });
      expect(guardian.actions().map((action) => action.action)).toEqual(['resume', 'pause']);
      expect(guardian.state().pausedByGuardian).toBe(false);

      // New wagers open again.
      const reopened = await openWager(bed.rpc, bed.localnet, bed.parts.app);
      expect(reopened.wager).toBeTruthy();
    } finally {
      await endWith(guardian);
    }
  });

  it("never lifts a person's pause, and takes a person's resume through the console's path", async () => {
    const { keeper } = await bed.keeper('person');
    const guardian = createGuardian({ keeper, rpc: bed.rpc, signer: guardianKey, programAddress: bed.parts.program, pauseAfterSlots: 60, resumeAfterSlots: 20 });
    guardian.start();
    try {
      const { wager, requestedSlot } = await stalledRequest(keeper);
      // A person pauses before the guardian would, with the guardian key but not through this guardian.
      await setPausedByHand(true);
      await untilSlot(requestedSlot + 60 + A_FEW_SLOTS);
      await guardian.check();
      expect(guardian.actions()).toEqual([]);

      bed.localnet.fulfiller.resume();
      await waitFor(() => (keeper.records.get(wager)?.state === 'settled' ? true : undefined), 30_000, 'the waiting wager to settle');
      // Well past the resume delay: the pause is still the person's.
      await untilSlot(keeper.records.get(wager)!.fulfilledSlot! + 20 + 2 * A_FEW_SLOTS);
      await guardian.check();
      expect((await config()).paused).toBe(1);
      expect(guardian.actions()).toEqual([]);
      expect(guardian.state().pausedByGuardian).toBe(false);

      // The console's Resume new wagers: sent with the guardian key, listed with its reason.
      const resumed = await guardian.setPaused(false, 'resumed by a person from the console');
      expect(resumed).toMatchObject({ action: 'resume', by: 'person', reason: 'resumed by a person from the console' });
      expect((await config()).paused).toBe(0);
      await expect(guardian.setPaused(false, 'again')).rejects.toThrow('new wagers are already open: nothing was sent');
    } finally {
      await endWith(guardian);
    }
  });

  it('refuses to act with a key that is not the config guardian', async () => {
    const { keeper, key } = await bed.keeper('stranger');
    const guardian = createGuardian({ keeper, rpc: bed.rpc, signer: key, programAddress: bed.parts.program });
    try {
      await expect(guardian.setPaused(true, 'by hand')).rejects.toThrow(
        `the key ${key.address} is not this deployment's guardian (its config on chain names ${address(bed.localnet.manifest.devKeys.guardian.address)})`,
      );
      expect((await config()).paused).toBe(0);
    } finally {
      await endWith(guardian);
    }
  });
});
