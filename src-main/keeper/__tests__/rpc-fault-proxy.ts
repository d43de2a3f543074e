/**
 * A JSON-RPC proxy that misbehaves like a bad public RPC: a share of calls fail with HTTP 500, 429 with
 * `Retry-After: 1`, a 3 s stall, a cut connection, or a stale answer (one of the last good answers to
 * earlier calls of the same method, whatever their parameters). The faults are drawn from a seeded PRNG, so
 * a run can be repeated. Used by the keeper's fault tests (and the chaos runs).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export const RPC_FAULT_KINDS = ['http500', 'http429', 'stall', 'cut', 'stale'] as const;
export type RpcFaultKind = (typeof RPC_FAULT_KINDS)[number];
/** How many earlier answers per method a stale answer is drawn from. */
const STALE_DEPTH = 8;

export interface RpcFaultProxyOptions {
  /** The real RPC (http://...). */
  target: string;
  /** Share of calls that get a fault (0..1). */
  rate: number;
  seed?: number;
  /** How long a stall holds the call before passing it on (ms). */
  stallMs?: number;
  kinds?: readonly RpcFaultKind[];
  /** Methods never faulted (e.g. a test's own reads through the proxy). */
  spare?: (method: string) => boolean;
}

export interface RpcFaultProxy {
  url: string;
  /** Calls seen and faults injected, by kind. */
  stats(): { calls: number; faults: Record<RpcFaultKind, number> };
  setRate(rate: number): void;
  /** The next `count` calls of `method` (any method when omitted) get `kind`, whatever the rate. */
  injectNext(kind: RpcFaultKind, count?: number, method?: string): void;
  close(): Promise<void>;
}

/** mulberry32: a small seeded PRNG (tests want the same faults for the same seed). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString()));
    request.on('error', reject);
  });

export async function startRpcFaultProxy(options: RpcFaultProxyOptions): Promise<RpcFaultProxy> {
  const random = seededRandom(options.seed ?? 1);
  const kinds = options.kinds ?? RPC_FAULT_KINDS;
  const stallMs = options.stallMs ?? 3_000;
  let rate = options.rate;
  let calls = 0;
  const faults = Object.fromEntries(RPC_FAULT_KINDS.map((kind) => [kind, 0])) as Record<RpcFaultKind, number>;
  /** The last good answers per method (up to STALE_DEPTH): what a lagging node or a caching proxy serves. */
  const earlierAnswers = new Map<string, string[]>();
  const injected: { kind: RpcFaultKind; method?: string }[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const forward = async (body: string) => {
    const upstream = await fetch(options.target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: upstream.status, text: await upstream.text() };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    let call: { id?: unknown; method?: string } = {};
    try {
      call = JSON.parse(body) as typeof call;
    } catch {
      // not JSON: passed on as is
    }
    const method = typeof call.method === 'string' ? call.method : '';
    calls += 1;
    const forced = injected.findIndex((entry) => entry.method === undefined || entry.method === method);
    const faulted = forced < 0 && method !== '' && !options.spare?.(method) && random() < rate;
    const kind = forced >= 0 ? injected.splice(forced, 1)[0]!.kind : faulted ? kinds[Math.floor(random() * kinds.length)]! : undefined;
    if (kind) faults[kind] += 1;
    switch (kind) {
      case 'http500':
        return void response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      case 'http429':
        return void response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end(JSON.stringify({ jsonrpc: '2.0', id: call.id ?? null, error: { code: 429, message: 'Too many requests for a specific RPC call' } }));
      case 'cut':
        return void request.socket.destroy();
      case 'stall':
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => (timers.delete(timer), resolve()), stallMs);
          timers.add(timer);
        });
        break;
      case 'stale': {
        const kept = earlierAnswers.get(method) ?? [];
        // Injected: the oldest kept answer (tests want a surely older one); drawn: any of them.
        const earlier = forced >= 0 ? kept[0] : kept[Math.floor(random() * kept.length)];
        if (earlier) {
          // The earlier answer, with this call's id (a load balancer's stale node answers the call it got).
          const answer = JSON.parse(earlier) as { id?: unknown };
          answer.id = call.id;
          return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        }
        break;
      }
    }
    if (request.socket.destroyed) return;
    const { status, text } = await forward(body);
    if (status === 200 && method) earlierAnswers.set(method, [...(earlierAnswers.get(method) ?? []), text].slice(-STALE_DEPTH));
    response.writeHead(status, { 'content-type': 'application/json' }).end(text);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502).end();
      else response.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    stats: () => ({ calls, faults: { ...faults } }),
    setRate: (next) => void (rate = next),
    injectNext: (kind, count = 1, method) => {
      for (let i = 0; i < count; i++) injected.push({ kind, ...(method ? { method } : {}) });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
