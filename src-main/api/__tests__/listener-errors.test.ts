/**
 * What the /v1 listener answers to requests no route sees, and bodies over the limit on any route, over
 * real TCP with raw bytes (fetch would refuse to send most of these). The keeper behind the API is a
 * fixed KeeperService: these answers never reach it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { KeeperService } from '../../keeper/keeper-service';
import { createPublicApi, listenPublicApi, type PublicApiServer } from '../public-api';
import { rawRequest } from './raw-http';

const keeper: KeeperService = {
  submitWager: async () => ({ kind: 'accountNotFound' }),
  lookupWager: async () => ({ state: 'unknown', updatedAt: new Date(0).toISOString() }),
  health: async () => ({ keeper: 'keeper', lamports: '0', lastTick: 0, queue: 0 }),
};

let server: PublicApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async () => {
  server = await listenPublicApi(createPublicApi({ keeper, allowedOrigins: [] }), { port: 0 });
  return server.port;
};
const send = async (port: number, text: string | Buffer) => {
  const response = await rawRequest(port, { bytes: Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1') });
  return { status: response.status, type: response.headers['content-type'], body: JSON.parse(response.body.toString()) as unknown };
};

describe('the /v1 listener', () => {
  it.each([
    ['a method HTTP does not know', 'FOO /v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'bad request'],
    ['a header name with a space', 'GET /v1/health HTTP/1.1\r\nHost: localhost\r\nBad Header: 1\r\n\r\n', 400, 'bad request'],
    ['two different Content-Lengths', 'POST /v1/wagers HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}', 400, 'bad request'],
    ['a backslash in the path', 'GET /v1\\health HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'bad request'],
    ['no Host in HTTP/1.1', 'GET /v1/health HTTP/1.1\r\n\r\n', 400, 'bad request: an HTTP/1.1 request needs a Host header'],
    ['headers over 16 KiB', `GET /v1/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(17 * 1024)}\r\n\r\n`, 431, 'request headers too large'],
    ['an Expect other than 100-continue', 'GET /v1/health HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok\r\n\r\n', 417, 'only Expect: 100-continue is supported'],
  ])('answers %s with JSON %i', async (_, request, status, error) => {
    const port = await start();
    expect(await send(port, request)).toEqual({ status, type: 'application/json', body: { error } });
  });

  it('answers CONNECT with a body 405 JSON and still closes at once (the body is drained, not left to fill the window)', async () => {
    const port = await start();
    const request = Buffer.concat([Buffer.from('CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n'), Buffer.alloc(256 * 1024, 'a')]);
    expect(await send(port, request)).toEqual({ status: 405, type: 'application/json', body: { error: 'method not allowed' } });
    await server!.close();
    server = undefined;
  });

  it.each([
    ['GET of a route', 'GET', '/v1/health', false],
    ['GET of an unknown route', 'GET', '/nowhere', false],
    ['POST, chunked', 'POST', '/v1/wagers', true],
    ['DELETE of a route', 'DELETE', '/v1/faucet', false],
  ])('answers a body over 16 KiB with 413 on every route and method: %s', async (_, method, path, chunked) => {
    const port = await start();
    const body = Buffer.alloc(16 * 1024 + 1, 'a');
    const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`;
    const payload = chunked ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]) : body;
    const request = Buffer.concat([Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`), payload]);
    expect(await send(port, request)).toEqual({ status: 413, type: 'application/json', body: { error: 'body too large' } });
  });
});
