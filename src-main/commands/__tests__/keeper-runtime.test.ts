/**
 * The CORS origins of a running keeper (the `keeper` and `serve` commands' runtime), over real HTTP:
 * by default only the console's own origin, i.e. the origin the API was actually bound to (also with
 * --port 0, where the requested port is not the bound one); with --cors-origin only the given ones. The
 * RPC is a closed port: the keeper starts anyway, and CORS does not depend on the chain.
 */
import { generateKeyPairSigner } from '@solana/kit';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startKeeperRuntime, type KeeperRuntime, type KeeperRuntimeOptions } from '../keeper-runtime';
import { closedPort } from '../../keeper/__tests__/network-faults';

let dir: string;
let runtime: KeeperRuntime | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keeper-runtime-'));
});
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function start(overrides: Partial<KeeperRuntimeOptions> = {}) {
  const port = await closedPort();
  runtime = await startKeeperRuntime({
    rpcUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    signer: await generateKeyPairSigner(),
    programAddress: (await generateKeyPairSigner()).address,
    dbPath: join(dir, 'keeper.db'),
    apiPort: 0,
    ...overrides,
  });
  return runtime;
}

/** The Access-Control-Allow-Origin the API gives `origin` on GET /v1/health (null: none). */
const allowOriginFor = async (api: string, origin: string) =>
  (await fetch(`${api}/v1/health`, { headers: { origin } })).headers.get('access-control-allow-origin');

describe('CORS origins of a running keeper', () => {
  it("by default allows the console's own origin at the bound port (127.0.0.1 and localhost) and refuses others", async () => {
    const { apiUrl, corsOrigins } = await start();
    const { port } = new URL(apiUrl);
    expect(Number(port)).toBeGreaterThan(0);
    expect([...corsOrigins].sort()).toEqual([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

    expect(await allowOriginFor(apiUrl, `http://127.0.0.1:${port}`)).toBe(`http://127.0.0.1:${port}`);
    expect(await allowOriginFor(apiUrl, `http://localhost:${port}`)).toBe(`http://localhost:${port}`);
    // The requested port (0) is not an origin of anything, nor is another port or site.
    expect(await allowOriginFor(apiUrl, 'http://127.0.0.1:0')).toBeNull();
    expect(await allowOriginFor(apiUrl, `http://127.0.0.1:${Number(port) + 1}`)).toBeNull();
    expect(await allowOriginFor(apiUrl, 'https://evil.example')).toBeNull();
  });

  it('with --cors-origin allows exactly the given origins, not the default ones', async () => {
    const { apiUrl, corsOrigins } = await start({ corsOrigins: ['https://app.example'] });
    const { port } = new URL(apiUrl);
    expect(corsOrigins).toEqual(['https://app.example']);
    expect(await allowOriginFor(apiUrl, 'https://app.example')).toBe('https://app.example');
    expect(await allowOriginFor(apiUrl, `http://127.0.0.1:${port}`)).toBeNull();
  });
});
