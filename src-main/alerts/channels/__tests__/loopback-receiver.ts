/**
 * Test helper: a real HTTP server on loopback playing a webhook service. It records every request
 * (method, path, query, headers, JSON body, arrival time) and answers with the reply given for its path
 * (200 "ok" by default); a reply may be a list, used one per request, the last one repeating.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
  at: number;
}

export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (the sender's timeout must end the attempt). */
  hang?: boolean;
}

export interface LoopbackReceiver {
  url(pathAndQuery: string): string;
  requests(path?: string): ReceivedRequest[];
  reply(path: string, ...replies: Reply[]): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<LoopbackReceiver> {
  const received: ReceivedRequest[] = [];
  const replies = new Map<string, Reply[]>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://receiver');
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({
        method: request.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: request.headers,
        body: text ? JSON.parse(text) : null,
        at: Date.now(),
      });
      const queue = replies.get(url.pathname) ?? [];
      const reply = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: 200, body: 'ok' };
      if (reply.hang) return;
      response.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (pathAndQuery) => `http://127.0.0.1:${port}${pathAndQuery}`,
    requests: (path) => received.filter((request) => path === undefined || request.path === path),
    reply: (path, ...list) => replies.set(path, list),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
