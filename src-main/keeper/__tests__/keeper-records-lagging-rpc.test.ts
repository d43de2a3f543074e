/**
 * A keeper behind an RPC that does not show a transaction it just confirmed (a load-balanced provider whose
 * replicas lag, or a node without transaction history): the keeper's own settlement still ends `settled`
 * with bucket and payout, read again a little later or taken from the chain's state. The keeper reaches the
 * localnet's JSON-RPC through a small HTTP proxy that answers `getTransaction` with null when told to.
 */
import { type Address } from '@solana/kit';
import { closedPort, startTransactionHidingRpc, type TransactionHidingRpc } from './network-faults';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Keeper } from '../keeper';
import { anotherKeeperRuns, eventsOf, keeperTestbed, openParkedPayoutWager, openWager, waitFor, wagerHistory } from './keeper-test-helpers';


const bed = keeperTestbed({ prefix: 'keeper-lagging-' });
let lagging: TransactionHidingRpc;

beforeAll(async () => {
  lagging = await startTransactionHidingRpc(bed.localnet.rpcUrl);
});
afterAll(async () => {
  await lagging?.close();
});
afterEach(() => {
  lagging.hideWhile(() => false);
});

/**
 * A keeper reading the chain through the lagging proxy; `start` starts it. Its WebSocket is down, so its
 * confirmations come by polling, without logs: notified with logs, it has its settlement's event without
 * reading the transaction back (keeper-settlement-from-logs.test.ts).
 */
async function keeperBehindLaggingRpc(name: string, { start = true, now }: { start?: boolean; now?: () => number } = {}) {
  return (await bed.keeper(name, { start, now, rpcUrl: lagging.url, wsUrl: `ws://127.0.0.1:${await closedPort()}` })).keeper;
}

const settledRecord = (keeper: Keeper, wager: Address) => () => {
  const record = keeper.records.get(wager);
  return record?.state === 'settled' ? record : undefined;
};

/** The wager's settle transaction and its WagerSettled event, read from the chain directly. */
async function settlementOnChain(wager: Address) {
  const settle = wagerHistory(bed.localnet, wager, bed.parts.program).find((h) => h.events.some((e) => e.name === 'WagerSettled'))!;
  const [event] = await eventsOf(bed.rpc, settle.signature, bed.parts.program);
  return { signature: settle.signature, ...(event!.data as { bucket: number; payout: bigint; pending: number }) };
}

async function parkedPayoutWager() {
  return (await openParkedPayoutWager(bed, 2_000_000n)).wager;
}

/** Another keeper, on a healthy RPC, settles `wager` and stops. */
const settledByAnotherKeeper = (wager: Address) =>
  anotherKeeperRuns(bed, { name: `other-${wager}`, wager, done: (r) => r?.state === 'settled', what: 'the other keeper to settle' });

describe('a keeper behind an RPC that lags behind the chain', () => {
  it('the settle transaction shows up only on the third read: the record still gets bucket and payout from its WagerSettled event', async () => {
    lagging.hideWhile((_signature, read) => read <= 2);
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app, { paytable: 'wheel', stake: 3_000_000n });
    const keeper = await keeperBehindLaggingRpc('lag');
    await keeper.submitWager(opened.wager);

    const record = await waitFor(settledRecord(keeper, opened.wager), 30_000, 'the wager to be settled');
    const onChain = await settlementOnChain(opened.wager);
    expect(record).toMatchObject({ settleSignature: onChain.signature, bucket: onChain.bucket, payout: onChain.payout.toString(), payoutPending: false });
    expect(lagging.hiddenReadsOf(onChain.signature)).toBe(2);
  });

  it('an RPC that never shows the settle transaction, payout parked: bucket and payout come from the wager account', async () => {
    lagging.hideWhile(() => true);
    const wager = await parkedPayoutWager();
    const keeper = await keeperBehindLaggingRpc('no-history-parked');
    await keeper.submitWager(wager);

    const record = await waitFor(settledRecord(keeper, wager), 30_000, 'the wager to be settled');
    const onChain = await settlementOnChain(wager);
    expect(onChain.pending).toBe(1);
    expect(record).toMatchObject({ settleSignature: onChain.signature, bucket: onChain.bucket, payout: onChain.payout.toString(), payoutPending: true });
    expect(lagging.hiddenReadsOf(onChain.signature)).toBeGreaterThan(0);
  });

  it('an RPC that never shows the settle transaction, wager closed: bucket and payout are drawn from the randomness as the program draws them', async () => {
    lagging.hideWhile(() => true);
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app, { paytable: 'wheel', stake: 3_000_000n });
    const keeper = await keeperBehindLaggingRpc('no-history-closed');
    await keeper.submitWager(opened.wager);

    const record = await waitFor(settledRecord(keeper, opened.wager), 30_000, 'the wager to be settled');
    const onChain = await settlementOnChain(opened.wager);
    expect(onChain.pending).toBe(0);
    expect(record).toMatchObject({ settleSignature: onChain.signature, bucket: onChain.bucket, payout: onChain.payout.toString(), payoutPending: false, lastError: null });
    expect(lagging.hiddenReadsOf(onChain.signature)).toBeGreaterThan(0);
  });

  it('a wager someone else settled while the RPC history lags: the keeper looks again later instead of giving up, and records the settlement once it shows', async () => {
    lagging.hideWhile(() => true);
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app, { stake: 1_000_000n });
    let skew = 0; // the keeper's clock, pushed forward to skip its retry backoff
    const keeper = await keeperBehindLaggingRpc('history-lag', { start: false, now: () => Date.now() + skew });
    await keeper.submitWager(opened.wager); // known to this keeper, which is not running yet

    await settledByAnotherKeeper(opened.wager);

    await keeper.start();
    const waiting = await waitFor(() => {
      const r = keeper.records.get(opened.wager);
      return r?.lastError ? r : undefined;
    }, 20_000, 'the keeper to find the wager closed');
    expect(waiting).toMatchObject({ state: 'queued', lastError: 'closed; how it ended is not in the RPC history yet' });

    lagging.hideWhile(() => false);
    const record = await waitFor(() => {
      skew += 10_000;
      return settledRecord(keeper, opened.wager)();
    }, 20_000, 'the settlement to be recorded');
    const onChain = await settlementOnChain(opened.wager);
    expect(record).toMatchObject({ settleSignature: onChain.signature, bucket: onChain.bucket, payout: onChain.payout.toString(), payoutPending: false, lastError: null });
  });
});
