/**
 * JSON-RPC 2.0 over HTTP, as a validator serves it on port 8899: POST / with one request or a batch,
 * HTTP 200 with JSON-RPC results or errors; GET /health answers "ok".
 *
 * Before any method runs (issue 33), since this RPC hands out the dev keys and stalls the oracle:
 * a foreign `Host` is 421 (a DNS-rebound page), a POST that is not `Content-Type: application/json`
 * is 415 (a page's form or `text/plain` fetch is a "simple" request the browser sends cross-origin
 * without asking; `application/json` needs a CORS preflight, which this server never grants), and a
 * body over 1 MiB is 413. Those refusals are JSON `{ error }` with the next step, like every listener's.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { limitBodies } from '../api/body-limit';
import { isAllowedHost, misdirectedHostError } from '../api/host-check';
import { RPC_INTERNAL_ERROR, RPC_INVALID_REQUEST, RPC_METHOD_NOT_FOUND, RPC_PARSE_ERROR, RpcError } from './rpc-errors';
import { stringifyWithU64 } from './rpc-json';
import type { RpcMethod } from './rpc-methods';

interface JsonRpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const errorResponse = (id: unknown, error: RpcError) => ({
  jsonrpc: '2.0',
  error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) },
  id: id ?? null,
});

/** Answers one JSON-RPC request object. */
export function handleRpcRequest(methods: Record<string, RpcMethod>, request: JsonRpcRequest): unknown {
  if (!request || typeof request !== 'object' || request.jsonrpc !== '2.0' || typeof request.method !== 'string') {
    return errorResponse(request?.id, new RpcError(RPC_INVALID_REQUEST, 'Invalid request'));
  }
  const method = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
  if (!method) return errorResponse(request.id, new RpcError(RPC_METHOD_NOT_FOUND, 'Method not found'));
  try {
    const params = request.params === undefined ? [] : request.params;
    if (!Array.isArray(params)) throw new RpcError(-32602, 'Invalid params: expected an array');
    return { jsonrpc: '2.0', result: method(params), id: request.id ?? null };
  } catch (error) {
    if (error instanceof RpcError) return errorResponse(request.id, error);
    return errorResponse(request.id, new RpcError(RPC_INTERNAL_ERROR, `Internal error: ${(error as Error).message}`));
  }
}

/** Largest request body the RPC reads: a validator's requests are a few KiB (a transaction is 1,232 bytes). */
export const RPC_MAX_BODY_BYTES = 1024 * 1024;

/** The refusals made before JSON-RPC, in words that say what to do. */
export const RPC_HTTP_ERRORS = {
  unsupportedMediaType: (contentType: string | undefined) =>
    `this RPC takes JSON-RPC only with Content-Type: application/json (got ${contentType === undefined ? 'none' : JSON.stringify(contentType)}): send that header, as every Solana client does`,
  bodyTooLarge: `request body over ${RPC_MAX_BODY_BYTES} bytes: send smaller requests (split a batch)`,
} as const;

const refuse = (c: Context, status: 413 | 415 | 421, error: string) => c.json({ error }, status, { 'cache-control': 'no-store' });

/** `application/json`, with or without parameters (`; charset=utf-8`, as kit sends it). */
const isJsonContentType = (value: string | undefined): boolean =>
  value !== undefined && value.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';

export function createRpcApp(methods: Record<string, RpcMethod>): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    const host = c.req.header('host');
    if (!isAllowedHost(host)) return refuse(c, 421, misdirectedHostError(host ?? ''));
    const contentType = c.req.header('content-type');
    if (c.req.method === 'POST' && !isJsonContentType(contentType)) return refuse(c, 415, RPC_HTTP_ERRORS.unsupportedMediaType(contentType));
    await next();
  });
  app.use('*', limitBodies(RPC_MAX_BODY_BYTES, (c) => refuse(c, 413, RPC_HTTP_ERRORS.bodyTooLarge)));
  app.get('/health', (c) => c.text('ok'));
  app.post('/', async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return c.body(stringifyWithU64(errorResponse(null, new RpcError(RPC_PARSE_ERROR, 'Parse error'))), 200, { 'content-type': 'application/json' });
    }
    const result = Array.isArray(body)
      ? body.length === 0
        ? errorResponse(null, new RpcError(RPC_INVALID_REQUEST, 'Invalid request'))
        : body.map((request) => handleRpcRequest(methods, request as JsonRpcRequest))
      : handleRpcRequest(methods, body as JsonRpcRequest);
    return c.body(stringifyWithU64(result), 200, { 'content-type': 'application/json' });
  });
  return app;
}

/** Starts the HTTP server on 127.0.0.1 (or `host`); resolves once it listens, with the bound port. */
export function listenRpc(app: Hono, port: number, host = '127.0.0.1'): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => resolve({ server, port: info.port }));
    // Idle keep-alive connections stay open for a minute (Node's default is 5 s), as a validator's RPC
    // keeps them: a client whose event loop was blocked longer than that (a test awaiting a spawnSync'd
    // command) would otherwise reuse a socket the server had just closed and fail with "other side closed".
    if ('keepAliveTimeout' in server) server.keepAliveTimeout = 60_000;
    server.once('error', reject);
  });
}
