/**
 * The chaos runs' bad network between a keeper and the localnet:
 *
 * - an HTTP JSON-RPC proxy that faults a share of calls, drawn from a seeded PRNG: HTTP 500, 429 with
 *   `Retry-After: 1`, a 3 s stall, a timeout (no answer until the client gives up), a latency spike
 *   (0.2-1.2 s, then the real answer), a cut connection, a stale answer (an earlier answer to the same
 *   method). It also watches every 429: when the same call (the same JSON body, as a retrying client
 *   sends it again) comes back, it records how long after the 429 it came, so a test can tell whether
 *   Retry-After was honoured. It is src-main/keeper/__tests__/rpc-fault-proxy.ts (the keeper tests' proxy)
 *   with every kind of fault, weighted;
 * - a WebSocket proxy in front of the PubSub endpoint that drops every open connection at seeded moments
 *   (both sides closed, as a load balancer restarting does), so subscriptions must be made again.
 */
import { WebSocket, WebSocketServer } from 'ws';
import { ALL_RPC_FAULT_KINDS, seededRandom, startRpcFaultProxy, type RpcFaultKind, type RpcFaultProxy } from '../../keeper/__tests__/rpc-fault-proxy';

export const CHAOS_FAULT_KINDS = ALL_RPC_FAULT_KINDS;
export type ChaosFaultKind = RpcFaultKind;
export type ChaosRpcProxy = RpcFaultProxy;

export interface ChaosRpcProxyOptions {
  /** The real RPC (http://...). */
  target: string;
  /** Share of calls that get a fault (0..1). */
  rate: number;
  seed: number;
  /** Relative weight of each kind among the faults (1 each unless given). */
  weights?: Partial<Record<ChaosFaultKind, number>>;
}

export function startChaosRpcProxy({ target, rate, seed, weights = {} }: ChaosRpcProxyOptions): Promise<ChaosRpcProxy> {
  return startRpcFaultProxy({ target, rate, seed, weights, kinds: CHAOS_FAULT_KINDS });
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
