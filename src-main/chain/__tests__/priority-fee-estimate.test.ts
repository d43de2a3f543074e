import type { GetRecentPrioritizationFeesApi, Rpc } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { autoCrankPrice } from '../fees';
import {
  createPriorityFeeEstimator,
  DEFAULT_AUTO_PRIORITY_FEE,
  percentileOf,
  priorityFeeFromRecent,
  RECENT_SLOTS,
} from '../priority-fee-estimate';

const policy = DEFAULT_AUTO_PRIORITY_FEE;

describe('the priority fee from recent fees', () => {
  it('takes the nearest-rank percentile: p75 of 20 slots needs 6 busy slots to rise', () => {
    const calm = Array.from({ length: 15 }, () => 0n);
    expect(percentileOf([...calm, ...Array.from({ length: 5 }, () => 9_000n)], 75)).toBe(0n);
    expect(percentileOf([...calm.slice(1), ...Array.from({ length: 6 }, () => 9_000n)], 75)).toBe(9_000n);
    expect(percentileOf([], 75)).toBe(0n);
    expect(percentileOf([5n, 1n, 3n], 100)).toBe(5n);
    expect(percentileOf([5n, 1n, 3n], 0)).toBe(1n);
  });

  it('multiplies, then keeps within the floor and the cap, saying why', () => {
    const fees = [0n, 1_000n, 1_000n, 1_000n];
    expect(priorityFeeFromRecent(fees, { ...policy, multiplier: 1.2 })).toEqual({
      microLamports: 1_200n,
      why: 'p75 of recent fees for the accounts cranked (1 000 µL/CU) × 1.2',
    });
    const capped = priorityFeeFromRecent(fees, { ...policy, multiplier: 3, maxMicroLamports: 2_500n });
    expect(capped.microLamports).toBe(2_500n);
    expect(capped.why).toMatch(
      /^capped at --max-priority-fee \(2 500 µL\/CU; p75 .* \(1 000 µL\/CU\) × 3\)$/,
    );
    const floored = priorityFeeFromRecent([0n, 0n], { ...policy, minMicroLamports: 100n });
    expect(floored).toEqual({
      microLamports: 100n,
      why: 'raised to --min-priority-fee (100 µL/CU; p75 of recent fees for the accounts cranked (0 µL/CU))',
    });
  });
});

describe('the estimator', () => {
  /** An RPC answering `fees` for the last 150 slots and counting the calls (the accounts asked for, each call). */
  function countingRpc(fees: () => bigint[]) {
    const calls: string[][] = [];
    let fail: Error | undefined;
    const rpc = {
      getRecentPrioritizationFees: (accounts: string[] = []) => ({
        send: async () => {
          calls.push(accounts);
          if (fail) throw fail;
          return fees().map((prioritizationFee, i) => ({ slot: BigInt(1_000 + i), prioritizationFee }));
        },
      }),
    } as unknown as Rpc<GetRecentPrioritizationFeesApi>;
    return { rpc, calls, failWith: (error: Error | undefined) => (fail = error) };
  }

  it('looks at the last 20 slots only, and asks once per slot for a burst of cranks on the same accounts', async () => {
    // 130 old busy slots, then 20 calm ones: the market now is calm.
    let fees = [
      ...Array.from({ length: 130 }, () => 50_000n),
      ...Array.from({ length: RECENT_SLOTS }, () => 10n),
    ];
    const { rpc, calls } = countingRpc(() => fees);
    let clock = 0;
    const estimator = createPriorityFeeEstimator({ rpc, policy, now: () => clock });
    const burst = await Promise.all(Array.from({ length: 50 }, () => estimator.priceFor(['vault', 'pool'])));
    expect(burst.every((price) => price === 10n)).toBe(true);
    await estimator.priceFor(['pool', 'vault', 'pool']); // the same set, in another order
    expect(calls).toEqual([['pool', 'vault']]);
    await estimator.priceFor(['oracle']); // another set: its own sample
    expect(calls).toHaveLength(2);
    fees = Array.from({ length: 150 }, () => 7_000n);
    clock += 400; // a slot later
    expect(await estimator.priceFor(['vault', 'pool'])).toBe(7_000n);
    expect(calls).toHaveLength(3);
    expect(estimator.status()).toMatchObject({
      mode: 'auto',
      microLamports: 7_000,
      why: 'p75 of recent fees for the accounts cranked (7 000 µL/CU)',
    });
  });

  it("leaves out the slots whose answer is the keeper's own crank there, keeping the last estimate when nothing else is left", async () => {
    // Slots 1000..1149: the load paid 9 000 in the last 20 slots; the keeper's cranks landed at 9 000 in 1140..1149.
    let fees = Array.from({ length: 150 }, () => 9_000n);
    const own = new Map<bigint, Set<bigint>>();
    const { rpc } = countingRpc(() => fees);
    let clock = 0;
    const estimator = createPriorityFeeEstimator({
      rpc,
      policy,
      now: () => clock,
      ownFees: (slot) => own.get(slot),
    });
    expect(await estimator.priceFor(['pool'])).toBe(9_000n);
    // Every recent slot is the keeper's own at 9 000: no evidence to move the last estimate.
    for (let slot = 1_000n; slot < 1_150n; slot++) own.set(slot, new Set([9_000n]));
    clock += 400;
    expect(await estimator.priceFor(['pool'])).toBe(9_000n);
    // The load stopped: outside the keeper's own slots the accounts went back to 0; its own cranks at 9 000 do not hold the fee up.
    own.clear();
    fees = [...Array.from({ length: 140 }, () => 0n), ...Array.from({ length: 10 }, () => 9_000n)];
    for (let slot = 1_140n; slot < 1_150n; slot++) own.set(slot, new Set([9_000n]));
    clock += 400;
    expect(await estimator.priceFor(['pool'])).toBe(0n);
  });

  it('keeps the last estimate (else the floor) when the RPC cannot answer, and never throws', async () => {
    const { rpc, failWith } = countingRpc(() => Array.from({ length: 150 }, () => 3_000n));
    let clock = 0;
    const estimator = createPriorityFeeEstimator({
      rpc,
      policy: { ...policy, minMicroLamports: 5n },
      now: () => clock,
    });
    expect(await estimator.priceFor(['pool'])).toBe(3_000n);
    failWith(new Error('fetch failed'));
    clock += 1_000;
    expect(await estimator.priceFor(['pool'])).toBe(3_000n);
    expect(await estimator.priceFor(['never-asked'])).toBe(5n);
  });
});

describe("an auto-priced crank's price", () => {
  // A request: 60 000 CU, pays 50 000 lamports, so 45 000 of room above the base fee; urgent cap: half the pay.
  const request = { unitLimit: 60_000n, payRoomLamports: 45_000n };

  it("bids the market's price, lowered within the pay", () => {
    expect(autoCrankPrice({ ...request, market: 10_000n })).toEqual({
      price: 10_000n,
      marketWithinPay: 10_000n,
    });
    expect(autoCrankPrice({ ...request, market: 3_000_000n })).toEqual({
      price: 750_000n,
      marketWithinPay: 750_000n,
    });
  });

  it('takes the urgent raise within its own cap only when it is higher than the market', () => {
    // Urgent 5 000 000 within 25 000 lamports: 416 666; above a calm market, below a busy one (which keeps its 750 000).
    expect(
      autoCrankPrice({ ...request, market: 0n, urgent: 5_000_000n, urgentCapLamports: 25_000n }).price,
    ).toBe(416_666n);
    expect(
      autoCrankPrice({ ...request, market: 3_000_000n, urgent: 5_000_000n, urgentCapLamports: 25_000n })
        .price,
    ).toBe(750_000n);
  });
});
