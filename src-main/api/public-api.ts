/**
 * The public keeper HTTP API, /v1 (spec 4.1, 7.1, 8; reference: docs/keeper-api.md). It answers from the
 * KeeperService (and the FaucetService on a test network) and never touches the chain itself.
 *
 * Every error body is JSON `{ "error": "..." }`:
 * - 400 `body must be JSON`: the body does not parse as JSON, or the content type is not
 *   `application/json` (a wrong content type is answered like a non-JSON body, with 400 rather than 415,
 *   so clients written against the spec's error table see only the statuses it lists);
 * - 400 `missing wager` / `missing owner` (field absent or null), 400 `not a base58 address`;
 * - 404 `account not found`, 422 `<address> is not a wager account of this service`;
 * - 404 `not found` (unknown route; also the faucet routes when no faucet is configured);
 * - 405 `method not allowed` with an Allow header;
 * - 413 `body too large` (over `maxBodyBytes`, default 16 KiB), on every route and method: a declared
 *   Content-Length over the limit is refused before anything is read, a chunked body once it passes it;
 * - from the listener itself (listenPublicApi), for requests no route can see: 400 `bad request` (a malformed
 *   request line, header or Host, no Host in HTTP/1.1), 431 `request headers too large` (over Node's 16 KiB),
 *   408 `request timeout`, 417 for an Expect other than 100-continue, 405 for CONNECT;
 * - 429 `rate limited` with Retry-After (seconds); on POST /v1/faucet also `retryAt` (Unix ms), as every
 *   faucet refusal carries one (spec 7.1);
 * - 503 `cannot read the chain` with Retry-After when the keeper needed the RPC (POST /v1/wagers, GET of
 *   an untracked wager) and the RPC failed (see chain-read-error.ts);
 * - GET /v1/ready (for outside monitors) answers 503 `{ ready: false, reasons }` while a critical condition
 *   holds: not an error of the request, so no `error` field (see `readiness` in the options);
 * - 500 `internal error` (details go to `onInternalError`, never to the client);
 * - faucet refusals `{ error, retryAt }` with the faucet's status: 429 wallet/IP claimed within 5 minutes,
 *   503 daily limit used up, 502 transaction failed (see faucet/faucet.ts); Retry-After when retryAt is ahead.
 * - from the listener, before anything else: 421 when the Host header names neither this machine (a loopback
 *   name or an IP literal) nor a `publicHosts` name (DNS rebinding: see host-check.ts).
 *
 * Rate limits per client (socket address; IPv6 per /64; X-Forwarded-For or Forwarded only as `trustProxy` says), token
 * buckets: POST /v1/wagers 30/min burst 10; POST /v1/faucet 30/min burst 10 (before the faucet's own
 * rules); every other request 600/min burst 120.
 *
 * CORS: only `allowedOrigins` get Access-Control-Allow-Origin (and preflight answers); any other origin
 * gets no CORS header at all, so browsers there cannot read the answers. A Set is read on every request,
 * so a runtime can add the console's own origin once the listening port is known.
 */
import { getRequestListener, RequestError } from '@hono/node-server';
import { isAddress, type Address } from '@solana/kit';
import { Hono, type Context, type Handler } from 'hono';
import { cors } from 'hono/cors';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FaucetService } from '../faucet/faucet-service';
import type { Readiness } from '../../src-shared/alert-types';
import type { KeeperService } from '../keeper/keeper-service';
import { scrubSecrets, scrubValue } from '../../src-shared/secret-scrub';
import { limitBodies } from './body-limit';
import { isChainReadError } from './chain-read-error';
import { clientKey, type TrustProxy } from './client-ip';
import { refuseForeignHost, type PublicHosts } from './host-check';
import { createRateLimiter, type BucketConfig } from './rate-limiter';

export interface RateLimitConfig {
  /** POST /v1/wagers. */
  submitWager: BucketConfig;
  /** POST /v1/faucet (the faucet's 5-minute rules come on top). */
  faucetClaim: BucketConfig;
  /** Every other request (GETs, unknown routes, wrong methods). */
  read: BucketConfig;
}

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  submitWager: { perMinute: 30, burst: 10 },
  faucetClaim: { perMinute: 30, burst: 10 },
  read: { perMinute: 600, burst: 120 },
};

/** 16 KiB: a POST body is a few dozen bytes of JSON. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

export const API_ERRORS = {
  notJson: 'body must be JSON',
  missingWager: 'missing wager',
  missingOwner: 'missing owner',
  notAddress: 'not a base58 address',
  accountNotFound: 'account not found',
  notFound: 'not found',
  methodNotAllowed: 'method not allowed',
  bodyTooLarge: 'body too large',
  rateLimited: 'rate limited',
  chainUnreadable: 'cannot read the chain',
  internal: 'internal error',
} as const;

/** Retry-After (seconds) of a 503 `cannot read the chain`: the keeper's loop retries the RPC every second or so. */
export const CHAIN_UNREADABLE_RETRY_AFTER_SECONDS = 5;

/** The 422 text of POST /v1/wagers for an account that exists but is not a wager of this service. */
export const notAWagerError = (address: string): string =>
  `${address} is not a wager account of this service`;

export interface PublicApiOptions {
  keeper: KeeperService;
  /**
   * Test network only: without it the faucet routes do not exist (404). A function is asked on every
   * request (the console switches clusters under a running API; a cluster without a faucet answers 404).
   */
  faucet?: FaucetService | (() => FaucetService | undefined);
  /**
   * Browser origins allowed by CORS, e.g. the console's own origin. An array is copied; a Set is read on
   * every request (the runtime adds the console's origin to it once it knows the bound port).
   */
  allowedOrigins: readonly string[] | ReadonlySet<string>;
  /**
   * Whether the keeper is fit to serve, asked on every GET /v1/ready (for outside monitors: 200
   * `{ ready: true }`, else 503 `{ ready: false, reasons }`). Without it /v1/ready does not exist (404).
   */
  readiness?: () => Readiness | Promise<Readiness>;
  rateLimit?: Partial<RateLimitConfig>;
  /** Which proxies in front may say who the client is (X-Forwarded-For, Forwarded): see client-ip.ts. Default none. */
  trustProxy?: TrustProxy;
  maxBodyBytes?: number;
  now?: () => number;
  /** Receives unexpected exceptions (default: console.error). The client only sees 500 `internal error`. */
  onInternalError?: (error: unknown, request: { method: string; path: string }) => void;
}

/** Per-request values: `client` is the rate-limit key of the caller (see client-ip.ts). */
export type PublicApiEnv = { Variables: { client: string } };
type Env = PublicApiEnv;

export function createPublicApi(options: PublicApiOptions): Hono<Env> {
  const now = options.now ?? Date.now;
  const limits: RateLimitConfig = { ...DEFAULT_RATE_LIMITS, ...options.rateLimit };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const trustProxy = options.trustProxy ?? false;
  const onInternalError =
    options.onInternalError ??
    ((error, request) => console.error(`public api: ${request.method} ${request.path}:`, error));
  const allowedOrigins: ReadonlySet<string> =
    options.allowedOrigins instanceof Set ? options.allowedOrigins : new Set(options.allowedOrigins);
  const limiter = createRateLimiter(now);
  const { keeper } = options;
  const faucetOption = options.faucet;
  const currentFaucet = typeof faucetOption === 'function' ? faucetOption : () => faucetOption;

  // Clients poll the same wager over and over: remember addresses already checked (a base58 decode each).
  const checkedAddresses = new Set<string>();
  const isKnownGoodAddress = (value: string): value is Address => {
    if (checkedAddresses.has(value)) return true;
    if (!isAddress(value)) return false;
    if (checkedAddresses.size >= 10_000) checkedAddresses.clear();
    checkedAddresses.add(value);
    return true;
  };

  const app = new Hono<Env>();
  const fail = (c: Context, status: ContentfulStatusCode, error: string, headers?: Record<string, string>) =>
    c.json({ error }, status, headers);

  app.notFound((c) => fail(c, 404, API_ERRORS.notFound));
  app.onError((error, c) => {
    // The RPC being down is not the keeper's fault and not the client's: say so and when to retry. Not
    // reported as an internal error: the keeper's loop already logs the outage (and health shows rpcError).
    if (isChainReadError(error))
      return fail(c, 503, API_ERRORS.chainUnreadable, { 'Retry-After': String(CHAIN_UNREADABLE_RETRY_AFTER_SECONDS) });
    onInternalError(error, { method: c.req.method, path: c.req.path });
    return fail(c, 500, API_ERRORS.internal);
  });

  /** Each route's path (`:param` matching one segment) and Allow, for the CORS preflight. */
  const routeAllows: { pattern: RegExp; allow: string }[] = [];
  // CORS first, so every answer to an allowed origin (errors and 429 included) carries the header.
  const corsForAllowed = cors({
    origin: (origin) => (allowedOrigins.has(origin) ? origin : null),
    allowMethods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    allowHeaders: ['Content-Type'],
    exposeHeaders: ['Retry-After'],
    maxAge: 600,
  });
  app.use('*', async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && allowedOrigins.has(origin)) {
      // The CORS middleware answers the preflight itself (the route never runs): give it the route's Allow.
      const allow = c.req.method === 'OPTIONS' ? routeAllows.find(({ pattern }) => pattern.test(c.req.path))?.allow : undefined;
      if (allow) c.header('Allow', allow);
      return corsForAllowed(c, next);
    }
    // The answer depends on Origin for allowed origins: keep shared caches from mixing them up. Set
    // before the handler runs: adding a header to a finished response makes Hono rebuild it (half the
    // throughput of GET /v1/wagers/:address, measured with bench:api).
    c.header('Vary', 'Origin');
    await next();
  });

  app.use('*', async (c, next) => {
    const client = clientKey(c, trustProxy);
    c.set('client', client);
    const path = c.req.path;
    const routeClass: keyof RateLimitConfig =
      c.req.method === 'POST' && path === '/v1/wagers'
        ? 'submitWager'
        : c.req.method === 'POST' && path === '/v1/faucet'
          ? 'faucetClaim'
          : 'read';
    const taken = limiter.take(`${routeClass} ${client}`, limits[routeClass]);
    if (!taken.allowed) {
      const headers = { 'Retry-After': retryAfterSeconds(taken.retryAfterMs) };
      // Every faucet refusal carries retryAt (spec 7.1), this one too.
      if (routeClass === 'faucetClaim')
        return c.json({ error: API_ERRORS.rateLimited, retryAt: now() + taken.retryAfterMs }, 429, headers);
      return fail(c, 429, API_ERRORS.rateLimited, headers);
    }
    await next();
  });

  // Every route and method, unknown routes too: a body over the limit is refused the same way wherever it is sent.
  app.use('*', limitBodies(maxBodyBytes, (c) => fail(c, 413, API_ERRORS.bodyTooLarge)));

  /** Registers `handlers` on `path` and answers other methods with 405 (OPTIONS with 204), both with Allow. */
  const route = (path: string, handlers: { GET?: Handler<Env>; POST?: Handler<Env> }) => {
    const allow = [
      ...(handlers.GET ? ['GET', 'HEAD'] : []),
      ...(handlers.POST ? ['POST'] : []),
      'OPTIONS',
    ].join(', ');
    routeAllows.push({ pattern: new RegExp(`^${path.replace(/:[^/]+/g, '[^/]+')}$`), allow });
    if (handlers.GET) app.get(path, handlers.GET);
    if (handlers.POST) app.post(path, handlers.POST);
    app.all(path, (c) => {
      if (c.req.method === 'OPTIONS') return c.body(null, 204, { Allow: allow });
      return fail(c, 405, API_ERRORS.methodNotAllowed, { Allow: allow });
    });
  };

  route('/v1/wagers', {
    POST: async (c) => {
      const body = await readJsonBody(c);
      if (!body.ok) return fail(c, 400, API_ERRORS.notJson);
      const wager = field(body.value, 'wager');
      if (wager === undefined || wager === null) return fail(c, 400, API_ERRORS.missingWager);
      if (typeof wager !== 'string' || !isAddress(wager)) return fail(c, 400, API_ERRORS.notAddress);
      const result = await keeper.submitWager(wager);
      switch (result.kind) {
        case 'queued':
          return c.json({ status: 'queued' }, 202);
        case 'accountNotFound':
          return fail(c, 404, API_ERRORS.accountNotFound);
        case 'notAWager':
          return fail(c, 422, notAWagerError(wager));
      }
    },
  });

  route('/v1/wagers/:address', {
    GET: async (c) => {
      const address = c.req.param('address') ?? '';
      if (!isKnownGoodAddress(address)) return fail(c, 400, API_ERRORS.notAddress);
      return c.json(await keeper.lookupWager(address), 200);
    },
  });

  // Health and readiness carry error text (an RPC failure): scrubbed, so no URL key or token reaches a stranger.
  route('/v1/health', { GET: async (c) => c.json(scrubValue(await keeper.health()), 200) });

  const { readiness } = options;
  if (readiness) {
    route('/v1/ready', {
      GET: async (c) => {
        const now = await readiness();
        // A monitor polls this: never answer from a cache.
        const headers = { 'Cache-Control': 'no-store' };
        return now.ready
          ? c.json({ ready: true }, 200, headers)
          : c.json({ ready: false, reasons: scrubValue(now.reasons) }, 503, headers);
      },
    });
  }

  if (faucetOption) {
    route('/v1/faucet', {
      GET: (c) => {
        const faucet = currentFaucet();
        return faucet ? c.json(faucet.status(), 200) : fail(c, 404, API_ERRORS.notFound);
      },
      POST: async (c) => {
        const faucet = currentFaucet();
        if (!faucet) return fail(c, 404, API_ERRORS.notFound);
        const body = await readJsonBody(c);
        if (!body.ok) return fail(c, 400, API_ERRORS.notJson);
        const owner = field(body.value, 'owner');
        if (owner === undefined || owner === null) return fail(c, 400, API_ERRORS.missingOwner);
        if (typeof owner !== 'string' || !isAddress(owner)) return fail(c, 400, API_ERRORS.notAddress);
        const result = await faucet.claim(owner as Address, c.get('client'));
        if (result.ok)
          return c.json({ signature: result.signature, usdc: result.usdc, sol: result.sol }, 200);
        const wait = result.retryAt - now();
        return c.json(
          // A failed transaction's error may quote what the RPC said: scrubbed like health.
          { error: scrubSecrets(result.error), retryAt: result.retryAt },
          result.status as ContentfulStatusCode,
          wait > 0 ? { 'Retry-After': retryAfterSeconds(wait) } : undefined,
        );
      },
    });
  }

  return app;
}

/** Whole seconds, at least 1 (Retry-After has no fractions). */
const retryAfterSeconds = (ms: number): string => String(Math.max(1, Math.ceil(ms / 1000)));

/** The JSON body, when the content type is application/json (parameters such as charset allowed) and it parses. */
async function readJsonBody(c: Context): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(await c.req.text()) as unknown };
  } catch {
    return { ok: false };
  }
}

/** An own field of a JSON object; undefined for anything else (arrays, strings, null). */
const field = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, name)
    ? (value as Record<string, unknown>)[name]
    : undefined;

export interface PublicApiServer {
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** How long stopping waits for requests in flight before it closes their connections. */
const CLOSE_GRACE_MS = 2_000;

/**
 * What the listener answers, as JSON `{ error }` like every route, when a request never reaches the app:
 * Node's HTTP parser refused it (`clientError`), or @hono/node-server could not make a URL of it (a bad
 * Host header, a backslash in the path). Without this they get an empty 400 / 431.
 */
export const LISTENER_ERRORS = {
  badRequest: 'bad request',
  headersTooLarge: 'request headers too large',
  timeout: 'request timeout',
  expectation: 'only Expect: 100-continue is supported',
} as const;

const answerJson = (response: ServerResponse, status: number, error: string) => {
  response.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  response.end(JSON.stringify({ error }));
};

const rawJsonResponse = (status: number, reason: string, error: string): string => {
  const body = JSON.stringify({ error });
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
};

/** Node's own clientError answer (lib/_http_server.js), in JSON: only when nothing of a response went out yet. */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(
      error.code === 'HPE_HEADER_OVERFLOW'
        ? rawJsonResponse(431, 'Request Header Fields Too Large', LISTENER_ERRORS.headersTooLarge)
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? rawJsonResponse(408, 'Request Timeout', LISTENER_ERRORS.timeout)
          : rawJsonResponse(400, 'Bad Request', LISTENER_ERRORS.badRequest),
    );
  }
  socket.destroy(error);
}

/**
 * Serves `app` with @hono/node-server on `host` (default loopback); port 0 picks a free port. A request
 * whose Host is neither this machine's nor one of `publicHosts` is answered 421 before `app` sees it.
 */
export function listenPublicApi(
  app: Hono<Env> | Hono,
  options: { port: number; host?: string; publicHosts?: PublicHosts },
): Promise<PublicApiServer> {
  const host = options.host ?? '127.0.0.1';
  const publicHosts = options.publicHosts ?? [];
  const listener = getRequestListener(app.fetch, {
    hostname: host,
    // A request no URL can be made of (a bad Host, a backslash in the path): the app never sees it. The app
    // answers its own errors (onError), so anything else here is a fault of ours.
    errorHandler: (error) =>
      error instanceof RequestError
        ? Response.json({ error: LISTENER_ERRORS.badRequest }, { status: 400 })
        : Response.json({ error: API_ERRORS.internal }, { status: 500 }),
  });
  // Node answers these itself with an empty body (or, for CONNECT, a closed connection): answer in JSON.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    if (request.httpVersion === '1.1' && request.headers.host === undefined)
      return answerJson(response, 400, `${LISTENER_ERRORS.badRequest}: an HTTP/1.1 request needs a Host header`);
    if (refuseForeignHost(request, response, publicHosts)) return;
    return listener(request, response);
  });
  server.on('clientError', answerClientError);
  server.on('checkExpectation', (_request, response: ServerResponse) => answerJson(response, 417, LISTENER_ERRORS.expectation));
  // Nothing tunnels here. The socket is no longer the HTTP server's: read and drop what the client still
  // sends (a paused socket with a full window never closes and holds close() forever), and end it.
  server.on('connect', (_request, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.resume();
    socket.end(rawJsonResponse(405, 'Method Not Allowed', API_ERRORS.methodNotAllowed));
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      const info = server.address() as AddressInfo;
      const hostForUrl = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${hostForUrl}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeIdleConnections();
            // Requests in flight get a moment to answer; a connection still open after it (a stream a
            // client keeps open) must not keep the process from stopping.
            setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
          }),
      });
    });
  });
}
