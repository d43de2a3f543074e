/**
 * The public /v1 API of a real keeper whose RPC is unreachable: routes that must read the chain
 * (POST /v1/wagers, GET of a wager the keeper does not track) answer 503 "cannot read the chain" with
 * Retry-After, not 500, and answer normally again once the RPC is back. The keeper reaches a real
 * localnet through a small TCP proxy the test can take down; a second keeper points at a closed port.
 */
import { generateKeyPairSigner, type Address } from '@solana/kit';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WAGER_PROGRAM_ADDRESS } from '../../protocol/generated/wager';
import { connectToChain } from '../../chain/rpc-connection';
import { createKeeper, type Keeper } from '../../keeper/keeper';
import { closedPort, startTcpProxy, type TcpProxy } from '../../keeper/__tests__/network-faults';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { openDatabase, type Database } from '../../store/database';
import type { Readiness } from '../../../src-shared/alert-types';
import { createPublicApi, listenPublicApi, type PublicApiServer } from '../public-api';

let localnet: Localnet;
let proxy: TcpProxy;
let dir: string;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0 });
  proxy = await startTcpProxy(Number(new URL(localnet.rpcUrl).port));
  dir = await mkdtemp(join(tmpdir(), 'api-rpc-outage-'));
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await localnet?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

let running: { keeper: Keeper; db: Database; server: PublicApiServer } | undefined;
afterEach(async () => {
  proxy.up();
  await running?.server.close();
  await running?.keeper.stop();
  running?.db.close();
  running = undefined;
});

/** A keeper on `rpcUrl` (WebSocket straight to the localnet) behind the public API; internal errors collected. */
async function apiOfKeeper(name: string, rpcUrl: string, wsUrl: string, withReadiness = false) {
  const db = openDatabase(join(dir, `${name}.db`));
  const keeper = createKeeper({
    connection: connectToChain(rpcUrl, wsUrl),
    signer: await generateKeyPairSigner(),
    db,
    programAddress: WAGER_PROGRAM_ADDRESS, // the localnet's
  });
  await keeper.start();
  const internalErrors: unknown[] = [];
  const server = await listenPublicApi(
    createPublicApi({
      keeper,
      allowedOrigins: [],
      onInternalError: (error) => internalErrors.push(error),
      // A minimal readiness from the keeper's health (the alert engine's readinessOf is tested on its own).
      ...(withReadiness ? { readiness: async () => readinessFromHealth(await keeper.health()) } : {}),
    }),
    { port: 0 },
  );
  running = { keeper, db, server };
  return { url: server.url, internalErrors };
}

const readinessFromHealth = (health: { rpcError?: string | null }): Readiness =>
  health.rpcError ? { ready: false, reasons: [`rpc-failing: ${health.rpcError}`] } : { ready: true, reasons: [] };

const readyAnswer = async (url: string) => {
  const response = await fetch(`${url}/v1/ready`);
  return { status: response.status, body: (await response.json()) as { ready: boolean; reasons?: string[] } };
};

const postWager = (url: string, wager: string) =>
  fetch(`${url}/v1/wagers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wager }),
  });

const freshAddress = async (): Promise<Address> => (await generateKeyPairSigner()).address;

async function expectChainUnreadable(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('5');
  expect(await response.json()).toEqual({ error: 'cannot read the chain' });
}

describe('the public API while the RPC is unreachable', () => {
  it('answers 503 "cannot read the chain" with Retry-After for POST /v1/wagers and GET of an untracked wager, and answers normally once the RPC is back', async () => {
    const { url, internalErrors } = await apiOfKeeper('proxy', proxy.url, localnet.wsUrl);
    const nobody = await freshAddress();
    // RPC up: the keeper reads the chain and finds no account there.
    const before = await postWager(url, nobody);
    expect([before.status, await before.json()]).toEqual([404, { error: 'account not found' }]);

    proxy.down();
    await expectChainUnreadable(await postWager(url, nobody));
    await expectChainUnreadable(await fetch(`${url}/v1/wagers/${await freshAddress()}`));
    // Health still answers (from memory) and says why.
    const health = await fetch(`${url}/v1/health`);
    expect(health.status).toBe(200);
    // Invalid input is still the client's problem, whatever the RPC does.
    const bad = await postWager(url, 'nope');
    expect([bad.status, await bad.json()]).toEqual([400, { error: 'not a base58 address' }]);

    proxy.up();
    const after = await postWager(url, nobody);
    expect([after.status, await after.json()]).toEqual([404, { error: 'account not found' }]);
    const unknown = await fetch(`${url}/v1/wagers/${await freshAddress()}`);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toMatchObject({ state: 'unknown' });
    // An outage is not a fault of the keeper: nothing was reported as an internal error.
    expect(internalErrors).toEqual([]);
  });

  it('answers 503 "cannot read the chain" when the RPC was never reachable (a closed port)', async () => {
    const port = await closedPort();
    const { url, internalErrors } = await apiOfKeeper(
      'closed',
      `http://127.0.0.1:${port}`,
      `ws://127.0.0.1:${port}`,
    );
    await expectChainUnreadable(await postWager(url, await freshAddress()));
    await expectChainUnreadable(await fetch(`${url}/v1/wagers/${await freshAddress()}`));
    const health = (await (await fetch(`${url}/v1/health`)).json()) as { rpcError?: string };
    expect(health.rpcError).toContain(`127.0.0.1:${port}`);
    expect(internalErrors).toEqual([]);
  });

  it('GET /v1/ready answers 503 with the reason while the RPC is taken away, and 200 once it is back', async () => {
    const { url, internalErrors } = await apiOfKeeper('ready', proxy.url, localnet.wsUrl, true);
    await expect.poll(async () => (await readyAnswer(url)).status, { timeout: 15_000 }).toBe(200);
    expect((await readyAnswer(url)).body).toEqual({ ready: true });

    proxy.down();
    await expect.poll(async () => (await readyAnswer(url)).status, { timeout: 15_000 }).toBe(503);
    const down = await readyAnswer(url);
    expect(down.body.ready).toBe(false);
    expect(down.body.reasons?.[0]).toMatch(/^rpc-failing: /);
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);

    proxy.up();
    await expect.poll(async () => (await readyAnswer(url)).status, { timeout: 15_000 }).toBe(200);
    expect(internalErrors).toEqual([]);
  });
});
