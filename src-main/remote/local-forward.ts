/**
 * The local end of a tunnel: a listener on 127.0.0.1 (a free port, kept for the tunnel's life) whose
 * every connection is carried through the SSH connection of the moment (`forwardOut`) to the server's
 * loopback operator port. Without a connection, a socket is closed at once (the caller sees a refused
 * request, never a hang).
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Client } from 'ssh2';

export interface LocalForward {
  /** The local port (after `listen`). */
  readonly port: number;
  /** Where new connections go now; null: refuse them. Open ones stay on the connection they began on. */
  route(to: { client: Client; remotePort: number } | null): void;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 on a free port and forwards as `route` says. */
export async function listenLocalForward(): Promise<LocalForward> {
  let target: { client: Client; remotePort: number } | null = null;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const to = target;
    if (!to) {
      socket.destroy();
      return;
    }
    to.client.forwardOut('127.0.0.1', socket.remotePort ?? 0, '127.0.0.1', to.remotePort, (error, channel) => {
      if (error || socket.destroyed) {
        socket.destroy();
        channel?.close();
        return;
      }
      socket.pipe(channel).pipe(socket);
      channel.on('close', () => socket.destroy());
      channel.on('error', () => socket.destroy());
      socket.on('close', () => channel.close());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    port,
    route(to) {
      target = to;
    },
    close: () =>
      new Promise<void>((resolve) => {
        target = null;
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
