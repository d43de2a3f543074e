/**
 * DNS rebinding against every listener of `serve` (issue 33, item 4). A web page whose own name
 * re-resolves to 127.0.0.1 reaches the port, but its browser sends the page's name as `Host`: every
 * listener (the /v1 API with the console and operator API, --metrics-port, the gateway, the embedded
 * localnet's RPC and WebSocket) must answer that with 421 JSON before any route, and answer loopback
 * names, IP literals and the names given with --public-host as before. One real `serve` for the file.
 */
import { execFile } from 'node:child_process';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startServe, type ServeProcess } from './serve-process';

const bin = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'bin', 'wager-keeper.js');

let serve: ServeProcess;

beforeAll(async () => {
  serve = await startServe(['--metrics-port', '0', '--public-host', 'keeper.test', '--public-host', '*.fleet.test']);
}, 60_000);
afterAll(async () => {
  await serve?.stop();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** One request with the Host header we choose (fetch cannot set it). */
function send(url: string, path: string, host: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, path, method: options.method ?? 'GET', headers: { ...options.headers, host }, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

const SURFACES = ['/v1', 'the faucet', 'the operator API', 'the metrics', 'the gateway', 'the localnet RPC'] as const;

/** Each listener with one request that reads something a page must not get. */
function surface(name: (typeof SURFACES)[number]): { url: string; path: string; options: Parameters<typeof send>[3] } {
  const { ready, token } = serve;
  switch (name) {
    case '/v1':
      return { url: ready.api, path: '/v1/health', options: {} };
    case 'the faucet':
      return { url: ready.api, path: '/v1/faucet', options: {} };
    case 'the operator API':
      return { url: ready.api, path: '/operator/api/status', options: { method: 'POST', headers: { authorization: `Bearer ${token}` } } };
    case 'the metrics':
      return { url: ready.metrics!.replace(/\/metrics$/, ''), path: '/metrics', options: {} };
    case 'the gateway':
      return { url: ready.gateway, path: '/health', options: {} };
    case 'the localnet RPC':
      return { url: ready.rpcUrl, path: '/', options: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'localnet_manifest' }) } };
  }
}

const FOREIGN_HOSTS = ['evil.example', 'evil.example:7300', 'localhost.evil.example', 'keeper.test.evil.example', 'fleet.test'];

describe('a foreign Host (DNS rebinding) on every listener of serve', () => {
  it.each(SURFACES)('%s: answers a foreign Host 421 with a JSON error that names the host and the next step', async (name) => {
    const { url, path, options } = surface(name);
    for (const host of FOREIGN_HOSTS) {
      const answer = await send(url, path, host, options);
      expect({ host, status: answer.status }).toEqual({ host, status: 421 });
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      const { error } = JSON.parse(answer.text) as { error: string };
      expect(error).toContain(host.replace(/:\d+$/, ''));
      expect(error).toMatch(/127\.0\.0\.1 or localhost/);
      // Nothing of what the route would have said comes with the refusal.
      expect(Object.keys(JSON.parse(answer.text) as object)).toEqual(['error']);
    }
  });

  it.each(SURFACES)('%s: answers 127.0.0.1:PORT, localhost:PORT and the --public-host names (exact and *.fleet.test) as before', async (name) => {
    const { url, path, options } = surface(name);
    const port = new URL(url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'keeper.test', `KEEPER.test:${port}`, 'a.fleet.test']) {
      // The embedded localnet listens on loopback only and answers loopback names: --public-host names the keeper's listeners.
      if (name === 'the localnet RPC' && /test/i.test(host)) continue;
      const answer = await send(url, path, host, options);
      expect({ host, status: answer.status }).toEqual({ host, status: 200 });
    }
  });

  it('refuses the console page to a foreign Host and serves it to 127.0.0.1 (the URL the ready line prints)', async () => {
    const consoleUrl = new URL(serve.ready.console);
    expect((await send(consoleUrl.origin, '/console/', 'evil.example')).status).toBe(421);
    // 200 with a built UI, 404 JSON saying how to build it without one: either way past the Host check.
    expect([200, 404]).toContain((await send(consoleUrl.origin, '/console/', consoleUrl.host)).status);
  });

  it('refuses the localnet WebSocket upgrade to a foreign Host (421) and opens it for localhost', async () => {
    const upgrade = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(serve.ready.manifest.wsUrl, { headers: { host } });
        socket.once('open', () => {
          socket.terminate();
          resolve(101);
        });
        socket.once('unexpected-response', (_request, response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        socket.once('error', reject);
      });
    const port = new URL(serve.ready.manifest.wsUrl).port;
    expect(await upgrade('evil.example')).toBe(421);
    expect(await upgrade(`localhost:${port}`)).toBe(101);
  });

  it('exits 2 with one line for a --public-host that is not a host name', async () => {
    // One start of the CLI (the other shapes are listener-flags.test.ts's): a URL where a name belongs.
    for (const value of ['http://keeper.example.com']) {
      const failure = await promisify(execFile)(process.execPath, [bin, 'serve', '--public-host', value]).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(2);
      expect(failure?.stderr.trim().split('\n')).toHaveLength(1);
      expect(failure?.stderr).toMatch(/--public-host must be a host name/);
    }
  });
});
