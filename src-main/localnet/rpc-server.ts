/**
 * JSON-RPC 2.0 over HTTP, as a validator serves it on port 8899: POST / with one request or a batch,
 * always HTTP 200 with JSON-RPC results or errors; GET /health answers "ok".
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
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

export function createRpcApp(methods: Record<string, RpcMethod>): Hono {
  const app = new Hono();
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
