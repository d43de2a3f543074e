import { generateKeyPairSigner } from '@solana/kit';
import { expect, it } from 'vitest';
import {
  findDepositRequestPda,
  findEpochRecordPda,
  findPoolPda,
  getPoolDecoder,
  getRequestDepositInstructionAsync,
} from '../../protocol/wager';
import { createKeeper } from '../keeper';
import { shardOf } from '../shard';
import { freshDatabase, fundedLiquidityProvider, keeperTestbed, sendInstructions, usdcBalance, waitFor } from './keeper-test-helpers';

const bed = keeperTestbed({ startPump: false });

const readPool = async () => {
  const { value } = await bed.rpc.getAccountInfo((await findPoolPda())[0], { encoding: 'base64' }).send();
  return getPoolDecoder().decode(Buffer.from(value!.data[0], 'base64'));
};

/** An LP with test USDC and a share account, asking to deposit 500 USDC into the live epoch. */
async function lpDepositRequest() {
  const { localnet } = bed;
  const { rpc, mint } = bed.parts;
  const { lp, source, shares } = await fundedLiquidityProvider(localnet, rpc, mint, 500_000_000n);
  const before = await readPool();
  const [request] = await findDepositRequestPda({ owner: lp.address, epoch: before.epoch });
  const [epochRecord] = await findEpochRecordPda({ epoch: before.epoch });
  await sendInstructions(rpc, lp, [await getRequestDepositInstructionAsync({ owner: lp, request, epochRecord, source, amount: 500_000_000n })]);
  return { readPool, before, request, epochRecord, shares };
}

it('strikes the epoch once its close has passed and claims the LP deposit, earning both fees', async () => {
  const { localnet, pump } = bed;
  const { connection, rpc, keeperKey } = bed.parts;
  const db = freshDatabase(bed.dir);
  pump.start();
  const keeper = createKeeper({ connection, signer: keeperKey, db, programAddress: bed.parts.program });
  try {
    const { readPool, before, request, shares } = await lpDepositRequest();

    await keeper.start();
    // Past the epoch's close: the keeper may strike now.
    localnet.chain.advanceSlots(Number(before.epochCloseSlot - (await rpc.getSlot().send())) + 1);

    const expectedShares = (500_000_000n * (before.totalShares + 1n)) / (before.liquidity + 1n);
    await waitFor(async () => ((await usdcBalance(rpc, shares)) === expectedShares ? true : undefined), 30_000, 'the keeper to claim the deposit');
    const after = await readPool();
    expect(after.epoch).toBe(before.epoch + 1n);
    expect(after.liquidity).toBe(before.liquidity + 500_000_000n);
    const { value: gone } = await rpc.getAccountInfo(request, { encoding: 'base64' }).send();
    expect(gone).toBeNull(); // the request closed, its rent back to the LP

    // The chain shows the claim a moment before the keeper's confirmation books it.
    const booked = () => db.prepare("SELECT step, received_lamports AS received FROM earnings WHERE step IN ('strike_epoch', 'claim_deposit') ORDER BY id").all();
    const steps = await waitFor(() => (booked().length === 2 ? booked() : undefined), 10_000, 'both cranks to be booked');
    expect(steps).toEqual([
      { step: 'strike_epoch', received: 50_000 },
      { step: 'claim_deposit', received: 50_000 },
    ]);
    expect(keeper.counters().strike_epoch?.landed).toBe(1);
  } finally {
    pump.stop();
    await keeper.stop();
    db.close();
  }
});

it('a fleet strikes and claims without racing itself: the member whose shard holds the epoch record or the request sends it, the other holds it', async () => {
  const { localnet, pump } = bed;
  const { connection, rpc, keeperKey } = bed.parts;
  const second = await generateKeyPairSigner();
  localnet.chain.airdrop(second.address, 5_000_000_000n);
  pump.start();
  const { before, request, epochRecord, shares } = await lpDepositRequest();
  // 74 slots (the most) of 60 ms: the owner's pass every 3 s comes well before another member's takeover.
  const members = [keeperKey, second].map((signer, index) => {
    const db = freshDatabase(bed.dir);
    return { db, keeper: createKeeper({ connection, signer, db, programAddress: bed.parts.program, shard: { index, count: 2, takeoverSlots: 74 } }) };
  });
  const strikeOwner = members[shardOf(epochRecord, 2)]!.keeper;
  const strikeOther = members[1 - shardOf(epochRecord, 2)]!.keeper;
  const claimOwner = members[shardOf(request, 2)]!.keeper;
  const claimOther = members[1 - shardOf(request, 2)]!.keeper;
  try {
    // The other member first, past the epoch's close: it sees the strike due and holds it for the owner's
    // shard. (Started together, a loaded machine may let the owner strike before the other's first pass
    // ever saw the epoch closed, and then nothing was held.)
    await strikeOther.start();
    localnet.chain.advanceSlots(Number(before.epochCloseSlot - (await rpc.getSlot().send())) + 1);
    await waitFor(async () => (await strikeOther.tick(), strikeOther.fleet().held.strike_epoch ? true : undefined), 10_000, 'the other member to hold the strike');
    await strikeOwner.start();
    const expectedShares = (500_000_000n * (before.totalShares + 1n)) / (before.liquidity + 1n);
    await waitFor(async () => ((await usdcBalance(rpc, shares)) === expectedShares ? true : undefined), 60_000, 'the fleet to claim the deposit');

    await waitFor(() => (claimOwner.counters().claim_deposit?.landed === 1 ? true : undefined), 10_000, 'the claim to be booked');
    expect(strikeOwner.counters().strike_epoch?.landed).toBe(1);
    expect(strikeOther.counters().strike_epoch?.landed ?? 0).toBe(0);
    expect(strikeOther.fleet().held.strike_epoch).toBe(1);
    expect(claimOther.counters().claim_deposit?.landed ?? 0).toBe(0);
    // Nothing was raced: no member lost or failed a liquidity crank.
    for (const { keeper } of members)
      for (const step of ['strike_epoch', 'claim_deposit'] as const) {
        expect(keeper.counters()[step]?.lost ?? 0).toBe(0);
        expect(keeper.counters()[step]?.failed ?? 0).toBe(0);
      }
  } finally {
    pump.stop();
    for (const { keeper, db } of members) {
      await keeper.stop();
      db.close();
    }
  }
});
