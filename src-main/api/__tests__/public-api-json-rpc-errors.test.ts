/**
 * The public /v1 API of a keeper whose RPC answers with an error: an RPC that is failing (node unhealthy,
 * behind, its own internal error, an HTTP error status) means the chain cannot be read, 503 with
 * Retry-After; an RPC refusing the keeper's request as malformed (parse error, invalid request, unknown
 * method, invalid params) means the keeper has a bug, 500 `internal error` reported to onInternalError.
 * The RPC is a small HTTP server that answers every call with the error the test sets.
 */
import { generateKeyPairSigner, type Address } from '@solana/kit';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAGER_PROGRAM_ADDRESS } from '../../protocol/generated/wager';
import { connectToChain } from '../../chain/rpc-connection';
import { createKeeper, type Keeper } from '../../keeper/keeper';
import { openDatabase, type Database } from '../../store/database';
import { createPublicApi, listenPublicApi, type PublicApiServer } from '../public-api';

type RpcAnswer = { jsonRpcError: number } | { httpStatus: number };

/** A JSON-RPC endpoint that answers every call with `answer` (a JSON-RPC error object or an HTTP status). */
async function startFailingRpc() {
  let answer: RpcAnswer = { jsonRpcError: -32005 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown };
      if ('httpStatus' in answer) {
        response.writeHead(answer.httpStatus, { 'content-type': 'text/plain' }).end('upstream unavailable');
        return;
      }
      const error = { code: answer.jsonRpcError, message: `error ${answer.jsonRpcError}` };
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id, error }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    answer: (next: RpcAnswer) => (answer = next),
    close: () =>
      new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

let rpc: Awaited<ReturnType<typeof startFailingRpc>>;
let dir: string;
let db: Database;
let keeper: Keeper;
let api: PublicApiServer;
const internalErrors: unknown[] = [];

beforeAll(async () => {
  rpc = await startFailingRpc();
  dir = await mkdtemp(join(tmpdir(), 'api-json-rpc-errors-'));
  db = openDatabase(join(dir, 'keeper.db'));
  // Not started: the routes read the chain themselves, and the loop would only add noise.
  keeper = createKeeper({
    connection: connectToChain(rpc.url, 'ws://127.0.0.1:1'),
    signer: await generateKeyPairSigner(),
    db,
    programAddress: WAGER_PROGRAM_ADDRESS, // the localnet's; this RPC answers no deployment
  });
  api = await listenPublicApi(
    createPublicApi({ keeper, allowedOrigins: [], onInternalError: (error) => internalErrors.push(error) }),
    { port: 0 },
  );
});

afterAll(async () => {
  await api?.close();
  await keeper?.stop();
  db?.close();
  await rpc?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const freshAddress = async (): Promise<Address> => (await generateKeyPairSigner()).address;
const postWager = async () =>
  fetch(`${api.url}/v1/wagers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wager: await freshAddress() }),
  });
const getWager = async () => fetch(`${api.url}/v1/wagers/${await freshAddress()}`);

describe('the public API when its RPC answers with an error', () => {
  it.each([
    ['-32005 node unhealthy', { jsonRpcError: -32005 }],
    ['-32016 minimum context slot not reached', { jsonRpcError: -32016 }],
    ['-32014 block status not available yet', { jsonRpcError: -32014 }],
    ["-32603 the server's internal error", { jsonRpcError: -32603 }],
    ['HTTP 502 from the RPC', { httpStatus: 502 }],
  ] as const)(
    '%s: 503 "cannot read the chain" with Retry-After, not reported as an internal error',
    async (_name, answer) => {
      rpc.answer(answer);
      internalErrors.length = 0;
      for (const response of [await postWager(), await getWager()]) {
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('5');
        expect(await response.json()).toEqual({ error: 'cannot read the chain' });
      }
      expect(internalErrors).toEqual([]);
    },
  );

  it.each([
    ['-32700 parse error', -32700],
    ['-32600 invalid request', -32600],
    ['-32601 method not found', -32601],
    ['-32602 invalid params', -32602],
  ] as const)(
    '%s (the keeper sent a bad request): 500 "internal error", reported to onInternalError',
    async (_name, code) => {
      rpc.answer({ jsonRpcError: code });
      internalErrors.length = 0;
      for (const response of [await postWager(), await getWager()]) {
        expect(response.status).toBe(500);
        expect(response.headers.get('retry-after')).toBeNull();
        expect(await response.json()).toEqual({ error: 'internal error' });
      }
      expect(internalErrors).toHaveLength(2);
      expect(
        internalErrors.map((error) => (error as { context?: { __code?: number } }).context?.__code),
      ).toEqual([code, code]);
    },
  );
});
