/**
 * A keeper notified of its settlement with the transaction's logs (its logsSubscribe) records bucket and
 * payout from them: even behind an RPC that never shows the transaction, the record is settled with the
 * figures the chain paid, and the keeper never asked for the transaction (issue 19: no getTransaction per
 * wager). Without logs (WebSocket down) it reads the transaction back: keeper-records-lagging-rpc.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, keeperTestbed, openWager, waitFor, wagerHistory } from './keeper-test-helpers';
import { startTransactionHidingRpc, type TransactionHidingRpc } from './network-faults';

const bed = keeperTestbed({ prefix: 'keeper-logs-' });
let hiding: TransactionHidingRpc;

beforeAll(async () => {
  hiding = await startTransactionHidingRpc(bed.localnet.rpcUrl);
});
afterAll(async () => {
  await hiding?.close();
});

describe('a settlement notified with its logs', () => {
  it('is recorded with the bucket and payout the chain paid, without reading the transaction back', async () => {
    hiding.hideWhile(() => true);
    const { keeper } = await bed.keeper('from-logs', { rpcUrl: hiding.url });
    const settled = (wager: string) => () => {
      const r = keeper.records.get(wager);
      return r?.state === 'settled' ? r : undefined;
    };
    // A first wager: the keeper subscribes on its first crank, so the second one's cranks are surely notified.
    const first = await openWager(bed.rpc, bed.localnet, bed.parts.app);
    await keeper.submitWager(first.wager);
    await waitFor(settled(first.wager), 30_000, 'the first wager to be settled');

    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app, { paytable: 'wheel', stake: 3_000_000n });
    await keeper.submitWager(opened.wager);
    const record = await waitFor(settled(opened.wager), 30_000, 'the wager to be settled');
    const settle = wagerHistory(bed.localnet, opened.wager, bed.parts.program).find((h) => h.events.some((e) => e.name === 'WagerSettled'))!;
    const [event] = await eventsOf(bed.rpc, settle.signature, bed.parts.program);
    const paid = event!.data as { bucket: number; payout: bigint };
    expect(record).toMatchObject({ settleSignature: settle.signature, bucket: paid.bucket, payout: paid.payout.toString(), payoutPending: false, lastError: null });
    expect(hiding.hiddenReadsOf(settle.signature)).toBe(0);
  });
});
