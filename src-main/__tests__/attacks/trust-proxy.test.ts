/**
 * Clients behind a proxy (issue 33, item 5). Behind Caddy or nginx on the same host every request comes
 * from 127.0.0.1: without `--trust-proxy` one caller exhausts the rate limit and the faucet's per-address
 * slot for everyone, and every proxied internet request looks like this machine to the operator routes.
 *
 * One real `serve --trust-proxy 127.0.0.2` (its /v1, faucet and gateway): requests sent from 127.0.0.2 play
 * the proxy (its X-Forwarded-For or Forwarded names the client), requests from 127.0.0.3 play a caller that reaches the
 * port directly and forges the header. The operator routes refuse anything a proxy touched, token or not.
 * The default (no --trust-proxy) is checked on the /v1 app alone, in this process.
 */
import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicApi, listenPublicApi, type PublicApiServer } from '../../api/public-api';
import { DEFAULT_GATEWAY_RATE_LIMITS } from '../../gateway/gateway-app';
import type { KeeperService } from '../../keeper/keeper-service';
import { OPERATOR_ERRORS } from '../../operator-http/operator-http';
import { rawRequest, type RawResponse } from '../../api/__tests__/raw-http';
import { startServe, type ServeProcess } from './serve-process';

const PROXY = '127.0.0.2';
const DIRECT = '127.0.0.3';
/** POST /v1/wagers' bucket: 10 at once, then 429 (public-api.ts DEFAULT_RATE_LIMITS). */
const SUBMIT_BURST = 10;

let serve: ServeProcess;
let bare: PublicApiServer;

beforeAll(async () => {
  const keeper = {
    submitWager: () => Promise.reject(new Error('not reached: every body here is refused first')),
    lookupWager: () => Promise.reject(new Error('not reached')),
    health: () => Promise.reject(new Error('not reached')),
  } as unknown as KeeperService;
  [serve, bare] = await Promise.all([
    startServe(['--trust-proxy', PROXY]),
    listenPublicApi(createPublicApi({ keeper, allowedOrigins: [] }), { port: 0 }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([serve?.stop(), bare?.close()]);
});

const portOf = (url: string) => Number(new URL(url).port);

/** One request from the local address `from`, with our headers (X-Forwarded-For, Forwarded, Via). */
function call(url: string, from: string, method: string, path: string, headers: Record<string, string> = {}, body = ''): Promise<RawResponse> {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${portOf(url)}`, 'Connection: close', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  if (body !== '') lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  return rawRequest(portOf(url), { bytes: Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`), localAddress: from });
}

/** Statuses of `count` POST /v1/wagers `{}` (refused 400 by the route once past the limiter, else 429). */
async function submits(url: string, from: string, count: number, headers: (n: number) => Record<string, string>): Promise<number[]> {
  const statuses: number[] = [];
  for (let n = 0; n < count; n++) statuses.push((await call(url, from, 'POST', '/v1/wagers', headers(n), '{}')).status);
  return statuses;
}

const claim = async (from: string, headers: Record<string, string>) =>
  call(serve.ready.api, from, 'POST', '/v1/faucet', headers, JSON.stringify({ owner: (await generateKeyPairSigner()).address }));

describe('--trust-proxy: clients behind a proxy have their own limits', () => {
  it('gives two clients behind the trusted proxy their own rate limit (X-Forwarded-For and Forwarded)', async () => {
    const first = await submits(serve.ready.api, PROXY, SUBMIT_BURST + 1, () => ({ 'X-Forwarded-For': '6.6.6.6, 203.0.113.1' }));
    expect(first.slice(0, SUBMIT_BURST).every((status) => status === 400)).toBe(true);
    expect(first.at(-1)).toBe(429);
    // Another client behind the same proxy, the one the first exhausted: its own bucket.
    expect(await submits(serve.ready.api, PROXY, 1, () => ({ 'X-Forwarded-For': '203.0.113.2' }))).toEqual([400]);
    expect(await submits(serve.ready.api, PROXY, 1, () => ({ Forwarded: 'for=203.0.113.3;proto=https' }))).toEqual([400]);
    expect(await submits(serve.ready.api, PROXY, 1, () => ({ Forwarded: 'for="[2001:db8::7]:4711"' }))).toEqual([400]);
  });

  it('ignores a forged X-Forwarded-For from a caller that is not the trusted proxy: one bucket for all its names', async () => {
    const statuses = await submits(serve.ready.api, DIRECT, SUBMIT_BURST + 1, (n) => ({ 'X-Forwarded-For': `198.51.100.${n}`, Forwarded: `for=198.51.100.${n}` }));
    expect(statuses.at(-1)).toBe(429);
  });

  it('without --trust-proxy, a forged X-Forwarded-For or Forwarded changes nothing', async () => {
    const statuses = await submits(bare.url, DIRECT, SUBMIT_BURST + 1, (n) => ({ 'X-Forwarded-For': `198.51.100.${n}`, Forwarded: `for=198.51.100.${n}` }));
    expect(statuses.at(-1)).toBe(429);
  });

  it("gives each client behind the proxy its own faucet slot, and a forger none", async () => {
    const a = { 'X-Forwarded-For': '192.0.2.10' };
    expect((await claim(PROXY, a)).status).toBe(200);
    const again = await claim(PROXY, a);
    expect(again.status).toBe(429);
    // Another client behind the same proxy: the first one's claim is not held against it.
    expect((await claim(PROXY, { 'X-Forwarded-For': '192.0.2.11' })).status).toBe(200);
    // A direct caller's forged header does not buy it a second claim.
    expect((await claim(DIRECT, { 'X-Forwarded-For': '192.0.2.12' })).status).toBe(200);
    expect((await claim(DIRECT, { 'X-Forwarded-For': '192.0.2.13' })).status).toBe(429);
  }, 30_000);
});

describe('--trust-proxy on the gateway (serve passes it on)', () => {
  /** Statuses of `count` POST /wager with a body that is not JSON (400 once past the per-address limit, else 429). */
  const orders = async (from: string, count: number, headers: (n: number) => Record<string, string>) => {
    const statuses: number[] = [];
    for (let n = 0; n < count; n++) statuses.push((await call(serve.ready.gateway, from, 'POST', '/wager', headers(n), '{')).status);
    return statuses;
  };
  const burst = DEFAULT_GATEWAY_RATE_LIMITS.perAddress.burst;

  it('gives two clients behind the trusted proxy their own POST /wager limit, and a forger one bucket', async () => {
    const first = await orders(PROXY, burst + 1, () => ({ 'X-Forwarded-For': '203.0.113.21' }));
    expect(first.slice(0, burst).every((status) => status === 400)).toBe(true);
    expect(first.at(-1)).toBe(429);
    expect(await orders(PROXY, 1, () => ({ 'X-Forwarded-For': '203.0.113.22' }))).toEqual([400]);
    expect((await orders(DIRECT, burst + 1, (n) => ({ 'X-Forwarded-For': `198.51.100.${100 + n}` }))).at(-1)).toBe(429);
  });
});

describe('the operator routes are never reached through a proxy', () => {
  it('refuses a request with Forwarded, X-Forwarded-For, Via or X-Real-IP with 403 even with the right token, and says what to do', async () => {
    const auth = { Authorization: `Bearer ${serve.token}` };
    const proxies: Record<string, string>[] = [{ 'X-Forwarded-For': '203.0.113.9' }, { Forwarded: 'for=203.0.113.9' }, { Via: '1.1 caddy' }, { 'X-Real-IP': '203.0.113.9' }, { 'X-Forwarded-For': '127.0.0.1' }];
    for (const proxied of proxies) {
      for (const from of ['127.0.0.1', PROXY]) {
        const refused = await call(serve.ready.api, from, 'POST', '/operator/api/status', { ...auth, ...proxied });
        expect({ proxied, status: refused.status }).toEqual({ proxied, status: 403 });
        expect(JSON.parse(refused.body.toString())).toEqual({ error: OPERATOR_ERRORS.proxied });
      }
    }
    expect(OPERATOR_ERRORS.proxied).toMatch(/on the machine that runs the keeper, or through an SSH tunnel/);
    expect((await call(serve.ready.api, '127.0.0.1', 'GET', '/console/', { Via: '1.1 nginx' })).status).toBe(403);
    expect((await call(serve.ready.api, '127.0.0.1', 'GET', `/operator/events?token=${serve.token}`, { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(403);
    // The same call from this machine, straight: answered.
    expect((await call(serve.ready.api, '127.0.0.1', 'POST', '/operator/api/status', auth)).status).toBe(200);
  });
});
