/**
 * A loopback HTTP server playing a push monitor (healthchecks.io, Uptime Kuma): it records each ping as
 * "METHOD /path?query"; paths starting with /fail answer 500, with /hang never answer.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MonitorReceiver {
  /** http://127.0.0.1:PORT */
  base: string;
  pings: string[];
  close(): Promise<void>;
}

export async function startMonitorReceiver(): Promise<MonitorReceiver> {
  const pings: string[] = [];
  const receiver = createServer((request, response) => {
    if (request.url?.startsWith('/hang')) return;
    pings.push(`${request.method} ${request.url}`);
    response.statusCode = request.url?.startsWith('/fail') ? 500 : 200;
    response.end('OK');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    pings,
    async close() {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    },
  };
}
