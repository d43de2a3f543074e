/**
 * The chain behind the keeper's URLs changes: localnet A stops and a fresh localnet B (new genesis: new
 * oracle treasury, new USDC mint, new keys) answers on the same URLs. The keeper reaches both through TCP
 * proxies (JSON-RPC and WebSocket) the test points at A, then at B. A keeper that kept A's config and
 * oracle had every request on B refused (the oracle's unknownTreasuryGiven) and let the wagers expire while
 * its health looked fine; it must read them again and settle B's wagers. Real in-process localnets.
 */
import { generateKeyPairSigner, type Address } from '@solana/kit';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAGER_PROGRAM_ADDRESS } from '../../protocol/generated/wager';
import { connectToChain } from '../../chain/rpc-connection';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { createKeeper, type Keeper } from '../keeper';
import { startTcpProxy, type TcpProxy } from './network-faults';
import { freshDatabase, localnetParts, openWager, slotPump, tempDir, waitFor } from './keeper-test-helpers';

const portOf = (url: string) => Number(new URL(url).port);

let a: Localnet | undefined;
let b: Localnet | undefined;
const pumps: ReturnType<typeof slotPump>[] = [];
let rpcProxy: TcpProxy;
let wsProxy: TcpProxy;
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  a = await startLocalnet({ rpcPort: 0, manualSlots: true });
  pumps.push(slotPump(a).start());
  rpcProxy = await startTcpProxy(portOf(a.rpcUrl));
  wsProxy = await startTcpProxy(portOf(a.wsUrl));
  dir = await tempDir('keeper-cluster-restart-');
});
afterAll(async () => {
  for (const pump of pumps) pump.stop();
  await rpcProxy?.close();
  await wsProxy?.close();
  await a?.stop();
  await b?.stop();
  await dir?.remove();
});

const settled = (keeper: Keeper, wager: Address) =>
  waitFor(
    () => {
      const record = keeper.records.get(wager);
      return record?.state === 'settled' ? record : undefined;
    },
    30_000,
    `wager ${wager} to be settled`,
  );

describe('a keeper whose localnet is restarted behind the same URLs', () => {
  it('reads the new config and oracle, and requests and settles a wager opened on the new chain', async () => {
    const localnetA = a!;
    const partsA = await localnetParts(localnetA);
    const key = await generateKeyPairSigner();
    localnetA.chain.airdrop(key.address, 10_000_000_000n);
    const logs: { level: number; msg: string; previous?: { treasury: string; usdcMint: string }; now?: { treasury: string; usdcMint: string } }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as (typeof logs)[number]) });
    const db = freshDatabase(dir, 'restart.db');
    const wsUrl = rpcProxyWsUrl(wsProxy);
    const keeper = createKeeper({ connection: connectToChain(rpcProxy.url, wsUrl), signer: key, db, logger, programAddress: WAGER_PROGRAM_ADDRESS, sweepIntervalMs: 60_000 });
    try {
      await keeper.start();
      const onA = await openWager(partsA.rpc, localnetA, partsA.app);
      await keeper.submitWager(onA.wager);
      expect((await settled(keeper, onA.wager)).settleSignature).toBeTruthy();

      // A goes away; B, a new genesis, comes up behind the same URLs.
      rpcProxy.down();
      wsProxy.down();
      pumps.shift()!.stop();
      await localnetA.stop();
      a = undefined;
      const localnetB = await startLocalnet({ rpcPort: 0, manualSlots: true });
      b = localnetB;
      pumps.push(slotPump(localnetB).start());
      const partsB = await localnetParts(localnetB);
      expect(localnetB.manifest.oracle.treasury).not.toBe(localnetA.manifest.oracle.treasury);
      localnetB.chain.airdrop(key.address, 10_000_000_000n);
      // The keeper saw the outage (health says so), as it would across a real restart.
      await waitFor(async () => ((await keeper.health()).rpcError ? true : undefined), 10_000, 'rpcError in health');
      rpcProxy.retarget(portOf(localnetB.rpcUrl));
      wsProxy.retarget(portOf(localnetB.wsUrl));
      rpcProxy.up();
      wsProxy.up();

      // The app key and USDC come from B's manifest. Nobody posts it: the keeper subscribes again to B
      // (and sweeps once it has) and finds it itself.
      const onB = await openWager(partsB.rpc, localnetB, partsB.app);
      const record = await settled(keeper, onB.wager);
      expect(record.requestSignature).toBeTruthy();
      expect(record.settleSignature).toBeTruthy();
      expect(record.lastError).toBeNull();
      const { value: statuses } = await partsB.rpc.getSignatureStatuses([record.settleSignature as never]).send();
      expect(statuses[0]?.err).toBeNull();

      // The operator is told the chain changed: A's treasury and mint, then B's.
      expect(logs).toContainEqual(
        expect.objectContaining({
          msg: expect.stringContaining('the program config or the oracle changed'),
          previous: expect.objectContaining({ treasury: localnetA.manifest.oracle.treasury, usdcMint: localnetA.manifest.usdcMint }),
          now: expect.objectContaining({ treasury: localnetB.manifest.oracle.treasury, usdcMint: localnetB.manifest.usdcMint }),
        }),
      );
      // Each localnet is its own cluster (its own genesis hash), as a restarted test validator would be.
      expect(logs).toContainEqual(expect.objectContaining({ msg: expect.stringContaining('the cluster changed (new genesis hash)') }));
      expect(logs.map((line) => line.msg)).toContain('subscriptions restored');
      // No request was refused for a stale treasury once B answered.
      expect(keeper.counters().request?.failed ?? 0).toBe(0);
      expect((await keeper.health()).rpcError).toBeUndefined();
    } finally {
      await keeper.stop();
      db.close();
    }
  });
});

/** The WebSocket URL of a TCP proxy (ws://, same host and port). */
function rpcProxyWsUrl(proxy: TcpProxy) {
  return proxy.url.replace(/^http:/, 'ws:');
}
