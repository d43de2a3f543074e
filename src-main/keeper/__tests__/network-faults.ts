/**
 * Network faults for tests that take the RPC away from a keeper: a TCP proxy in front of a real RPC that
 * the test can take down (open connections cut, new ones refused) and bring back, and a port nothing
 * listens on. Shared by the keeper, API and runtime tests.
 */
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** http://127.0.0.1:<port>: point the keeper's RPC here. */
  url: string;
  /** Cut every open connection and refuse new ones. */
  down(): void;
  /** Accept connections again. */
  up(): void;
  /** Cut every open connection and send new ones to `port` (a chain restarted elsewhere behind the same URL). */
  retarget(port: number): void;
  close(): Promise<void>;
}

/** A TCP proxy on 127.0.0.1 to `targetPort` (on 127.0.0.1), on `options.port` (default: any free port; rejects when taken). */
export async function startTcpProxy(targetPort: number, options: { port?: number } = {}): Promise<TcpProxy & { port: number }> {
  let isDown = false;
  let target = targetPort;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (isDown) return void client.destroy();
    const upstream = connect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  const cut = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const down = () => {
    isDown = true;
    cut();
  };
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    down,
    up: () => void (isDown = false),
    retarget: (port) => {
      target = port;
      cut();
    },
    close: () => new Promise<void>((resolve) => (down(), server.close(() => resolve()))),
  };
}

/** A port nothing listens on: bind one, then let it go. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface TransactionHidingRpc {
  /** http://127.0.0.1:<port>: point the keeper's RPC here. */
  url: string;
  /** getTransaction answers null while `rule(signature, nth read of it)` is true, like a lagging RPC. */
  hideWhile(rule: (signature: string, read: number) => boolean): void;
  /** How many times getTransaction asked for `signature` (hidden or not). */
  readsOf(signature: string): number;
  /** How many of those were answered null. */
  hiddenReadsOf(signature: string): number;
  close(): Promise<void>;
}

/**
 * A JSON-RPC proxy in front of a real RPC that counts getTransaction reads per signature and can answer
 * them with null (a load-balanced RPC behind the node, or one without transaction history).
 */
export async function startTransactionHidingRpc(target: string): Promise<TransactionHidingRpc> {
  const reads = new Map<string, number>();
  const hiddenReads = new Map<string, number>();
  let hide: (signature: string, read: number) => boolean = () => false;
  const server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString();
        const call = JSON.parse(body) as { id: unknown; method: string; params?: unknown[] };
        if (call.method === 'getTransaction') {
          const signature = String(call.params?.[0]);
          const read = (reads.get(signature) ?? 0) + 1;
          reads.set(signature, read);
          if (hide(signature, read)) {
            hiddenReads.set(signature, (hiddenReads.get(signature) ?? 0) + 1);
            response
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: null }));
            return;
          }
        }
        const upstream = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        response
          .writeHead(upstream.status, { 'content-type': 'application/json' })
          .end(await upstream.text());
      })().catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    hideWhile: (rule) => void (hide = rule),
    readsOf: (signature) => reads.get(signature) ?? 0,
    hiddenReadsOf: (signature) => hiddenReads.get(signature) ?? 0,
    close: () =>
      new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
