/**
 * How much a keeper asks of its RPC when it looks for a wager's history again and again (the RPC does not
 * show the settle transaction yet): every look reads the signature list again, but a transaction it
 * already read is not fetched a second time. A rate-limited RPC provider counts every call. The keeper
 * reaches the localnet through a small JSON-RPC proxy that counts getTransaction calls per signature and
 * can hide one transaction.
 */
import { type Address } from '@solana/kit';
import { startTransactionHidingRpc, type TransactionHidingRpc } from './network-faults';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anotherKeeperRuns, keeperTestbed, openParkedPayoutWager, waitFor, wagerHistory } from './keeper-test-helpers';

/** Looks for the settle transaction of a parked payout the keeper did not send (keeper.ts LOOKUP_ATTEMPTS). */
const LOOKUPS = 5;


const bed = keeperTestbed({ prefix: 'keeper-history-reads-' });
let counting: TransactionHidingRpc;

beforeAll(async () => {
  counting = await startTransactionHidingRpc(bed.localnet.rpcUrl);
});
afterAll(async () => {
  await counting?.close();
});

const keeperOn = (name: string, rpcUrl: string) => bed.keeper(name, { start: false, rpcUrl });

/** A wager whose payout another keeper parked (its beneficiary's token account is frozen). */
async function parkedBySomeoneElse(): Promise<Address> {
  const opened = await openParkedPayoutWager(bed, 2_000_000n);
  await anotherKeeperRuns(bed, { name: 'other', wager: opened.wager, done: (r) => !!r?.payoutPending, what: 'the other keeper to park the payout', rpcUrl: bed.localnet.rpcUrl });
  return opened.wager;
}

describe('reading a wager history again', () => {
  it('looking for a settle transaction the RPC does not show yet, five times: each other transaction of the history is fetched once', async () => {
    const wager = await parkedBySomeoneElse();
    const history = wagerHistory(bed.localnet, wager, bed.parts.program);
    const settle = history.find((h) => h.events.some((e) => e.name === 'WagerSettled'))!.signature;
    const others = history.filter((h) => h.signature !== settle).map((h) => h.signature);
    expect(others.length).toBeGreaterThanOrEqual(2); // the opening and the request
    counting.hideWhile((signature) => signature === settle);

    const { keeper } = await keeperOn('looking', counting.url);
    await keeper.start();
    await keeper.submitWager(wager);
    // Every look asks for the settle transaction again (it may show up), until the keeper gives up.
    await waitFor(
      () => (counting.readsOf(settle) >= LOOKUPS ? true : undefined),
      30_000,
      'the keeper to look five times',
    );

    expect(keeper.records.get(wager)).toMatchObject({
      state: 'settled',
      payoutPending: true,
      settleSignature: null,
    });
    for (const signature of others) expect(counting.readsOf(signature), signature).toBe(1);
  });
});
