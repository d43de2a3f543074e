/**
 * The desktop host's loopback control server: lets a test (vitest or Playwright) see and drive the
 * stand-in Electron that the built main runs on, as the real window, session, tray and OS would. JSON in
 * and out (errors: `{ error }` with what to do); IPC values travel as V8 structured-clone bytes in base64
 * (what Electron's IPC carries), never as lossy JSON. Routes:
 *   GET  /windows[?wait=loaded]     windows, their options and loaded files (waits for a first load)
 *   POST /invoke                    { window, frameUrl, isMainFrame, channel, args } → { value } | { error }
 *   GET  /sent[?from=N]             Server-Sent Events: each webContents.send from now (or the Nth) on
 *   POST /permission                { window, permission, requestingUrl, isMainFrame } → { check, request }
 *   GET  /notifications, /tray, /error-boxes
 *   POST /tray/click { label }, /app-event { event }, /window/close { window }, /power-event { event }, /quit
 *   POST /window-open { window, url } → { action }   main's setWindowOpenHandler for a window.open
 *   POST /navigate { window, url } → { allowed }      main's will-navigate for a main-frame navigation
 *   GET  /opened                                       URLs handed to the system browser
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { deserialize, serialize } from 'node:v8';
import type { HostStandIn, SentMessage } from './stand-in-adapter.ts';

const LONG_POLL_MS = 120_000;

export const encodeValue = (value: unknown) => serialize(value).toString('base64');
export const decodeValue = (text: string): unknown => deserialize(Buffer.from(text, 'base64'));

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function reply(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Starts the server on 127.0.0.1 (any free port); resolves with its base URL. */
export async function startControlServer(host: HostStandIn): Promise<string> {
  const waitForLoad = async () => {
    const loaded = () => host.windows().some((window) => window.loaded.length > 0 || window.loadError);
    const deadline = Date.now() + LONG_POLL_MS;
    while (!loaded() && Date.now() < deadline) {
      const timer = setTimeout(() => host.changes.emit('windows'), Math.max(0, deadline - Date.now()));
      await once(host.changes, 'windows');
      clearTimeout(timer);
    }
  };

  const routes: Record<
    string,
    (body: Record<string, unknown>, url: URL, response: ServerResponse) => Promise<unknown>
  > = {
    'GET /windows': async (_body, url) => {
      if (url.searchParams.get('wait') === 'loaded') await waitForLoad();
      return host.windows();
    },
    'POST /invoke': async (body) => {
      const args = typeof body.args === 'string' ? (decodeValue(body.args) as unknown[]) : [];
      try {
        const value = await host.invokeAs(
          Number(body.window ?? 0),
          String(body.frameUrl),
          String(body.channel),
          args,
          body.isMainFrame !== false,
        );
        return { value: encodeValue(value) };
      } catch (error) {
        return { error: (error as Error).message };
      }
    },
    'POST /permission': async (body) =>
      host.askPermission(
        Number(body.window ?? 0),
        String(body.permission),
        String(body.requestingUrl),
        body.isMainFrame !== false,
      ),
    'GET /notifications': async () => host.notifications(),
    'GET /tray': async () => host.tray(),
    'GET /error-boxes': async () => host.errorBoxes,
    'GET /opened': async () => host.opened(),
    'POST /window-open': async (body) => host.windowOpen(Number(body.window ?? 0), String(body.url)),
    'POST /navigate': async (body) => host.navigate(Number(body.window ?? 0), String(body.url)),
    'POST /tray/click': async (body) => (host.clickTrayItem(String(body.label)), { clicked: body.label }),
    'POST /app-event': async (body) => (host.emitApp(String(body.event)), { emitted: body.event }),
    'POST /window/close': async (body) => (
      host.closeWindow(Number(body.window ?? 0)),
      { closed: body.window ?? 0 }
    ),
    'POST /power-event': async (body) => (host.emitPower(String(body.event)), { emitted: body.event }),
    // Answered before quitting: the process ends once the core has stopped.
    'POST /quit': async () => (setImmediate(() => host.quit()), { quitting: true }),
  };

  const streamSent = (url: URL, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    const write = (message: SentMessage, index: number) =>
      response.write(
        `data: ${JSON.stringify({ index, window: message.window, channel: message.channel, args: encodeValue(message.args) })}\n\n`,
      );
    // Without ?from=N: only what is sent from now on (a page that starts listening gets no history).
    const from = url.searchParams.has('from') ? Number(url.searchParams.get('from')) : host.sent.length;
    host.sent.slice(from).forEach((message, offset) => write(message, from + offset));
    const listener = (message: SentMessage) => write(message, host.sent.length - 1);
    host.changes.on('sent', listener);
    response.on('close', () => host.changes.off('sent', listener));
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://control');
    if (request.method === 'GET' && url.pathname === '/sent') return streamSent(url, response);
    const route = routes[`${request.method} ${url.pathname}`];
    if (!route)
      return reply(response, 404, {
        error: `no route ${request.method} ${url.pathname}: see e2e/desktop/control-server.ts for the routes`,
      });
    readJson(request)
      .then((body) => route(body, url, response))
      .then((value) => reply(response, 200, value ?? null))
      .catch((error: unknown) =>
        reply(response, 500, {
          error: `${(error as Error).message} (the desktop host's stand-in could not do this: see its stderr)`,
        }),
      );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  // Open streams must not hold the process after the app quits.
  server.unref();
  const address = server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}
