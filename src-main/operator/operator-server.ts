/**
 * The operator surface of a headless keeper: Prometheus metrics and (later) the console's API. Always on
 * loopback: it has operator powers the public /v1 API does not.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { Registry } from 'prom-client';

export function createOperatorApp(metrics: Registry): Hono {
  const app = new Hono();
  app.get('/metrics', async (c) => c.body(await metrics.metrics(), 200, { 'content-type': metrics.contentType }));
  app.notFound((c) => c.json({ error: 'not found' }, 404));
  return app;
}

export function listenOperator(app: Hono, port: number): Promise<{ server: ServerType; url: string }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => resolve({ server, url: `http://127.0.0.1:${info.port}` }));
    server.once('error', reject);
  });
}
