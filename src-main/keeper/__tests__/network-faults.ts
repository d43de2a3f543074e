/**
 * Network faults for tests that take the RPC away from a keeper: a TCP proxy in front of a real RPC that
 * the test can take down (open connections cut, new ones refused) and bring back, and a port nothing
 * listens on. Shared by the keeper, API and runtime tests.
 */
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

/** A TCP proxy on 127.0.0.1 to `targetPort` (on 127.0.0.1). */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
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
