/**
 * The transport every chain connection uses, against the real localnet behind the fault-injecting proxy:
 * what kit alone would hand the keeper as the truth (a stale answer meant for other accounts, an older
 * slot) is refused and read again; 429 waits for its Retry-After; 500s and cut connections are retried;
 * a fault that does not end still surfaces as the RPC's error.
 */
import { address, generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { startRpcFaultProxy, type RpcFaultProxy } from '../../keeper/__tests__/rpc-fault-proxy';
import { createChainRpc } from '../rpc-connection';

let localnet: Localnet;
let proxy: RpcFaultProxy;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, manualSlots: true });
  proxy = await startRpcFaultProxy({ target: localnet.rpcUrl, rate: 0 });
});
afterAll(async () => {
  await proxy?.close();
  await localnet?.stop();
});

describe('the resilient RPC transport', () => {
  it('refuses a stale answer meant for other accounts and reads again: the accounts returned are the ones asked for', async () => {
    const rpc = createChainRpc(proxy.url);
    const stranger = (await generateKeyPairSigner()).address;
    // The proxy's oldest getMultipleAccounts answer is a one-account read of the mint.
    await rpc.getMultipleAccounts([address(localnet.manifest.usdcMint)], { encoding: 'base64' }).send();
    proxy.injectNext('stale', 1, 'getMultipleAccounts');
    const { value } = await rpc.getMultipleAccounts([address(localnet.manifest.pool), stranger], { encoding: 'base64' }).send();
    expect(value).toHaveLength(2);
    expect(value[0]?.owner).toBe(localnet.manifest.programs.wager);
    expect(value[1]).toBeNull();
  });

  it('refuses an answer for an older slot than one already seen; a lower slot answered three times in a row is believed (a cluster restarted behind the URL)', async () => {
    const rpc = createChainRpc(proxy.url);
    const first = await rpc.getSlot({ commitment: 'confirmed' }).send();
    localnet.chain.advanceSlots(5);
    const second = await rpc.getSlot({ commitment: 'confirmed' }).send();
    expect(second).toBe(first + 5n);
    proxy.injectNext('stale', 1, 'getSlot'); // the proxy's oldest getSlot answer: `first` or older
    expect(await rpc.getSlot({ commitment: 'confirmed' }).send()).toBe(second);
    proxy.injectNext('stale', 3, 'getSlot');
    expect(await rpc.getSlot({ commitment: 'confirmed' }).send()).toBeLessThan(second);
  });

  it("waits for a 429's Retry-After before trying again, and retries a 500 and a cut connection until it gets the answer", async () => {
    const rpc = createChainRpc(proxy.url);
    proxy.injectNext('http429', 1, 'getGenesisHash');
    const started = Date.now();
    expect(await rpc.getGenesisHash().send()).toBe(localnet.manifest.genesisHash);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950); // Retry-After: 1
    proxy.injectNext('http500', 1, 'getGenesisHash');
    proxy.injectNext('cut', 1, 'getGenesisHash');
    expect(await rpc.getGenesisHash().send()).toBe(localnet.manifest.genesisHash);
  });

  it('abandons a quick read that stalls and asks again, instead of holding the caller for the whole call timeout', async () => {
    const retries: { method: string; reason: string }[] = [];
    const rpc = createChainRpc(proxy.url, { readTimeoutMs: 500, onRetry: ({ method, reason }) => retries.push({ method, reason }) });
    proxy.injectNext('stall', 1, 'getSlot'); // held 3 s by the proxy
    const slot = await rpc.getSlot({ commitment: 'confirmed' }).send();
    expect(slot).toBeGreaterThan(0n);
    expect(retries.map((retry) => retry.method)).toEqual(['getSlot']);
    expect(retries[0]!.reason).toMatch(/timeout|no answer|abort/i);
  });

  it("gives up after its attempts with the RPC's own error, so a dead RPC is still reported", async () => {
    const rpc = createChainRpc(proxy.url, { attempts: 3 });
    proxy.injectNext('http500', 3, 'getGenesisHash');
    await expect(rpc.getGenesisHash().send()).rejects.toThrow(/500/);
  });
});
