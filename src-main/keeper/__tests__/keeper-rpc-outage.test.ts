/**
 * The RPC going away and coming back, as the operator sees it in /v1/health: the keeper reaches the
 * localnet's JSON-RPC through a small TCP proxy the test controls. While the proxy refuses connections the
 * keeper reports `rpcError` (naming the RPC) and `lastTick` stops; once it is back the error clears, the
 * loop runs again and a wager opened during the outage is settled.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from './network-faults';
import { keeperTestbed, openWager, sleep, waitFor } from './keeper-test-helpers';

const bed = keeperTestbed({ prefix: 'keeper-outage-', pumpMs: 80 });
let proxy: TcpProxy;

beforeAll(async () => {
  proxy = await startTcpProxy(Number(new URL(bed.localnet.rpcUrl).port));
});
afterAll(async () => {
  await proxy?.close();
});
afterEach(() => {
  proxy.up();
});

// HTTP JSON-RPC through the proxy; the WebSocket straight to the localnet (slot notifications keep coming).
const keeperThroughProxy = async (name: string) =>
  (await bed.keeper(name, { start: false, rpcUrl: proxy.url })).keeper;

describe('a keeper whose RPC goes down and comes back', () => {
  it('reports rpcError naming the RPC while it cannot read the chain, stops advancing lastTick, then clears the error and settles what was opened meanwhile', async () => {
    const keeper = await keeperThroughProxy('outage');
    await keeper.start();
    const healthy = await keeper.health();
    expect(healthy.rpcError).toBeUndefined();
    expect(healthy.lastTick).toBeGreaterThan(0);

    proxy.down();
    const failing = await waitFor(
      async () => {
        const health = await keeper.health();
        return health.rpcError ? health : undefined;
      },
      10_000,
      'rpcError in health',
    );
    expect(failing.rpcError).toContain(proxy.url);
    // The loop keeps trying (slot notifications, heartbeat) but no pass completes.
    const stalledAt = failing.lastTick;
    await sleep(2_500);
    const stillDown = await keeper.health();
    expect(stillDown.lastTick).toBe(stalledAt);
    expect(stillDown.rpcError).toContain(proxy.url);

    // A wager opened during the outage (the program subscription still tells the keeper about it).
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app, { stake: 1_000_000n });
    await waitFor(() => keeper.records.get(opened.wager), 5_000, 'the keeper to track the new wager');
    await sleep(500);
    expect(keeper.records.get(opened.wager)?.state).toBe('queued');

    proxy.up();
    const recovered = await waitFor(
      async () => {
        const health = await keeper.health();
        return !health.rpcError && health.lastTick > stalledAt ? health : undefined;
      },
      10_000,
      'the keeper to read the chain again',
    );
    expect(recovered.rpcError).toBeUndefined();
    const settled = await waitFor(
      () => {
        const r = keeper.records.get(opened.wager);
        return r?.state === 'settled' ? r : undefined;
      },
      20_000,
      'the wager opened during the outage to be settled',
    );
    expect(settled.settleSignature).toBeTruthy();
    const later = (await keeper.health()).lastTick;
    await sleep(1_500);
    expect((await keeper.health()).lastTick).toBeGreaterThan(later);
  });
});
