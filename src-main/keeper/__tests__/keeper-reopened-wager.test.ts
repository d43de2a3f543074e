/**
 * A wager's address is a PDA of (integrator authority, nonce), and a closed wager's account goes back to
 * the System program, so the same app can open a wager at the same address again. The address's history
 * then holds both wagers: what the keeper reads from it for one must never be the other's.
 */
import { address, type Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { getOpenWagerForApp } from '../../protocol/wager';
import { findRequestTransaction, resolveWagerOutcome } from '../outcome-resolver';
import { keeperTestbed, sendInstructions, usdcAccountOf, waitFor, wagerHistory } from './keeper-test-helpers';

const bed = keeperTestbed({ prefix: 'keeper-reopened-' });

const idleKeeper = async (name: string) => (await bed.keeper(name, { start: false })).keeper;

/** Opens a coin-flip wager of the dev app with this nonce (as `wager-keeper open` does); its address and open slot. */
async function openWithNonce(nonce: bigint): Promise<{ wager: Address; openSlot: bigint }> {
  const { manifest } = bed.localnet;
  const stakeSource = await usdcAccountOf(address(manifest.usdcMint), bed.parts.app.address);
  const { instruction, wager } = await getOpenWagerForApp({
    payer: bed.parts.app,
    stakeOwner: bed.parts.app,
    integratorAuthority: bed.parts.app,
    paytable: address(manifest.paytables.find((p) => p.name === 'coin-flip')!.address),
    stakeSource,
    beneficiary: stakeSource,
    oracleNetworkState: address(manifest.oracle.networkState),
    stake: 1_000_000n,
    nonce,
  });
  await sendInstructions(bed.rpc, bed.parts.app, [instruction]);
  const opened = wagerHistory(bed.localnet, wager, bed.parts.program).findLast((h) =>
    h.events.some((e) => e.name === 'WagerOpened'),
  )!;
  const event = opened.events.find((e) => e.name === 'WagerOpened')!;
  return { wager, openSlot: (event.data as { openSlot: bigint }).openSlot };
}

/** A running keeper settles `wager` and stops. */
async function settledByAKeeper(name: string, wager: Address) {
  const keeper = await idleKeeper(name);
  await keeper.start();
  await keeper.submitWager(wager);
  await waitFor(
    () => (keeper.records.get(wager)?.state === 'settled' ? true : undefined),
    20_000,
    `${name} to settle`,
  );
  await bed.stopKeeper(keeper);
}

/** The signatures of the transactions carrying `event` for `wager`, oldest first. */
const transactionsWith = (wager: Address, event: string) =>
  wagerHistory(bed.localnet, wager, bed.parts.program)
    .filter((h) => h.events.some((e) => e.name === event))
    .map((h) => h.signature);

describe('a wager opened again at the address of a closed one', () => {
  it("is not given the earlier wager's request or settlement, and a keeper that tracked the earlier one records that one's", async () => {
    const nonce = BigInt(Date.now()) * 1000n + 777n;
    const first = await openWithNonce(nonce);
    // This keeper hears of the first wager and then is away while both wagers come and go.
    const away = await idleKeeper('away');
    expect(await away.submitWager(first.wager)).toEqual({ kind: 'queued' });

    await settledByAKeeper('first-settler', first.wager);
    const [firstRequest] = transactionsWith(first.wager, 'WagerRandomnessRequested');
    const [firstSettle] = transactionsWith(first.wager, 'WagerSettled');
    const { value: closed } = await bed.rpc
      .getAccountInfo(first.wager, { encoding: 'base64', commitment: 'confirmed' })
      .send();
    expect(closed).toBeNull();

    const second = await openWithNonce(nonce);
    expect(second.wager).toBe(first.wager);
    expect(second.openSlot).not.toBe(first.openSlot);

    // The second wager is open: nothing requested or settled it yet, whatever its address's history shows.
    expect(await resolveWagerOutcome(bed.rpc, second.wager, bed.parts.program)).toEqual({ kind: 'unknown' });
    expect(await findRequestTransaction(bed.rpc, second.wager, bed.parts.program)).toBeNull();

    await settledByAKeeper('second-settler', second.wager);
    const [, secondRequest] = transactionsWith(second.wager, 'WagerRandomnessRequested');
    const [, secondSettle] = transactionsWith(second.wager, 'WagerSettled');
    expect(secondSettle).toBeDefined();

    // Read for each opening: its own transactions.
    expect(await resolveWagerOutcome(bed.rpc, second.wager, bed.parts.program)).toMatchObject({
      kind: 'settled',
      signature: secondSettle,
      request: { signature: secondRequest },
    });
    expect(
      await resolveWagerOutcome(bed.rpc, first.wager, bed.parts.program, { openSlot: first.openSlot }),
    ).toMatchObject({
      kind: 'settled',
      signature: firstSettle,
      request: { signature: firstRequest },
    });

    // The keeper that tracked the first wager comes back, finds the address closed and looks up how it
    // ended: the first wager's settlement, not the second's.
    await away.start();
    await waitFor(
      () => (away.records.get(first.wager)?.state === 'settled' ? true : undefined),
      20_000,
      'the away keeper to record the settlement',
    );
    expect(await away.lookupWager(first.wager)).toMatchObject({
      state: 'settled',
      openSlot: Number(first.openSlot),
      requestSignature: firstRequest,
      settleSignature: firstSettle,
    });
  });

  it('is worked on by a keeper whose record of that address is the finished earlier wager', async () => {
    const nonce = BigInt(Date.now()) * 1000n + 778n;
    const first = await openWithNonce(nonce);
    const keeper = await idleKeeper('reopen-tracker');
    await keeper.start();
    await keeper.submitWager(first.wager);
    const firstRecord = await waitFor(
      () => {
        const r = keeper.records.get(first.wager);
        return r?.state === 'settled' ? r : undefined;
      },
      20_000,
      'the first wager to be settled',
    );

    // The app opens again at the same address; the keeper hears of it (POST, the sweep or its subscription).
    const second = await openWithNonce(nonce);
    await keeper.submitWager(second.wager);
    const secondRecord = await waitFor(
      () => {
        const r = keeper.records.get(second.wager);
        return r?.state === 'settled' && r.openSlot === Number(second.openSlot) ? r : undefined;
      },
      20_000,
      'the second wager to be settled',
    );
    const [, secondRequest] = transactionsWith(second.wager, 'WagerRandomnessRequested');
    const [, secondSettle] = transactionsWith(second.wager, 'WagerSettled');
    expect(secondRecord).toMatchObject({ requestSignature: secondRequest, settleSignature: secondSettle });
    expect(secondRecord.settleSignature).not.toBe(firstRecord.settleSignature);
  });
});
