/**
 * `--priority-fee auto` on the localnet (issue 27): a load generator sends a transaction every slot at a
 * high compute-unit price writing the same accounts as the keeper's cranks; the keeper's fee rises within
 * a few slots, stays under --max-priority-fee and under each crank's pay, and falls back when the load stops.
 */
import { AccountRole, generateKeyPairSigner, type Address, type KeyPairSigner } from '@solana/kit';
import { getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getTransferSolInstruction } from '@solana-program/system';
import { describe, expect, it } from 'vitest';
import { LAMPORTS_PER_SIGNATURE } from '../../chain/fees';
import { percentileOf, RECENT_SLOTS } from '../../chain/priority-fee-estimate';
import type { EarningsEntry } from '../../store/earnings-ledger';
import { createKeeper } from '../keeper';
import { freshDatabase, keeperTestbed, openWager, sendInstructions, waitFor } from './keeper-test-helpers';

const bed = keeperTestbed({ prefix: 'keeper-priority-auto-' });

/** What the load bids (micro-lamports per CU) and the keeper's cap: the cap binds the settle, the pay binds the request. */
const LOAD_PRICE = 5_000_000n;
const MAX_PRIORITY_FEE = 1_000_000n;

describe('the auto priority fee', () => {
  it('rises with a load on the accounts the keeper cranks, within the cap and the pay, and falls back after', async () => {
    const key = await generateKeyPairSigner();
    bed.localnet.chain.airdrop(key.address, 10_000_000_000n);
    const db = freshDatabase(bed.dir, 'auto.db');
    const keeper = createKeeper({
      connection: bed.parts.connection,
      signer: key,
      db,
      programAddress: bed.parts.program,
      priorityFeeAuto: {
        percentile: 75,
        multiplier: 1,
        minMicroLamports: 0n,
        maxMicroLamports: MAX_PRIORITY_FEE,
      },
      sweepIntervalMs: 60_000,
    });
    const booked: EarningsEntry[] = [];
    keeper.events.on('earnings', (entry) => booked.push(entry));
    const chain = bed.localnet.chain;
    const slotNow = () => chain.slot();
    const untilSlot = (slot: bigint) =>
      waitFor(() => (slotNow() >= slot ? true : undefined), 30_000, `slot ${slot}`);
    const settled = (wager: Address) =>
      waitFor(
        () => (keeper.records.get(wager)?.state === 'settled' ? true : undefined),
        30_000,
        `${wager} settled`,
      );
    const cranksOf = (wager: Address) => booked.filter((entry) => entry.wager === wager);
    try {
      await keeper.start();

      // Calm: no priority fee (the localnet's cranks pay nothing above the block minimum, 0).
      const calm = await openWager(bed.rpc, bed.localnet, bed.parts.app);
      await keeper.submitWager(calm.wager);
      await settled(calm.wager);
      expect(cranksOf(calm.wager).map((entry) => entry.feeLamports)).toEqual([
        Number(LAMPORTS_PER_SIGNATURE),
        Number(LAMPORTS_PER_SIGNATURE),
      ]);
      expect(keeper.priorityFee()).toMatchObject({ mode: 'auto', microLamports: 0 });

      // The accounts the keeper's request and settle wrote (not its own key nor the wager's).
      const record = keeper.records.get(calm.wager)!;
      const written = new Set<string>();
      for (const signature of [record.requestSignature!, record.settleSignature!])
        for (const account of chain.getTransaction(signature)!.writable) written.add(account);
      written.delete(key.address);
      written.delete(calm.wager);

      // The load: one transaction a slot at LOAD_PRICE writing those accounts.
      const load = await startLoad(bed, [...written] as Address[]);
      // Until the market shows it: the load in more than a quarter of the recent slots, so their p75 is its
      // price (what the keeper reads too). Counted in landed slots, not slots passed: on a busy machine the
      // load can miss slots.
      await waitFor(
        async () => {
          const fees = await bed.rpc.getRecentPrioritizationFees([...written] as Address[]).send();
          const recent = [...fees].sort((a, b) => (a.slot < b.slot ? -1 : 1)).slice(-RECENT_SLOTS);
          return percentileOf(recent.map((fee) => BigInt(fee.prioritizationFee)), 75) > 0n ? true : undefined;
        },
        30_000,
        'the load in a quarter of the recent slots',
      );
      const busy = await openWager(bed.rpc, bed.localnet, bed.parts.app);
      await keeper.submitWager(busy.wager);
      await settled(busy.wager);
      const busyStatus = keeper.priorityFee();
      for (const crank of cranksOf(busy.wager)) {
        // Risen: above the base fee; within the pay; and the priority part within the cap.
        expect(crank.feeLamports).toBeGreaterThan(Number(LAMPORTS_PER_SIGNATURE));
        expect(crank.feeLamports).toBeLessThanOrEqual(crank.receivedLamports);
      }
      const settle = cranksOf(busy.wager).find((entry) => entry.step === 'settle')!;
      // The settle's 20 000 CU at the cap: 20 000 lamports of priority fee, not LOAD_PRICE's 100 000.
      expect(settle.feeLamports).toBe(Number(LAMPORTS_PER_SIGNATURE) + 20_000);
      expect(busyStatus).toMatchObject({ mode: 'auto', microLamports: Number(MAX_PRIORITY_FEE) });
      expect(busyStatus.why).toMatch(/^capped at --max-priority-fee/);
      await load.stop();

      // After: once the load's slots leave the recent window, the fee is back to nothing.
      await untilSlot(slotNow() + BigInt(RECENT_SLOTS + 2));
      const after = await openWager(bed.rpc, bed.localnet, bed.parts.app);
      await keeper.submitWager(after.wager);
      await settled(after.wager);
      expect(cranksOf(after.wager).map((entry) => entry.feeLamports)).toEqual([
        Number(LAMPORTS_PER_SIGNATURE),
        Number(LAMPORTS_PER_SIGNATURE),
      ]);
      expect(keeper.priorityFee()).toMatchObject({ mode: 'auto', microLamports: 0 });
    } finally {
      await keeper.stop();
      db.close();
    }
  }, 40_000);
});

/**
 * Sends, every slot, one transaction at LOAD_PRICE writing `accounts` (a 1-lamport transfer with them as
 * extra writable accounts) and one at no priority writing other accounts: the block's minimum stays 0, so
 * only a fee read per account (as Agave answers it) sees the load.
 */
async function startLoad(
  testbed: typeof bed,
  accounts: readonly Address[],
): Promise<{ stop(): Promise<void>; sent: () => number }> {
  const payer: KeyPairSigner = await generateKeyPairSigner();
  const sink = await generateKeyPairSigner();
  testbed.localnet.chain.airdrop(payer.address, 10_000_000_000n);
  testbed.localnet.chain.airdrop(sink.address, 1_000_000_000n);
  let sent = 0;
  let sending: Promise<unknown> = Promise.resolve();
  const onSlot = () => {
    sending = sending.then(async () => {
      const transfer = getTransferSolInstruction({
        source: payer,
        destination: sink.address,
        amount: BigInt(++sent),
      });
      const withAccounts = {
        ...transfer,
        accounts: [
          ...transfer.accounts,
          ...accounts.map((address) => ({ address, role: AccountRole.WRITABLE })),
        ],
      };
      await sendInstructions(testbed.rpc, payer, [
        getSetComputeUnitPriceInstruction({ microLamports: LOAD_PRICE }),
        withAccounts,
      ]);
      await sendInstructions(testbed.rpc, sink, [
        getTransferSolInstruction({ source: sink, destination: payer.address, amount: BigInt(sent) }),
      ]);
    });
  };
  testbed.localnet.chain.on('slot', onSlot);
  return {
    sent: () => sent,
    async stop() {
      testbed.localnet.chain.off('slot', onSlot);
      await sending;
    },
  };
}
