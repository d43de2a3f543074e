/**
 * What "Restart to update" waits for (OperatorService.holdCranks, app-updates.ts): the keeper counts each
 * wager whose crank is in flight (sent, not yet landed or failed) until it ends, and once paused it sends
 * nothing new, so the count reaches zero and stays there. The crank is held in flight by an RPC proxy that
 * stalls the keeper's sendTransaction.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startRpcFaultProxy, type RpcFaultProxy } from './rpc-fault-proxy';
import { keeperTestbed, openWager, waitFor } from './keeper-test-helpers';

const bed = keeperTestbed();
let proxy: RpcFaultProxy | undefined;
afterAll(async () => proxy?.close());

describe('the keeper’s cranks in flight', () => {
  it('counts a wager while its crank is in flight; paused, the count drains to zero and nothing new is sent', async () => {
    proxy = await startRpcFaultProxy({ target: bed.localnet.rpcUrl, rate: 0, stallMs: 2_500 });
    const { keeper } = await bed.keeper('in-flight', { rpcUrl: proxy.url });
    expect(keeper.inFlight()).toBe(0);
    proxy.injectNext('stall', 1, 'sendTransaction');
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app);
    await keeper.submitWager(opened.wager);
    await waitFor(() => (keeper.inFlight() === 1 ? true : undefined), 20_000, 'the request crank in flight', 10);

    // What holdCranks does: no new crank; the one in flight goes on until it ends.
    keeper.setPaused(true);
    expect(keeper.inFlight()).toBe(1);
    await waitFor(() => (keeper.inFlight() === 0 ? true : undefined), 20_000, 'the crank in flight to end');
    // The request landed (the oracle may already have answered it: the fulfilment is watched while paused too).
    const landed = keeper.records.get(opened.wager)!;
    expect(landed.requestSignature).toBeTruthy();
    expect(['requested', 'fulfilled']).toContain(landed.state);

    // Paused: passes run and the oracle answers, but no settlement is sent; the count stays at zero.
    const slot = await bed.rpc.getSlot({ commitment: 'confirmed' }).send();
    await waitFor(async () => ((await bed.rpc.getSlot({ commitment: 'confirmed' }).send()) > slot + 10n ? true : undefined), 20_000, 'ten slots');
    await keeper.tick();
    expect(keeper.inFlight()).toBe(0);
    const record = keeper.records.get(opened.wager)!;
    expect(['requested', 'fulfilled']).toContain(record.state);
    expect(record.settleSignature ?? null).toBeNull();
  });
});
