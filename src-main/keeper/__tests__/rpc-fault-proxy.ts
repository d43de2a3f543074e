/**
 * A JSON-RPC proxy that misbehaves like a bad public RPC: a share of calls fail with HTTP 500, 429 with
 * `Retry-After: 1`, a 3 s stall, a cut connection, or a stale answer (one of the last good answers to
 * earlier calls of the same method, whatever their parameters). On request (`kinds`) also a timeout (no
 * answer until the client gives up; the connection is cut after 20 s) and a latency spike (0.2-1.2 s, then
 * the real answer). The faults are drawn from a seeded PRNG, so a run can be repeated. It also watches every
 * 429: when the same call (the same JSON body, as a retrying client sends it again) comes back, it records
 * how long after the 429 it came, so a test can tell whether Retry-After was honoured. Used by the keeper's
 * fault tests and the chaos runs (src-main/__tests__/chaos/chaos-proxies.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Every kind the proxy can inject. */
export const ALL_RPC_FAULT_KINDS = ['http500', 'http429', 'stall', 'timeout', 'spike', 'cut', 'stale'] as const;
export type RpcFaultKind = (typeof ALL_RPC_FAULT_KINDS)[number];
/** The kinds drawn unless `kinds` says otherwise (no timeouts or spikes). */
export const RPC_FAULT_KINDS = ['http500', 'http429', 'stall', 'cut', 'stale'] as const satisfies readonly RpcFaultKind[];
/** How many earlier answers per method a stale answer is drawn from. */
const STALE_DEPTH = 8;
const RETRY_AFTER_SECONDS = 1;
/** How long a timeout holds the call before cutting it, if the client has not given up by then (ms). */
const TIMEOUT_CUT_MS = 20_000;

export interface RpcFaultProxyOptions {
  /** The real RPC (http://...). */
  target: string;
  /** Share of calls that get a fault (0..1). */
  rate: number;
  seed?: number;
  /** How long a stall holds the call before passing it on (ms). */
  stallMs?: number;
  /** The kinds drawn, in this order (RPC_FAULT_KINDS unless given). */
  kinds?: readonly RpcFaultKind[];
  /** Relative weight of each kind among the faults (1 each unless given). */
  weights?: Partial<Record<RpcFaultKind, number>>;
  /** Methods never faulted (e.g. a test's own reads through the proxy). */
  spare?: (method: string) => boolean;
}

export interface RpcFaultProxy {
  url: string;
  /**
   * Calls seen and faults injected, by kind (RPC_FAULT_KINDS and `kinds`); for each 429'd call seen again,
   * ms from the 429 to the same call coming back.
   */
  stats(): { calls: number; faults: Record<RpcFaultKind, number>; retryAfterGapsMs: number[] };
  setRate(rate: number): void;
  /**
   * The next `count` calls of `method` get `kind`, whatever the rate; without `method`, the next `count`
   * JSON-RPC calls with any method (so a rare kind surely happens).
   */
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
  const weighted = kinds.map((kind) => ({ kind, weight: options.weights?.[kind] ?? 1 }));
  const totalWeight = weighted.reduce((sum, { weight }) => sum + weight, 0);
  /** One kind, by weight (with equal weights: kinds[floor(random() * kinds.length)]). */
  const drawKind = (): RpcFaultKind => {
    let point = random() * totalWeight;
    for (const { kind, weight } of weighted) if ((point -= weight) < 0) return kind;
    return weighted.at(-1)!.kind;
  };
  const stallMs = options.stallMs ?? 3_000;
  let rate = options.rate;
  let calls = 0;
  const counted = ALL_RPC_FAULT_KINDS.filter((kind) => (RPC_FAULT_KINDS as readonly RpcFaultKind[]).includes(kind) || kinds.includes(kind));
  const faults = Object.fromEntries(counted.map((kind) => [kind, 0])) as Record<RpcFaultKind, number>;
  /** The last good answers per method (up to STALE_DEPTH): what a lagging node or a caching proxy serves. */
  const earlierAnswers = new Map<string, string[]>();
  /** Bodies answered 429, with when: a retry sends the very same body (same id). */
  const rateLimited = new Map<string, number>();
  const retryAfterGapsMs: number[] = [];
  const injected: { kind: RpcFaultKind; method?: string }[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => (timers.delete(timer), resolve()), ms);
      timers.add(timer);
    });

  const forward = async (body: string) => {
    const upstream = await fetch(options.target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: upstream.status, text: await upstream.text() };
  };

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
    const forced = method === '' ? -1 : injected.findIndex((entry) => entry.method === undefined || entry.method === method);
    const faulted = forced < 0 && method !== '' && !options.spare?.(method) && random() < rate;
    const kind = forced >= 0 ? injected.splice(forced, 1)[0]!.kind : faulted ? drawKind() : undefined;
    if (kind) faults[kind] = (faults[kind] ?? 0) + 1;
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
        // No answer: the client's own timeout ends it (cut after TIMEOUT_CUT_MS if it never gives up).
        await delay(TIMEOUT_CUT_MS);
        return void request.socket.destroy();
      case 'stall':
        await delay(stallMs);
        break;
      case 'spike':
        await delay(200 + Math.floor(random() * 1_000));
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
    if (!request.socket.destroyed) response.writeHead(status, { 'content-type': 'application/json' }).end(text);
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
