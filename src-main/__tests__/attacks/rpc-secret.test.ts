/**
 * Attack (issue 33, item 1): read the operator's paid RPC key. A real headless core cranks on a real
 * localnet through a loopback proxy whose URL carries a key in its path and one in its query (as RPC
 * providers hand them out); an older fleet member still reports its own raw RPC URL, and its address
 * carries a token too. The proxy is then closed to take the RPC away, and the `rpc-failing` alert fires to
 * a loopback receiver of every webhook format. After that no secret is in any /v1 answer (health, ready),
 * any webhook body, the metrics, any log line, the diagnostics archive or any operator view, while the
 * endpoint is still named there by its masked label. A second keeper whose URL carries a user and password
 * (which fetch refuses, quoting the URL) shows the user part never leaves either.
 */
import { generateKeyPairSigner } from '@solana/kit';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAlertWebhook } from '../../alerts/channels/webhook-flag';
import { createPublicApi, listenPublicApi } from '../../api/public-api';
import { connectToChain } from '../../chain/rpc-connection';
import { createKeeper } from '../../keeper/keeper';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { attachLogFile, createLogger, detachLogFile, logRing } from '../../logging';
import { openHeadlessSettings } from '../../runtime/console-settings';
import { createOperatorService, type OperatorService } from '../../console-core/operator-service';
import { WAGER_PROGRAM_ADDRESS } from '../../protocol/generated/wager';
import { openDatabase } from '../../store/database';

const SECRETS = {
  pathToken: 'PathTokenPlanted9Qz7',
  apiKey: 'QueryKeyPlanted4Wx2',
  fleetToken: 'FleetTokenPlanted3Km8',
  user: 'RpcUserPlanted',
  password: 'RpcPasswordPlanted6Tn',
};
const folder = mkdtempSync(join(tmpdir(), 'wk-rpc-secret-'));

let localnet: Localnet;
let proxy: Server;
let proxyPort: number;
const proxied: string[] = [];
let receiver: Server;
let receiverBase: string;
const webhookBodies: { path: string; text: string }[] = [];
let service: OperatorService;

/** An HTTP JSON-RPC proxy that takes any path and query (as a provider's endpoint does) and forwards to the localnet. */
async function startProxy(target: string): Promise<Server> {
  const server = createServer((request, response) => {
    proxied.push(request.url ?? '');
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (answer) => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()))
        .catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Every webhook service on one port, and an older fleet member whose /v1/health gives its raw RPC URL. */
async function startReceiver(): Promise<Server> {
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const path = new URL(request.url!, 'http://receiver').pathname;
      response.setHeader('content-type', 'application/json');
      if (path.endsWith('/v1/health')) {
        const rpcError = `http://${SECRETS.user}:${SECRETS.password}@127.0.0.1:1/${SECRETS.pathToken}?api-key=${SECRETS.apiKey}: fetch failed`;
        return response.end(JSON.stringify({ keeper: '11111111111111111111111111111111', lamports: '1', lastTick: Date.now(), queue: 0, rpcError }));
      }
      webhookBodies.push({ path, text });
      if (path.startsWith('/pagerduty')) response.writeHead(202).end('{"status":"success","message":"Event processed"}');
      else if (path.startsWith('/telegram')) response.end('{"ok":true,"result":{}}');
      else response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const FORMATS = ['json', 'slack', 'discord', 'telegram', 'pagerduty'] as const;
const webhookUrl = (format: (typeof FORMATS)[number]) =>
  format === 'telegram'
    ? `${receiverBase}/telegram/bot123456:ABC-token/sendMessage?chat_id=42`
    : format === 'pagerduty'
      ? `${receiverBase}/pagerduty?routing_key=ROUTING-KEY`
      : `${receiverBase}/${format}`;

const closeServer = (server: Server | undefined) =>
  new Promise<void>((resolve) => {
    if (!server?.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** Each planted secret that `text` holds, by name (none: []). */
const leaked = (text: string) => Object.entries(SECRETS).filter(([, secret]) => text.includes(secret)).map(([name]) => name);

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, slotMs: 100 });
  proxy = await startProxy(localnet.rpcUrl);
  proxyPort = (proxy.address() as { port: number }).port;
  receiver = await startReceiver();
  receiverBase = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  await attachLogFile(join(folder, 'logs', 'wager-keeper.log'));
  service = createOperatorService({
    host: 'headless',
    settings: openHeadlessSettings(join(folder, 'settings')),
    dataDir: join(folder, 'data'),
    console: { uiDirectory: join(folder, 'no-ui') },
    flags: {
      cluster: { kind: 'rpc', rpcUrl: `http://127.0.0.1:${proxyPort}/${SECRETS.pathToken}?api-key=${SECRETS.apiKey}`, wsUrl: localnet.wsUrl },
      apiPort: 0,
      metricsPort: 0,
      alertWebhooks: FORMATS.map((format) => parseAlertWebhook(`${format}=${webhookUrl(format)}`)),
      alertThresholds: { rpcFailingSeconds: 4, debounceSeconds: 1 },
    },
  });
  await service.start();
  await service.api.saveSettings({ changes: { fleetMembers: [`${receiverBase}/member-${SECRETS.fleetToken}`] } });
}, 90_000);

afterAll(async () => {
  await service?.stop();
  await detachLogFile();
  await closeServer(proxy);
  await closeServer(receiver);
  await localnet?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));

describe('the RPC key, once the RPC is taken away and rpc-failing fires', () => {
  it('is in no /v1 answer, webhook body, metric, log line, diagnostics archive or operator view', async () => {
    const { apiUrl, consoleUrl, metricsUrl } = service.describe();
    const token = new URLSearchParams(new URL(consoleUrl!).hash.slice(1)).get('token')!;
    const operator = async (method: string, args: object = {}) =>
      (
        await fetch(`${new URL(consoleUrl!).origin}/operator/api/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(args),
        })
      ).text();
    // The keeper cranks through the proxy, secrets and all: the provider sees them, as it must.
    await expect.poll(async () => (await service.api.health()).lastTick, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(proxied.some((url) => url.includes(SECRETS.pathToken) && url.includes(SECRETS.apiKey))).toBe(true);
    await expect.poll(async () => (await service.api.fleet())[0]?.rpcError ?? null, { timeout: 15_000 }).not.toBeNull();

    await closeServer(proxy); // the RPC is gone: connection refused from now on
    await expect.poll(async () => (await service.api.health()).rpcError, { timeout: 20_000 }).toBeTruthy();
    // rpc-failing reaches every channel.
    await expect
      .poll(() => FORMATS.filter((format) => webhookBodies.some(({ path, text }) => path.startsWith(`/${format}`) && text.includes('rpc-failing'))), { timeout: 25_000 })
      .toEqual([...FORMATS]);

    const surfaces: Record<string, string> = {
      '/v1/health': await (await fetch(`${apiUrl}/v1/health`)).text(),
      '/v1/ready': await (await fetch(`${apiUrl}/v1/ready`)).text(),
      metrics: await (await fetch(`${metricsUrl}/metrics`)).text(),
    };
    for (const { path, text } of webhookBodies) surfaces[`webhook ${path}`] = text;
    for (const method of ['status', 'health', 'alerts', 'fleet']) surfaces[`operator ${method}`] = await operator(method);
    // What the desktop window gets over IPC (no HTTP on the way): the status line and health.
    surfaces['desktop status'] = JSON.stringify(await service.api.status());
    surfaces['desktop health'] = JSON.stringify(await service.api.health());
    surfaces['operator testConnection'] = await operator('testConnection', { rpcUrl: `http://127.0.0.1:${proxyPort}/${SECRETS.pathToken}?api-key=${SECRETS.apiKey}` });
    // The live event stream's first events.
    const abort = new AbortController();
    const events = await fetch(`${new URL(consoleUrl!).origin}/operator/events?token=${token}`, { signal: abort.signal });
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    surfaces['operator events'] = (await reader.read()).value ?? '';
    abort.abort();

    const saved = await service.api.saveDiagnostics();
    const unpacked = join(folder, 'unpacked');
    mkdirSync(unpacked, { recursive: true });
    await extract({ file: saved.path, cwd: unpacked });
    for (const file of filesUnder(unpacked)) surfaces[`diagnostics ${file.slice(unpacked.length)}`] = readFileSync(file, 'utf8');
    surfaces['log file'] = filesUnder(join(folder, 'logs')).map((file) => readFileSync(file, 'utf8')).join('\n');
    surfaces['log ring'] = logRing.text();

    const found = Object.entries(surfaces).flatMap(([surface, text]) => leaked(text).map((secret) => `${surface}: ${secret}`));
    expect(found).toEqual([]);
    // Not silenced, masked: the endpoint is named by its label where the failure is told.
    const label = `127.0.0.1:${proxyPort}/***?api-key=***`;
    expect(surfaces['/v1/health']).toContain(label);
    expect(surfaces['/v1/ready']).toContain('rpc-failing');
    expect(webhookBodies.find(({ path, text }) => path === '/json' && text.includes('rpc-failing'))?.text).toContain(label);
    expect(surfaces.metrics).toContain('wager_keeper_fleet_member_up');
  }, 90_000);
});

describe('an RPC URL with a user and password', () => {
  it('is named without them in /v1/health, /v1/ready and the log, though fetch quotes the whole URL when it refuses it', async () => {
    const db = openDatabase(join(folder, 'userinfo.db'));
    const lines = logRing.text().split('\n').length;
    const keeper = createKeeper({
      connection: connectToChain(`http://${SECRETS.user}:${SECRETS.password}@127.0.0.1:${proxyPort}/`, localnet.wsUrl),
      signer: await generateKeyPairSigner(),
      db,
      programAddress: WAGER_PROGRAM_ADDRESS,
      logger: createLogger('userinfo-keeper'),
    });
    await keeper.start();
    const server = await listenPublicApi(
      createPublicApi({
        keeper,
        allowedOrigins: [],
        readiness: async () => {
          const { rpcError } = await keeper.health();
          return rpcError ? { ready: false, reasons: [`rpc-failing: ${rpcError}`] } : { ready: true, reasons: [] };
        },
      }),
      { port: 0 },
    );
    try {
      await expect.poll(async () => (await keeper.health()).rpcError, { timeout: 15_000 }).toBeTruthy();
      const health = await (await fetch(`${server.url}/v1/health`)).text();
      const ready = await (await fetch(`${server.url}/v1/ready`)).text();
      const log = logRing.text().split('\n').slice(lines - 1).join('\n');
      expect({ health: leaked(health), ready: leaked(ready), log: leaked(log) }).toEqual({ health: [], ready: [], log: [] });
      expect(health).toContain(`http://127.0.0.1:${proxyPort}`);
    } finally {
      await server.close();
      await keeper.stop();
      db.close();
    }
  }, 30_000);
});
