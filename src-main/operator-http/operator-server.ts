/**
 * The operator surface of a headless keeper: Prometheus metrics and (later) the console's API. Always on
 * loopback: it has operator powers the public /v1 API does not. Like every listener it answers a foreign
 * Host with 421 before any route (DNS rebinding: a web page must not read the metrics).
 */
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { refuseForeignHost, type PublicHosts } from '../api/host-check';

export function createOperatorApp(metrics: Registry): Hono {
  const app = new Hono();
  app.get('/metrics', async (c) => c.body(await metrics.metrics(), 200, { 'content-type': metrics.contentType }));
  app.notFound((c) => c.json({ error: 'not found' }, 404));
  return app;
}

/** Serves `app` on 127.0.0.1:`port` (0: any free port); `publicHosts` are the names it answers to beyond loopback. */
export function listenOperator(app: Hono, port: number, publicHosts: PublicHosts = []): Promise<{ server: Server; url: string }> {
  const listener = getRequestListener(app.fetch, { hostname: '127.0.0.1' });
  const server = createServer((request, response) => {
    if (refuseForeignHost(request, response, publicHosts)) return;
    return listener(request, response);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    });
  });
}
