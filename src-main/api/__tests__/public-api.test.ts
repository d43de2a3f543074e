/**
 * The public /v1 API over real HTTP (listenPublicApi on port 0, fetch). The keeper behind it is
 * `fixedKeeper`: a small KeeperService with fixed records, because the KeeperService interface is the
 * boundary under test here. The clock is injected for the rate limits.
 */
import {
  generateKeyPairSigner,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_NODE_UNHEALTHY,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  SolanaError,
  type Address,
} from '@solana/kit';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  HealthRecord,
  KeeperService,
  PublicWagerRecord,
  SubmitWagerResult,
} from '../../keeper/keeper-service';
import { createPublicApi, listenPublicApi, type PublicApiOptions, type PublicApiServer } from '../public-api';

const CONSOLE_ORIGIN = 'http://127.0.0.1:5173';
const OTHER_ORIGIN = 'https://evil.example';

let wagerAddress: Address;
let settledAddress: Address;
let tokenAccountAddress: Address;
let missingAddress: Address;

const settledRecord: PublicWagerRecord = {
  state: 'settled',
  openSlot: 1234,
  requestSignature: '5'.repeat(87),
  settleSignature: '4'.repeat(87),
  bucket: 2,
  payout: '1500000',
  updatedAt: '2030-01-01T12:00:00.000Z',
};
const healthRecord: HealthRecord = {
  keeper: 'KeeperAddress',
  lamports: '99000000000',
  lastTick: 1_893_499_200_000,
  queue: 3,
};

/** A KeeperService with fixed answers: which addresses are wagers, which exist as other accounts, their records. */
function fixedKeeper() {
  const submitted: Address[] = [];
  const keeper: KeeperService = {
    async submitWager(address): Promise<SubmitWagerResult> {
      submitted.push(address);
      if (address === wagerAddress || address === settledAddress) return { kind: 'queued' };
      if (address === tokenAccountAddress) return { kind: 'notAWager' };
      return { kind: 'accountNotFound' };
    },
    async lookupWager(address) {
      if (address === settledAddress) return settledRecord;
      return { state: 'unknown', updatedAt: '2030-01-01T12:00:00.000Z' };
    },
    async health() {
      return healthRecord;
    },
  };
  return { keeper, submitted };
}

let clock = Date.UTC(2030, 0, 1, 12);
let server: PublicApiServer | undefined;

async function startApi(overrides: Partial<PublicApiOptions> = {}) {
  const fixed = fixedKeeper();
  const app = createPublicApi({
    keeper: fixed.keeper,
    allowedOrigins: [CONSOLE_ORIGIN],
    now: () => clock,
    ...overrides,
  });
  server = await listenPublicApi(app, { port: 0 });
  return { url: server.url, submitted: fixed.submitted };
}

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const corsHeaders = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

beforeAll(async () => {
  const fresh = async () => (await generateKeyPairSigner()).address;
  [wagerAddress, settledAddress, tokenAccountAddress, missingAddress] = await Promise.all([
    fresh(),
    fresh(),
    fresh(),
    fresh(),
  ]);
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  clock = Date.UTC(2030, 0, 1, 12);
});

describe('POST /v1/wagers', () => {
  it('queues a wager account of the service: 202 {"status":"queued"} and the keeper receives the address', async () => {
    const { url, submitted } = await startApi();
    const response = await postJson(`${url}/v1/wagers`, { wager: wagerAddress });
    expect(response.status).toBe(202);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ status: 'queued' });
    expect(submitted).toEqual([wagerAddress]);
  });

  it('accepts a charset parameter on the JSON content type', async () => {
    const { url } = await startApi();
    const response = await postJson(
      `${url}/v1/wagers`,
      { wager: wagerAddress },
      { 'content-type': 'application/json; charset=utf-8' },
    );
    expect(response.status).toBe(202);
  });

  it.each([
    ['not base58 at all', 'not-an-address!'],
    ['base58 but too short for an address', 'abc'],
    ['base58 with a forbidden character (0)', '0'.repeat(44)],
    ['a number', 42],
    ['an empty string', ''],
  ])('answers 400 "not a base58 address" when wager is %s', async (_, wager) => {
    const { url, submitted } = await startApi();
    const response = await postJson(`${url}/v1/wagers`, { wager });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'not a base58 address' });
    expect(submitted).toEqual([]);
  });

  it.each([
    ['an empty object', {}],
    ['wager: null', { wager: null }],
    ['another field only', { address: 'x' }],
    ['a JSON array', [1, 2]],
    ['a JSON string', 'just a string'],
  ])('answers 400 "missing wager" for %s', async (_, body) => {
    const { url } = await startApi();
    const response = await postJson(`${url}/v1/wagers`, JSON.stringify(body));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'missing wager' });
  });

  it('answers 400 "body must be JSON" for a body that does not parse, an empty body, or a non-JSON content type', async () => {
    const { url, submitted } = await startApi();
    const cases = [
      postJson(`${url}/v1/wagers`, '{"wager": '),
      postJson(`${url}/v1/wagers`, ''),
      fetch(`${url}/v1/wagers`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ wager: wagerAddress }),
      }),
      fetch(`${url}/v1/wagers`, {
        method: 'POST',
        body: new Uint8Array(Buffer.from(JSON.stringify({ wager: wagerAddress }))),
      }),
      fetch(`${url}/v1/wagers`, { method: 'POST', body: new URLSearchParams({ wager: wagerAddress }) }),
    ];
    for (const response of await Promise.all(cases)) {
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'body must be JSON' });
    }
    expect(submitted).toEqual([]);
  });

  it('answers 404 "account not found" when the address has no account', async () => {
    const { url } = await startApi();
    const response = await postJson(`${url}/v1/wagers`, { wager: missingAddress });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'account not found' });
  });

  it('answers 422 naming the address when the account is not a wager account of this service', async () => {
    const { url } = await startApi();
    const response = await postJson(`${url}/v1/wagers`, { wager: tokenAccountAddress });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: `${tokenAccountAddress} is not a wager account of this service`,
    });
  });

  it('lets 10 posts through at once, then answers 429 "rate limited" with Retry-After: 2, and one more after 2 seconds', async () => {
    const { url, submitted } = await startApi();
    for (let i = 0; i < 10; i++)
      expect((await postJson(`${url}/v1/wagers`, { wager: wagerAddress })).status).toBe(202);

    const limited = await postJson(`${url}/v1/wagers`, { wager: wagerAddress });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(await limited.json()).toEqual({ error: 'rate limited' });
    expect(submitted).toHaveLength(10);

    clock += 1_999;
    expect((await postJson(`${url}/v1/wagers`, { wager: wagerAddress })).status).toBe(429);
    clock += 1;
    expect((await postJson(`${url}/v1/wagers`, { wager: wagerAddress })).status).toBe(202);
    expect((await postJson(`${url}/v1/wagers`, { wager: wagerAddress })).status).toBe(429);

    // A quiet minute refills the burst (30/min, capped at 10).
    clock += 60_000;
    for (let i = 0; i < 10; i++)
      expect((await postJson(`${url}/v1/wagers`, { wager: wagerAddress })).status).toBe(202);
    expect((await postJson(`${url}/v1/wagers`, { wager: wagerAddress })).status).toBe(429);
  });

  it('rate-limits invalid posts too, so malformed requests cannot be sent without limit', async () => {
    const { url } = await startApi();
    for (let i = 0; i < 10; i++) expect((await postJson(`${url}/v1/wagers`, 'nope')).status).toBe(400);
    expect((await postJson(`${url}/v1/wagers`, 'nope')).status).toBe(429);
  });

  it('does not let a client escape the limit with a forged X-Forwarded-For header', async () => {
    const { url } = await startApi();
    for (let i = 0; i < 10; i++) {
      expect(
        (await postJson(`${url}/v1/wagers`, { wager: wagerAddress }, { 'x-forwarded-for': `10.0.0.${i}` }))
          .status,
      ).toBe(202);
    }
    expect(
      (await postJson(`${url}/v1/wagers`, { wager: wagerAddress }, { 'x-forwarded-for': '10.0.0.99' }))
        .status,
    ).toBe(429);
  });

  it('behind a trusted proxy (trustProxy), limits each forwarded client separately', async () => {
    const { url } = await startApi({ trustProxy: true });
    for (let i = 0; i < 10; i++) {
      expect(
        (await postJson(`${url}/v1/wagers`, { wager: wagerAddress }, { 'x-forwarded-for': '203.0.113.7' }))
          .status,
      ).toBe(202);
    }
    expect(
      (await postJson(`${url}/v1/wagers`, { wager: wagerAddress }, { 'x-forwarded-for': '203.0.113.7' }))
        .status,
    ).toBe(429);
    // The right-most entry is the one the proxy saw; a client-supplied left part does not matter.
    expect(
      (
        await postJson(
          `${url}/v1/wagers`,
          { wager: wagerAddress },
          { 'x-forwarded-for': '1.1.1.1, 203.0.113.7' },
        )
      ).status,
    ).toBe(429);
    expect(
      (await postJson(`${url}/v1/wagers`, { wager: wagerAddress }, { 'x-forwarded-for': '203.0.113.8' }))
        .status,
    ).toBe(202);
  });
});

describe('GET /v1/wagers/:address', () => {
  it('answers 200 with the keeper record of spec 2.2', async () => {
    const { url } = await startApi();
    const response = await fetch(`${url}/v1/wagers/${settledAddress}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(settledRecord);
  });

  it('answers 400 "not a base58 address" for a bad address in the path', async () => {
    const { url } = await startApi();
    for (const bad of ['nope', '0'.repeat(44), `${settledAddress}x`]) {
      const response = await fetch(`${url}/v1/wagers/${bad}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'not a base58 address' });
    }
  });

  it('allows 120 reads at once, then 429 with Retry-After: 1, and reads again 100 ms later (600/min)', async () => {
    const { url } = await startApi();
    const responses = await Promise.all(
      Array.from({ length: 120 }, () => fetch(`${url}/v1/wagers/${settledAddress}`)),
    );
    expect(responses.map((r) => r.status)).toEqual(Array.from({ length: 120 }, () => 200));
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    const limited = await fetch(`${url}/v1/health`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toEqual({ error: 'rate limited' });
    clock += 100;
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);
  });
});

describe('GET /v1/health', () => {
  it('answers 200 with the health record of spec 2.3', async () => {
    const { url } = await startApi();
    const response = await fetch(`${url}/v1/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(healthRecord);
  });

  it('answers HEAD like GET, without a body', async () => {
    const { url } = await startApi();
    const response = await fetch(`${url}/v1/health`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });
});

describe('GET /v1/ready', () => {
  const rpcReason = 'rpc-failing: the RPC has failed for 42 s (fetch failed): check the RPC URL in Settings → Cluster';

  it('answers 200 {"ready":true} while ready, 503 with the reasons while not, and 200 again, asking on every request', async () => {
    let readiness = { ready: true, reasons: [] as string[] };
    const { url } = await startApi({ readiness: () => readiness });
    const ready = await fetch(`${url}/v1/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ ready: true });

    readiness = { ready: false, reasons: [rpcReason, 'loop-stalled: no loop pass for 75 s'] };
    const notReady = await fetch(`${url}/v1/ready`);
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await notReady.json()).toEqual({ ready: false, reasons: [rpcReason, 'loop-stalled: no loop pass for 75 s'] });
    // /v1/health stays 200 whatever happens (spec 2.3).
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);

    readiness = { ready: true, reasons: [] };
    expect((await fetch(`${url}/v1/ready`)).status).toBe(200);
  });

  it('answers HEAD with the status alone, other methods with 405, and allowed origins with CORS', async () => {
    const { url } = await startApi({ readiness: async () => ({ ready: false, reasons: [rpcReason] }) });
    const head = await fetch(`${url}/v1/ready`, { method: 'HEAD' });
    expect(head.status).toBe(503);
    expect(await head.text()).toBe('');
    const post = await postJson(`${url}/v1/ready`, {});
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await post.json()).toEqual({ error: 'method not allowed' });
    const fromConsole = await fetch(`${url}/v1/ready`, { headers: { origin: CONSOLE_ORIGIN } });
    expect(fromConsole.headers.get('access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
    expect(corsHeaders(await fetch(`${url}/v1/ready`, { headers: { origin: OTHER_ORIGIN } }))).toEqual([]);
  });

  it('is rate limited like every read, and answers 500 {"error"} when the readiness itself throws', async () => {
    const errors: unknown[] = [];
    const { url } = await startApi({
      readiness: () => {
        throw new Error('boom');
      },
      rateLimit: { read: { perMinute: 60, burst: 1 } },
      onInternalError: (error) => errors.push(error),
    });
    const failed = await fetch(`${url}/v1/ready`);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'internal error' });
    expect(errors).toHaveLength(1);
    const limited = await fetch(`${url}/v1/ready`);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: 'rate limited' });
  });

  it('does not exist without a readiness (404 like any unknown route)', async () => {
    const { url } = await startApi();
    const response = await fetch(`${url}/v1/ready`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not found' });
  });
});

describe('errors outside the routes', () => {
  it('answers unknown routes with 404 {"error":"not found"}', async () => {
    const { url } = await startApi();
    for (const path of [
      '/',
      '/v1',
      '/v2/health',
      '/v1/wagers/',
      `/v1/wagers/${settledAddress}/extra`,
      '/v1/healthz',
    ]) {
      const response = await fetch(`${url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ error: 'not found' });
    }
  });

  it('has no faucet routes when no faucet is configured (not a test network)', async () => {
    const { url } = await startApi();
    for (const response of [
      await fetch(`${url}/v1/faucet`),
      await postJson(`${url}/v1/faucet`, { owner: wagerAddress }),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'not found' });
    }
  });

  it.each([
    ['GET', '/v1/wagers', 'POST, OPTIONS'],
    ['PUT', '/v1/wagers', 'POST, OPTIONS'],
    ['DELETE', '/v1/wagers/11111111111111111111111111111111', 'GET, HEAD, OPTIONS'],
    ['POST', '/v1/wagers/11111111111111111111111111111111', 'GET, HEAD, OPTIONS'],
    ['POST', '/v1/health', 'GET, HEAD, OPTIONS'],
    ['PATCH', '/v1/health', 'GET, HEAD, OPTIONS'],
  ])('answers %s %s with 405 "method not allowed" and Allow: %s', async (method, path, allow) => {
    const { url } = await startApi();
    const response = await fetch(`${url}${path}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await response.json()).toEqual({ error: 'method not allowed' });
  });

  it('answers a body over 16 KiB with 413 "body too large" and does not reach the keeper', async () => {
    const { url, submitted } = await startApi();
    const padded = (size: number) => {
      const core = JSON.stringify({ wager: wagerAddress });
      return core.slice(0, -1) + ' '.repeat(size - core.length) + '}';
    };
    expect(Buffer.byteLength(padded(16 * 1024))).toBe(16 * 1024);

    const atLimit = await postJson(`${url}/v1/wagers`, padded(16 * 1024));
    expect(atLimit.status).toBe(202);

    const over = await postJson(`${url}/v1/wagers`, padded(16 * 1024 + 1));
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ error: 'body too large' });

    // Without a Content-Length (chunked), the limit holds while reading.
    const bytes = new TextEncoder().encode(padded(64 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.slice(i, i + 4096));
        controller.close();
      },
    });
    const chunked = await fetch(`${url}/v1/wagers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual({ error: 'body too large' });
    expect(submitted).toEqual([wagerAddress]);
  });

  it('answers an unexpected failure with 500 "internal error" and no details, and reports it to the operator', async () => {
    const reported: unknown[] = [];
    const failing: KeeperService = {
      submitWager: () => Promise.reject(new Error('database is locked at /secret/path')),
      lookupWager: () => Promise.reject(new Error('database is locked at /secret/path')),
      health: () => Promise.reject(new Error('database is locked at /secret/path')),
    };
    const { url } = await startApi({ keeper: failing, onInternalError: (error) => reported.push(error) });
    for (const response of [
      await postJson(`${url}/v1/wagers`, { wager: wagerAddress }),
      await fetch(`${url}/v1/wagers/${wagerAddress}`),
      await fetch(`${url}/v1/health`),
    ]) {
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: 'internal error' });
      expect(text).not.toContain('secret');
    }
    expect(reported).toHaveLength(3);
    expect((reported[0] as Error).message).toContain('database is locked');
  });
});

describe('when the keeper cannot read the chain', () => {
  it.each([
    ['the RPC refuses connections', () => new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })],
    ['the RPC answers HTTP 502', () => new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, { headers: new Headers(), message: 'Bad Gateway', statusCode: 502 })],
    ['the RPC node is unhealthy', () => new SolanaError(SOLANA_ERROR__JSON_RPC__SERVER_ERROR_NODE_UNHEALTHY, { numSlotsBehind: 100 })],
  ])('answers 503 "cannot read the chain" with Retry-After when %s, on POST and GET', async (_, error) => {
    const reported: unknown[] = [];
    const offline: KeeperService = {
      submitWager: () => Promise.reject(error()),
      lookupWager: () => Promise.reject(error()),
      health: async () => ({ ...healthRecord, rpcError: 'http://rpc: fetch failed' }),
    };
    const { url } = await startApi({ keeper: offline, onInternalError: (e) => reported.push(e) });
    for (const response of [await postJson(`${url}/v1/wagers`, { wager: wagerAddress }), await fetch(`${url}/v1/wagers/${wagerAddress}`)]) {
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toEqual({ error: 'cannot read the chain' });
    }
    expect(reported).toEqual([]);
  });
});

describe('CORS', () => {
  it("gives the console's origin Access-Control-Allow-Origin, on success and on errors", async () => {
    const { url } = await startApi();
    const ok = await fetch(`${url}/v1/health`, { headers: { origin: CONSOLE_ORIGIN } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
    expect(ok.headers.get('vary')).toMatch(/Origin/);

    const bad = await postJson(`${url}/v1/wagers`, { wager: 'nope' }, { origin: CONSOLE_ORIGIN });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
    expect(bad.headers.get('access-control-expose-headers')).toBe('Retry-After');
  });

  it('gives any other origin no CORS headers at all', async () => {
    const { url } = await startApi();
    const response = await fetch(`${url}/v1/health`, { headers: { origin: OTHER_ORIGIN } });
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual([]);
    expect(response.headers.get('vary')).toMatch(/Origin/);
  });

  it('answers the preflight of the allowed origin (POST with a JSON content type) and nobody else', async () => {
    const { url } = await startApi();
    const preflight = (origin: string) =>
      fetch(`${url}/v1/wagers`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    const allowed = await preflight(CONSOLE_ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
    expect(allowed.headers.get('access-control-allow-methods')?.split(',')).toContain('POST');
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toBe('content-type');
    // docs/keeper-api.md: OPTIONS on a route answers 204 with Allow, for an allowed origin too.
    expect(allowed.headers.get('allow')).toBe('POST, OPTIONS');
    const wagerPreflight = await fetch(`${url}/v1/wagers/${wagerAddress}`, {
      method: 'OPTIONS',
      headers: { origin: CONSOLE_ORIGIN, 'access-control-request-method': 'GET' },
    });
    expect(wagerPreflight.status).toBe(204);
    expect(wagerPreflight.headers.get('access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
    expect(wagerPreflight.headers.get('allow')).toBe('GET, HEAD, OPTIONS');

    const other = await preflight(OTHER_ORIGIN);
    expect(corsHeaders(other)).toEqual([]);
    expect(other.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('reads a Set of allowed origins on every request (an origin added after start is allowed from then on)', async () => {
    const origins = new Set<string>();
    const { url } = await startApi({ allowedOrigins: origins });
    expect(corsHeaders(await fetch(`${url}/v1/health`, { headers: { origin: CONSOLE_ORIGIN } }))).toEqual([]);
    origins.add(CONSOLE_ORIGIN);
    const allowed = await fetch(`${url}/v1/health`, { headers: { origin: CONSOLE_ORIGIN } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
  });

  it('keeps the CORS header on a 429 so the console can show "rate limited"', async () => {
    const { url } = await startApi({ rateLimit: { submitWager: { perMinute: 1, burst: 1 } } });
    expect(
      (await postJson(`${url}/v1/wagers`, { wager: wagerAddress }, { origin: CONSOLE_ORIGIN })).status,
    ).toBe(202);
    const limited = await postJson(`${url}/v1/wagers`, { wager: wagerAddress }, { origin: CONSOLE_ORIGIN });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
  });
});
