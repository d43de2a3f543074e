/**
 * `wager-keeper serve` as a person runs it: the whole service from one command, its API on 127.0.0.1 by
 * default with CORS for its own origin only; `--host` exposes it, `--cors-origin` names other origins.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';
import { withConsoleToken } from '../../service/__tests__/ready-console-url';

const bin = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'bin', 'wager-keeper.js');
const run = promisify(execFile);

interface Ready {
  event: 'ready';
  api: string;
  rpcUrl: string;
  keeper: string;
  db: string;
  corsOrigins: string[];
  manifest: { paytables: { name: string }[]; programs: { wager: string; oracle: string }; usdcMint: string; devKeys: { app: { address: string } } };
}

let child: ChildProcess;
let ready: Ready;

/** Starts `wager-keeper serve ARGS` and resolves with the process and its ready line. */
async function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; ready: Ready }> {
  // Its own data folder (where console-url.json goes), unless the test names one.
  const data = await mkdtemp(join(tmpdir(), 'serve-data-'));
  const started = spawn(process.execPath, [bin, 'serve', '--gateway-port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_DATA_HOME: data, ...env } });
  let stderr = '';
  started.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: started.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(started, 'exit').then(() => [null])])) as [string | null];
  // Keep draining stdout: writes to a full pipe nobody reads would freeze serve (synchronous on Linux).
  lines.on('line', () => {});
  if (!first) throw new Error(`serve exited before it was ready: ${stderr}`);
  return { child: started, ready: withConsoleToken(JSON.parse(first) as Ready & { console?: string }) };
}

/** An IPv4 address of this machine other than loopback, if it has one. */
const lanAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;

/** The Access-Control-Allow-Origin `api` gives `origin` (null: none). */
const allowOriginFor = async (api: string, origin: string) =>
  (await fetch(`${api}/v1/health`, { headers: { origin } })).headers.get('access-control-allow-origin');

beforeAll(async () => {
  ({ child, ready } = await startServe(['--port', '0', '--rpc-port', '0']));
}, 60_000);

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

const post = (path: string, body: unknown) =>
  fetch(`${ready.api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('wager-keeper serve: the whole service on one machine', () => {
  it('prints one ready line with the API, the RPC and the localnet manifest', () => {
    expect(ready).toMatchObject({ event: 'ready', api: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), rpcUrl: expect.stringMatching(/^http:\/\//) });
    expect(ready.manifest.paytables.map((p) => p.name)).toEqual(['coin-flip', 'dice', 'wheel']);
  });

  it('runs the x402 gateway with a funded key: its health says it can fund wagers, and an unpaid POST /wager answers 402 in the localnet\'s test USDC', async () => {
    const { gateway, network } = ready as unknown as { gateway: string; network: string };
    expect(gateway).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = (await (await fetch(`${gateway}/health`)).json()) as { canFund: boolean; network: string; usdc: { amount: string } };
    expect(health).toMatchObject({ canFund: true, network, usdc: { amount: '10000.00' } });
    const unpaid = await fetch(`${gateway}/wager`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paytable: 'dice', amount: '1.00', beneficiary: ready.manifest.devKeys.app.address }),
    });
    expect(unpaid.status).toBe(402);
    const { decodePaymentRequiredHeader } = await import('@x402/core/http');
    expect(decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!).accepts[0]).toMatchObject({ network, asset: ready.manifest.usdcMint, amount: '1000000' });
  });

  it('names its cluster in the ready line: the genesis hash and the CAIP-2 network id x402 and wallets use', async () => {
    const { genesisHash, network } = ready as unknown as { genesisHash: string; network: string };
    const answered = (await (await fetch(ready.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getGenesisHash' }) })).json()) as { result: string };
    expect(genesisHash).toBe(answered.result);
    expect(network).toBe(`solana:${answered.result.slice(0, 32)}`);
  });

  it("binds 127.0.0.1 only, and gives CORS headers to its own origin at the bound port (not the requested port 0), nobody else's", async () => {
    const { port } = new URL(ready.api);
    expect(Number(port)).toBeGreaterThan(0);
    expect(ready.corsOrigins.sort()).toEqual([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
    expect(await allowOriginFor(ready.api, `http://127.0.0.1:${port}`)).toBe(`http://127.0.0.1:${port}`);
    expect(await allowOriginFor(ready.api, `http://localhost:${port}`)).toBe(`http://localhost:${port}`);
    // The requested port (0) is not an origin of anything, nor is another port or site.
    expect(await allowOriginFor(ready.api, 'http://127.0.0.1:0')).toBeNull();
    expect(await allowOriginFor(ready.api, `http://127.0.0.1:${Number(port) + 1}`)).toBeNull();
    expect(await allowOriginFor(ready.api, 'https://evil.example')).toBeNull();
    const lan = lanAddress();
    if (lan) await expect(fetch(`http://${lan}:${port}/v1/health`)).rejects.toThrow();
  });

  it('takes a wager opened by an app, settles it, and reports it through /v1', async () => {
    const { stdout } = await run(process.execPath, [bin, 'open', '--rpc', ready.rpcUrl, '--paytable', 'coin-flip', '--amount', '1.00']);
    const { wager } = JSON.parse(stdout) as { wager: string };
    const posted = await post('/v1/wagers', { wager });
    expect([posted.status, await posted.json()]).toEqual([202, { status: 'queued' }]);

    let record: { state: string; bucket?: number; payout?: string; settleSignature?: string } = { state: 'queued' };
    for (let i = 0; i < 100 && record.state !== 'settled'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      record = (await (await fetch(`${ready.api}/v1/wagers/${wager}`)).json()) as typeof record;
    }
    expect(record.state).toBe('settled');
    expect([0, 1]).toContain(record.bucket);
    expect(record.payout).toBe(record.bucket === 1 ? '1960000' : '0');
    expect(record.settleSignature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);

    const health = (await (await fetch(`${ready.api}/v1/health`)).json()) as { keeper: string; queue: number; lastTick: number };
    expect(health.keeper).toBe(ready.keeper);
    expect(Date.now() - health.lastTick).toBeLessThan(5_000);
  });

  it('serves the faucet on its own localnet', async () => {
    const status = (await (await fetch(`${ready.api}/v1/faucet`)).json()) as { usdc: string; perDay: number };
    expect(status.usdc).toBe('1000000000');
    const claim = await post('/v1/faucet', { owner: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' });
    expect(claim.status).toBe(200);
    // sol is decimal SOL (spec 2.4): a new wallet gets the 0.01 SOL top-up.
    expect(await claim.json()).toMatchObject({ usdc: '1000000000', sol: '0.01' });
  });

  it('with --host 0.0.0.0 --cors-origin ORIGIN (and --rpc: an existing localnet) serves on every interface, with CORS for that origin only; stops on SIGINT', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'serve-host-'));
    const keypair = join(dir, 'keeper.json');
    await writeFile(keypair, JSON.stringify([...(await generateKeypairWithBytes()).secretKey]));
    // Against a cluster given by --rpc the store is the keeper's usual file (here under XDG_DATA_HOME), not a temp one.
    const exposed = await startServe(['--port', '0', '--host', '0.0.0.0', '--cors-origin', 'https://app.example', '--rpc', ready.rpcUrl, '--keypair', keypair], { XDG_DATA_HOME: dir });
    try {
      expect(exposed.ready.db).toBe(join(dir, 'wager-keeper', 'keeper.db'));
      expect(exposed.ready.api).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      const { port } = new URL(exposed.ready.api);
      const local = `http://127.0.0.1:${port}`;
      expect((await fetch(`${local}/v1/health`)).status).toBe(200);
      const lan = lanAddress();
      if (lan) expect((await fetch(`http://${lan}:${port}/v1/health`)).status).toBe(200);
      expect(exposed.ready.corsOrigins).toEqual(['https://app.example']);
      expect(await allowOriginFor(local, 'https://app.example')).toBe('https://app.example');
      expect(await allowOriginFor(local, local)).toBeNull();

      const lines = createInterface({ input: exposed.child.stdout! });
      const stopped = once(lines, 'line');
      exposed.child.kill('SIGINT');
      const [code] = (await once(exposed.child, 'exit')) as [number];
      expect(code).toBe(0);
      expect(JSON.parse(((await stopped) as [string])[0])).toMatchObject({ event: 'stopped', signal: 'SIGINT' });
    } finally {
      if (exposed.child.exitCode === null) exposed.child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops cleanly on SIGTERM, also while an open console holds its live event stream', async () => {
    const { origin, hash } = new URL((ready as unknown as { console: string }).console);
    const token = new URLSearchParams(hash.slice(1)).get('token')!;
    const events = await fetch(`${origin}/operator/events`, { headers: { authorization: `Bearer ${token}` } });
    const reader = events.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"type":"status"');
    const lines = createInterface({ input: child.stdout! });
    const stopped = once(lines, 'line');
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
    expect(JSON.parse(((await stopped) as [string])[0])).toMatchObject({ event: 'stopped', signal: 'SIGTERM' });
    // The stream was ended by the server, not left hanging.
    let done = false;
    while (!done) ({ done } = await reader.read().catch(() => ({ done: true })));
  });
});
