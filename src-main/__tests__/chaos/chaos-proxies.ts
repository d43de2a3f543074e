/**
 * The chaos runs' bad network between a keeper and the localnet:
 *
 * - an HTTP JSON-RPC proxy that faults a share of calls, drawn from a seeded PRNG: HTTP 500, 429 with
 *   `Retry-After: 1`, a 3 s stall, a timeout (no answer until the client gives up), a latency spike
 *   (0.2-1.2 s, then the real answer), a cut connection, a stale answer (an earlier answer to the same
 *   method). It also watches every 429: when the same call (the same JSON body, as a retrying client
 *   sends it again) comes back, it records how long after the 429 it came, so a test can tell whether
 *   Retry-After was honoured;
 * - a WebSocket proxy in front of the PubSub endpoint that drops every open connection at seeded moments
 *   (both sides closed, as a load balancer restarting does), so subscriptions must be made again.
 *
 * src-main/keeper/__tests__/rpc-fault-proxy.ts is the keeper tests' simpler proxy (no timeouts, spikes,
 * WebSocket drops or 429 tracking); this one is the chaos runs' own.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { seededRandom } from '../../keeper/__tests__/rpc-fault-proxy';

export const CHAOS_FAULT_KINDS = ['http500', 'http429', 'stall', 'timeout', 'spike', 'cut', 'stale'] as const;
export type ChaosFaultKind = (typeof CHAOS_FAULT_KINDS)[number];
const STALE_DEPTH = 8;
const RETRY_AFTER_SECONDS = 1;

export interface ChaosRpcProxy {
  url: string;
  stats(): {
    calls: number;
    faults: Record<ChaosFaultKind, number>;
    /** For each 429'd call seen again: ms from the 429 to the same call coming back. */
    retryAfterGapsMs: number[];
  };
  setRate(rate: number): void;
  /** The next `count` calls get `kind`, whatever the rate (so a rare kind surely happens). */
  injectNext(kind: ChaosFaultKind, count?: number): void;
  close(): Promise<void>;
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString()));
    request.on('error', reject);
  });

export interface ChaosRpcProxyOptions {
  /** The real RPC (http://...). */
  target: string;
  /** Share of calls that get a fault (0..1). */
  rate: number;
  seed: number;
  /** Relative weight of each kind among the faults (1 each unless given). */
  weights?: Partial<Record<ChaosFaultKind, number>>;
}

export async function startChaosRpcProxy({ target, rate: initialRate, seed, weights = {} }: ChaosRpcProxyOptions): Promise<ChaosRpcProxy> {
  const random = seededRandom(seed);
  const weighted = CHAOS_FAULT_KINDS.map((kind) => ({ kind, weight: weights[kind] ?? 1 }));
  const totalWeight = weighted.reduce((sum, { weight }) => sum + weight, 0);
  const drawKind = (): ChaosFaultKind => {
    let point = random() * totalWeight;
    for (const { kind, weight } of weighted) if ((point -= weight) < 0) return kind;
    return weighted.at(-1)!.kind;
  };
  let rate = initialRate;
  let calls = 0;
  const faults = Object.fromEntries(CHAOS_FAULT_KINDS.map((kind) => [kind, 0])) as Record<ChaosFaultKind, number>;
  const earlierAnswers = new Map<string, string[]>();
  /** Bodies answered 429, with when: a retry sends the very same body (same id). */
  const rateLimited = new Map<string, number>();
  const injected: ChaosFaultKind[] = [];
  const retryAfterGapsMs: number[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => (timers.delete(timer), resolve()), ms);
      timers.add(timer);
    });

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const limitedAt = rateLimited.get(body);
    if (limitedAt !== undefined) {
      rateLimited.delete(body);
      retryAfterGapsMs.push(Date.now() - limitedAt);
    }
    let call: { id?: unknown; method?: string } = {};
    try {
      call = JSON.parse(body) as typeof call;
    } catch {
      // not JSON: passed on as is
    }
    const method = typeof call.method === 'string' ? call.method : '';
    calls += 1;
    const forced = method !== '' ? injected.shift() : undefined;
    const kind = forced ?? (method !== '' && random() < rate ? drawKind() : undefined);
    if (kind) faults[kind] += 1;
    switch (kind) {
      case 'http500':
        return void response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      case 'http429':
        rateLimited.set(body, Date.now());
        return void response
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(RETRY_AFTER_SECONDS) })
          .end(JSON.stringify({ jsonrpc: '2.0', id: call.id ?? null, error: { code: 429, message: 'Too many requests for a specific RPC call' } }));
      case 'cut':
        return void request.socket.destroy();
      case 'timeout':
        // No answer: the client's own timeout ends it (cut after 20 s if it never gives up).
        await delay(20_000);
        return void request.socket.destroy();
      case 'stall':
        await delay(3_000);
        break;
      case 'spike':
        await delay(200 + Math.floor(random() * 1_000));
        break;
      case 'stale': {
        const kept = earlierAnswers.get(method) ?? [];
        const earlier = kept[Math.floor(random() * kept.length)];
        if (earlier) {
          const answer = JSON.parse(earlier) as { id?: unknown };
          answer.id = call.id;
          return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        }
        break;
      }
    }
    if (request.socket.destroyed) return;
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await upstream.text();
    if (upstream.status === 200 && method) earlierAnswers.set(method, [...(earlierAnswers.get(method) ?? []), text].slice(-STALE_DEPTH));
    if (!request.socket.destroyed) response.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
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
    stats: () => ({ calls, faults: { ...faults }, retryAfterGapsMs: [...retryAfterGapsMs] }),
    setRate: (next) => void (rate = next),
    injectNext: (kind, count = 1) => void injected.push(...Array.from({ length: count }, () => kind)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface WebSocketDropper {
  url: string;
  /** Connections accepted and connections dropped by the proxy so far. */
  stats(): { connections: number; drops: number };
  close(): Promise<void>;
}

/**
 * A WebSocket proxy to `target` (ws://...) that drops every open connection at seeded moments, every
 * `minMs`..`maxMs`.
 */
export async function startWebSocketDropper({ target, seed, minMs = 4_000, maxMs = 9_000 }: { target: string; seed: number; minMs?: number; maxMs?: number }): Promise<WebSocketDropper> {
  const random = seededRandom(seed);
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const pairs = new Set<{ client: WebSocket; upstream: WebSocket }>();
  let connections = 0;
  let drops = 0;
  server.on('connection', (client) => {
    connections++;
    const upstream = new WebSocket(target);
    const pair = { client, upstream };
    pairs.add(pair);
    const queued: { data: Buffer; binary: boolean }[] = [];
    const end = () => {
      pairs.delete(pair);
      client.terminate();
      upstream.terminate();
    };
    upstream.on('open', () => {
      for (const { data, binary } of queued.splice(0)) upstream.send(data, { binary });
    });
    client.on('message', (data: Buffer, binary: boolean) => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
      else queued.push({ data, binary });
    });
    upstream.on('message', (data: Buffer, binary: boolean) => {
      if (client.readyState === WebSocket.OPEN) client.send(data, { binary });
    });
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      for (const pair of [...pairs]) {
        drops++;
        pair.client.terminate();
        pair.upstream.terminate();
        pairs.delete(pair);
      }
      schedule();
    }, minMs + random() * (maxMs - minMs));
  };
  schedule();
  return {
    url: `ws://127.0.0.1:${(server.address() as { port: number }).port}`,
    stats: () => ({ connections, drops }),
    close: async () => {
      clearTimeout(timer);
      for (const pair of pairs) {
        pair.client.terminate();
        pair.upstream.terminate();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
