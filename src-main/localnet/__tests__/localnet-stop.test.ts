/**
 * Stopping the localnet while a client is in the middle of a request. The RPC keeps connections for a
 * minute (rpc-server.ts), and closing the listener only drops connections idle at that moment: one whose
 * request was still arriving held the stop until it timed out, about a minute. The desktop app's Quit and
 * every cluster switch stop the embedded localnet, and waited that long with the keeper's own connections.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startLocalnet } from '../localnet';

describe('stopping the localnet', () => {
  it('drops a connection whose request is still arriving, and resolves', async () => {
    const localnet = await startLocalnet({ bare: true, rpcPort: 0 });
    const { hostname, port } = new URL(localnet.rpcUrl);
    const socket: Socket = connect({ host: hostname, port: Number(port) });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const closedByServer = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // A request line and a header, not the blank line that ends the headers: the server is mid-request.
    socket.write('POST / HTTP/1.1\r\nHost: localnet\r\nContent-Type: application/json\r\n');
    try {
      await localnet.stop();
      await closedByServer;
      expect(socket.destroyed).toBe(true);
    } finally {
      socket.destroy();
    }
  }, 20_000);
});
