/**
 * Attacks on the embedded localnet (issue 33, items 4, 10 and 11), which hands out dev keys and lets any
 * caller stall its oracle or advance its slots. One real localnet over real HTTP and WebSocket:
 * - a web page's "simple" cross-origin POST (`text/plain`, no preflight) cannot call an admin method (415,
 *   the oracle stays running); a body over 1 MiB is 413; a DNS-rebound page (foreign `Host`) is 421;
 * - the WebSocket refuses a foreign `Host` (421) and a page on another site (`Origin`, 403), takes a dev
 *   app on localhost and a program (no Origin), caps subscriptions per socket and message size;
 * - a `localnet_manifest` is believed only from loopback and from a chain that is no public cluster's:
 *   a fake RPC on 127.0.0.1 claiming mainnet's genesis names its own wager program, and the deployment
 *   is still found where it really is.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MAINNET_BETA_GENESIS_HASH } from '../../../src-shared/cluster-identity';
import { resolveDeploymentForRpc } from '../../deployment/deployment-resolver';
import { startLocalnet, type BareLocalnet } from '../../localnet/localnet';
import { fetchLocalnetManifest, localOracleStatus } from '../../localnet/localnet-admin-client';
import { isLoopbackRpcUrl, ManifestNotTrusted } from '../../localnet/manifest-trust';
import { MAX_SUBSCRIPTIONS_PER_SOCKET } from '../../localnet/pubsub-server';
import { DEPLOYMENT_VERSION, formatDeployment, type Deployment } from '../../protocol/deployment';

let localnet: BareLocalnet;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, bare: true, manualSlots: true });
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await localnet?.stop();
});

/** One raw HTTP request (fetch cannot set `Host`). */
function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, path: '/', method: options.method ?? 'POST', headers: options.headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

const STALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'localnet_stallOracle' });

describe('the localnet RPC (HTTP)', () => {
  it("refuses a page's text/plain call to stall the oracle with 415, and the oracle keeps running", async () => {
    // What a form or `fetch(url, { method: 'POST', mode: 'no-cors', body })` on any web page sends: a browser
    // sends it cross-origin without asking, so only the server can refuse it.
    for (const contentType of ['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', undefined]) {
      const answer = await fetch(localnet.rpcUrl, { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body: STALL });
      expect(answer.status).toBe(415);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await answer.json()) as { error: string }).error).toMatch(/Content-Type: application\/json/);
    }
    expect(await localOracleStatus(localnet.rpcUrl)).toEqual({ stalled: false, pending: 0 });
  });

  it('answers JSON-RPC as before to application/json, parameters and all (kit sends a charset)', async () => {
    const answer = await fetch(localnet.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getGenesisHash' }),
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { result: string }).result).toBe(localnet.manifest.genesisHash);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const padding = 'x'.repeat(1024 * 1024);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth', params: [padding] });
    const answer = await fetch(localnet.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as { error: string }).error).toMatch(/over 1048576 bytes/);
  });

  it('refuses a foreign Host (a DNS-rebound page) with 421, and answers loopback names', async () => {
    const refused = await rawRequest(localnet.rpcUrl, { headers: { host: 'rebind.attacker.example:8899', 'content-type': 'application/json' }, body: STALL });
    expect(refused.status).toBe(421);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect((JSON.parse(refused.text) as { error: string }).error).toMatch(/rebind\.attacker\.example/);
    expect((await rawRequest(localnet.rpcUrl, { method: 'GET', headers: { host: 'rebind.attacker.example' } })).status).toBe(421);
    expect(await localOracleStatus(localnet.rpcUrl)).toEqual({ stalled: false, pending: 0 });

    const status = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'localnet_oracleStatus' });
    const { port } = new URL(localnet.rpcUrl);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      expect((await rawRequest(localnet.rpcUrl, { headers: { host, 'content-type': 'application/json' }, body: status })).status).toBe(200);
    }
  });
});

/** Opens a socket; resolves with it once open, or with the HTTP status the upgrade was refused with. */
function connect(headers: Record<string, string> = {}): Promise<{ socket: WebSocket } | { status: number; body: string }> {
  const socket = new WebSocket(localnet.wsUrl, { headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      closers.push(async () => socket.terminate());
      resolve({ socket });
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once('error', reject);
  });
}

/** Sends requests on `socket` and resolves with the answers to their ids, in order. */
function ask(socket: WebSocket, requests: { method: string; params?: unknown[] }[], firstId: number): Promise<{ id: number; result?: unknown; error?: { code: number; message: string } }[]> {
  const answers = new Map<number, { id: number; result?: unknown; error?: { code: number; message: string } }>();
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number };
      if (typeof message.id !== 'number') return; // a notification
      answers.set(message.id, message as { id: number });
      if (answers.size === requests.length) {
        socket.off('message', onMessage);
        resolve(requests.map((_, index) => answers.get(firstId + index)!));
      }
    };
    socket.on('message', onMessage);
    requests.forEach((entry, index) => socket.send(JSON.stringify({ jsonrpc: '2.0', id: firstId + index, method: entry.method, params: entry.params ?? [] })));
  });
}

describe('the localnet WebSocket', () => {
  it('refuses the upgrade for a foreign Host (421) and for a page on another site (403)', async () => {
    const rebound = await connect({ host: 'rebind.attacker.example:8900' });
    expect(rebound).toMatchObject({ status: 421 });
    expect((JSON.parse((rebound as { body: string }).body) as { error: string }).error).toMatch(/rebind\.attacker\.example/);
    for (const origin of ['https://attacker.example', 'http://203.0.113.7', 'null']) {
      const page = await connect({ origin });
      expect(page, origin).toMatchObject({ status: 403 });
      expect((JSON.parse((page as { body: string }).body) as { error: string }).error).toMatch(/pages from this machine only/);
    }
  });

  it('takes a dev app on localhost and a program (no Origin)', async () => {
    const clients: Record<string, string>[] = [{ origin: 'http://localhost:3000' }, { origin: 'http://127.0.0.1:5173' }, {}];
    for (const headers of clients) {
      const opened = await connect(headers);
      expect(opened, JSON.stringify(headers)).toHaveProperty('socket');
      const [answer] = await ask((opened as { socket: WebSocket }).socket, [{ method: 'slotSubscribe' }], 1);
      expect(typeof answer!.result).toBe('number');
    }
  });

  it(`holds at most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions per socket, and says so`, async () => {
    const { socket } = (await connect()) as { socket: WebSocket };
    const many = Array.from({ length: MAX_SUBSCRIPTIONS_PER_SOCKET + 1 }, () => ({ method: 'slotSubscribe' }));
    const answers = await ask(socket, many, 1);
    expect(answers.slice(0, MAX_SUBSCRIPTIONS_PER_SOCKET).every((answer) => typeof answer.result === 'number')).toBe(true);
    expect(answers.at(-1)!.error).toMatchObject({ code: -32603, message: expect.stringMatching(`already holds ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions`) });
    // The cap counts what the socket holds: one unsubscribe makes room, and another socket has its own.
    const [unsubscribed, again] = await ask(socket, [{ method: 'slotUnsubscribe', params: [answers[0]!.result] }, { method: 'slotSubscribe' }], 5_000);
    expect(unsubscribed!.result).toBe(true);
    expect(typeof again!.result).toBe('number');
    const other = (await connect()) as { socket: WebSocket };
    expect(typeof (await ask(other.socket, [{ method: 'slotSubscribe' }], 1))[0]!.result).toBe('number');
  });

  it('closes a socket that sends a message over 1 MiB (1009)', async () => {
    const { socket } = (await connect()) as { socket: WebSocket };
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe', params: ['x'.repeat(1024 * 1024)] }));
    expect(await closed).toBe(1009);
  });
});

/** A fake RPC on 127.0.0.1 answering getGenesisHash and localnet_manifest as told; counts what it is asked. */
async function fakeRpc(genesisHash: string, manifest: unknown): Promise<{ url: string; port: number; asked: string[] }> {
  const asked: string[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    let body = '';
    incoming.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    incoming.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      asked.push(method);
      const result = method === 'getGenesisHash' ? genesisHash : method === 'localnet_manifest' ? manifest : undefined;
      outgoing.setHeader('content-type', 'application/json');
      outgoing.end(JSON.stringify(result === undefined ? { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } } : { jsonrpc: '2.0', id, result }));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, asked };
}

/** A deployment document on `genesisHash` whose wager program is `wager` (every other address a valid one). */
const deploymentOn = (genesisHash: string, wager: string): Deployment => ({
  version: DEPLOYMENT_VERSION,
  cluster: { genesisHash, name: genesisHash === MAINNET_BETA_GENESIS_HASH ? 'mainnet-beta' : 'localnet' },
  programs: { wager, oracle: 'VRFzZoJdhFWL8rkvu87LpKM3RbcVezpMEc6X5GVDr7y' },
  programData: 'SysvarC1ock11111111111111111111111111111111',
  upgradeAuthority: 'SysvarRent111111111111111111111111111111111',
  config: 'SysvarS1otHashes111111111111111111111111111',
  pool: 'Sysvar1nstructions1111111111111111111111111',
  usdcMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  paytables: [{ name: 'coin-flip', address: 'SysvarEpochSchedu1e111111111111111111111111' }],
  guardian: 'SysvarRecentB1ockHashes11111111111111111111',
  deployedSlot: 1,
  programSha256: '0'.repeat(64),
});
const HONEST_WAGER = 'Stake11111111111111111111111111111111111111';
const HOSTILE_WAGER = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
const manifestOn = (genesisHash: string, deployment: Deployment) => ({ ...localnet.manifest, bare: false, genesisHash, deployment, programs: deployment.programs });

describe('localnet_manifest is believed only from a loopback localnet', () => {
  it('names loopback endpoints only: localhost, 127.0.0.0/8, [::1]', () => {
    for (const url of ['http://127.0.0.1:8899', 'http://127.8.9.10:1', 'http://localhost:8899', 'http://LOCALHOST', 'http://[::1]:8899']) expect(isLoopbackRpcUrl(url), url).toBe(true);
    for (const url of ['https://api.mainnet-beta.solana.com', 'http://10.0.0.5:8899', 'http://127.0.0.1.nip.io:8899', 'http://localhost.attacker.example', 'http://0.0.0.0:8899', 'http://[::ffff:127.0.0.1]:8899', 'not a url']) {
      expect(isLoopbackRpcUrl(url), url).toBe(false);
    }
  });

  it("believes the real localnet's own manifest", async () => {
    expect(await fetchLocalnetManifest(localnet.rpcUrl)).toMatchObject({ genesisHash: localnet.manifest.genesisHash, bare: true });
  });

  it('does not even ask an endpoint whose name is not loopback, though it reaches this machine', async () => {
    const fake = await fakeRpc('5pQkGf4XWKdXB8J3vqjQcwQfT7DjNfwXyLo7y6ZH1r4D', manifestOn('5pQkGf4XWKdXB8J3vqjQcwQfT7DjNfwXyLo7y6ZH1r4D', deploymentOn('5pQkGf4XWKdXB8J3vqjQcwQfT7DjNfwXyLo7y6ZH1r4D', HOSTILE_WAGER)));
    // 0.0.0.0 connects to this machine on Linux and macOS: only the name decides, never where it lands.
    await expect(fetchLocalnetManifest(`http://0.0.0.0:${fake.port}`)).rejects.toThrow(ManifestNotTrusted);
    expect(fake.asked).toEqual([]);
  });

  it("ignores a manifest from a loopback RPC that serves mainnet's genesis, and finds the deployment where it really is", async () => {
    const fake = await fakeRpc(MAINNET_BETA_GENESIS_HASH, manifestOn(MAINNET_BETA_GENESIS_HASH, deploymentOn(MAINNET_BETA_GENESIS_HASH, HOSTILE_WAGER)));
    await expect(fetchLocalnetManifest(fake.url)).rejects.toThrow(/serves mainnet-beta .* not believed/);

    const folder = await mkdtemp(join(tmpdir(), 'attack-manifest-'));
    closers.push(() => rm(folder, { recursive: true, force: true }));
    await writeFile(join(folder, `${MAINNET_BETA_GENESIS_HASH}.json`), formatDeployment(deploymentOn(MAINNET_BETA_GENESIS_HASH, HONEST_WAGER)));
    const resolved = await resolveDeploymentForRpc(fake.url, { folders: [folder] });
    expect(resolved).toMatchObject({ source: { kind: 'folder' }, clusterName: 'mainnet-beta', wagerKeeperLocalnet: false, manifest: null });
    expect(resolved.deployment.programs.wager).toBe(HONEST_WAGER);
  });

  it('ignores a manifest of another chain than the one the loopback RPC serves', async () => {
    const served = '5pQkGf4XWKdXB8J3vqjQcwQfT7DjNfwXyLo7y6ZH1r4D';
    const other = '7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2';
    for (const manifest of [manifestOn(other, deploymentOn(other, HOSTILE_WAGER)), manifestOn(served, deploymentOn(other, HOSTILE_WAGER))]) {
      const fake = await fakeRpc(served, manifest);
      await expect(fetchLocalnetManifest(fake.url)).rejects.toThrow(/answered a localnet manifest for genesis .*7Np41oeY.* while it serves genesis 5pQkGf4X/);
    }
  });
});
