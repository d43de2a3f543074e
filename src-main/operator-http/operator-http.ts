/**
 * The headless transport of the operator interface, on the same listener as /v1: the built console UI at
 * /console/, calls at `POST /operator/api/<method>`, live events at `GET /operator/events` (SSE) and the
 * archives "Save diagnostics…" wrote at `GET /operator/diagnostics/<name>` (a browser's download).
 *
 * It has operator powers the public API does not, so: it answers loopback peers only (also when --host
 * exposes /v1), never a request that came through a proxy (Forwarded, X-Forwarded-For, Via), only with the per-run token (`Authorization: Bearer <token>`, or `?token=` for the event
 * stream and the downloads, which EventSource and a link cannot give headers), sends no CORS headers (a page of another origin cannot
 * read it), and never logs the token. Every error is JSON `{ error }`.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { createReadStream, existsSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { limitBodies } from '../api/body-limit';
import { scrubSecrets, scrubValue } from '../../src-shared/secret-scrub';
import { isChainReadError } from '../api/chain-read-error';
import { createConsoleFiles } from './console-files';
import { firstGlanceOf, withFirstPaint } from './console-first-paint';
import { OPERATOR_HTTP } from '../../src-shared/contract/bridge';
import { OPERATOR_METHODS, type OperatorApi, type OperatorMethod } from '../../src-shared/contract/operator-api';
import type { OperatorEvent } from '../../src-shared/contract/events';

export interface OperatorHttpOptions {
  api: OperatorApi;
  onEvent(listener: (event: OperatorEvent) => void): () => void;
  token: string;
  /** The built renderer (out/renderer). */
  uiDirectory: string;
  logger?: Logger;
  /** Seconds between SSE keep-alive comments (proxies and browsers drop silent streams). */
  keepAliveMs?: number;
  /** The folder saveDiagnostics writes its archives to: GET /operator/diagnostics/<name> serves those files only. */
  diagnosticsDirectory?: string;
}

type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

export const OPERATOR_ERRORS = {
  notLoopback: 'the operator API answers this machine only (loopback); open the console on the machine that runs the keeper',
  proxied: 'the operator API answers this machine only, never through a proxy (this request carries a Forwarded, X-Forwarded-For, Via or X-Real-IP header): open the console on the machine that runs the keeper, or through an SSH tunnel (ssh -L 7300:127.0.0.1:7300 HOST, then the console URL from the ready line)',
  unauthorized: 'missing or wrong operator token: open the console URL printed in the ready line ("console"), which carries the token',
  unknownMethod: 'unknown operator method',
  notJson: 'body must be a JSON object',
  bodyTooLarge: 'body too large',
  uiMissing: 'the console UI is not built: run `npm run build` (or start with `npm start`, which builds it)',
  noSuchDiagnostics: 'no such diagnostics archive: press Save diagnostics… on the Logs screen again and download the archive it names',
} as const;

/** What a diagnostics archive's name may look like: one plain file name, never a path. */
const ARCHIVE_NAME = /^[\w][\w.-]*\.tar\.gz$/;

/**
 * The archive called exactly `name` in `folder`, or null: the name must be a plain archive name and one of
 * the folder's own regular files (not a link), so no encoded `..`, slash or absolute path reaches elsewhere.
 */
async function diagnosticsArchive(folder: string | undefined, name: string): Promise<{ path: string; bytes: number } | null> {
  if (!folder || !ARCHIVE_NAME.test(name)) return null;
  const names = await readdir(folder).catch(() => [] as string[]);
  if (!names.includes(name)) return null;
  const path = join(folder, name);
  const info = await lstat(path).catch(() => null);
  return info?.isFile() ? { path, bytes: info.size } : null;
}

/** Content-Security-Policy of the console page: nothing but its own files and this origin's API. */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The largest operator call body accepted: calls carry a few small fields. */
export const OPERATOR_MAX_BODY_BYTES = 64 * 1024;

/** Headers a proxy adds (X-Real-IP: nginx configs often set only that one): their presence means a proxy sent the request. */
export const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'via', 'x-real-ip'] as const;

/** 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.replace(/^::ffff:/i, '');
  return v4.startsWith('127.') || address === '::1';
}

/**
 * The methods that answer with the operator's own saved settings, which the console's forms edit: their RPC
 * and fleet URLs are given back as saved (a masked URL saved back would break the setting). Every other
 * answer, event and error is scrubbed (secret-scrub.ts): views name an endpoint by its masked label.
 */
const UNSCRUBBED_METHODS: ReadonlySet<string> = new Set<OperatorMethod>(['settings', 'saveSettings']);

const sameToken = (given: string | undefined, expected: Buffer) => {
  if (!given) return false;
  const bytes = Buffer.from(given);
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
};

export function createOperatorHttp(options: OperatorHttpOptions): {
  app: Hono;
  withConsole(publicFetch: FetchHandler): FetchHandler;
  /** Ends every open event stream: a console left open must not hold the listener open at shutdown. */
  endStreams(): void;
} {
  const openStreams = new Set<() => void>();
  const expected = Buffer.from(options.token);
  const methods = new Set<string>(OPERATOR_METHODS);
  const app = new Hono();
  const fail = (c: Context, status: 400 | 401 | 403 | 404 | 413 | 500 | 503, error: string) =>
    c.json({ error: scrubSecrets(error) }, status, { 'cache-control': 'no-store' });

  app.notFound((c) => fail(c, 404, 'not found'));
  app.onError((error, c) => {
    options.logger?.error({ error: error.message, path: c.req.path }, 'operator api error');
    return fail(c, 500, 'internal error');
  });

  app.use('*', async (c, next) => {
    let remote: string | undefined;
    try {
      remote = getConnInfo(c).remote.address;
    } catch {
      remote = undefined;
    }
    if (!isLoopbackAddress(remote)) return fail(c, 403, OPERATOR_ERRORS.notLoopback);
    // A proxy on this machine connects from loopback for whoever it serves: whatever --trust-proxy says,
    // a request that went through one is not this machine's.
    if (PROXY_HEADERS.some((name) => c.req.header(name) !== undefined)) return fail(c, 403, OPERATOR_ERRORS.proxied);
    await next();
  });
  // Before the token check, so a body over the limit is 413 on every operator path, never read whole first.
  app.use('*', limitBodies(OPERATOR_MAX_BODY_BYTES, (c) => fail(c, 413, OPERATOR_ERRORS.bodyTooLarge)));

  // ---- the UI (static files; index.html carries the public first glance, every call needs the token)
  app.get('/console', (c) => c.redirect(OPERATOR_HTTP.consolePath));
  app.use('/console/*', async (c, next) => {
    if (!existsSync(join(options.uiDirectory, 'index.html'))) return fail(c, 404, OPERATOR_ERRORS.uiMissing);
    await next();
    c.header('content-security-policy', CONSOLE_CSP);
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
  });
  const consoleFiles = createConsoleFiles(options.uiDirectory);
  const htmlText = new TextDecoder();
  app.get('/console/*', async (c) => {
    const file = consoleFiles.read(c.req.path.slice(OPERATOR_HTTP.consolePath.length - 1));
    if (!file) return fail(c, 404, 'not found');
    if (!file.headers['content-type']?.startsWith('text/html')) return c.body(file.body, 200, file.headers);
    // The page's first paint shows the keeper and the cluster at once (public facts only: console-first-paint.ts).
    const glance = firstGlanceOf(await options.api.status());
    return c.body(withFirstPaint(htmlText.decode(file.body), glance), 200, file.headers);
  });

  // ---- the operator API
  app.use('/operator/*', async (c, next) => {
    const bearer = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    const linkable = c.req.path === OPERATOR_HTTP.events || c.req.path.startsWith(OPERATOR_HTTP.diagnostics);
    const given = bearer ?? (linkable ? c.req.query('token') : undefined);
    if (!sameToken(given, expected)) return fail(c, 401, OPERATOR_ERRORS.unauthorized);
    await next();
  });

  app.post(`${OPERATOR_HTTP.apiPrefix}:method`, async (c) => {
    const method = c.req.param('method');
    if (!methods.has(method)) return fail(c, 404, `${OPERATOR_ERRORS.unknownMethod} '${method}'`);
    const text = await c.req.text();
    let args: unknown = {};
    if (text.trim() !== '') {
      try {
        args = JSON.parse(text);
      } catch {
        return fail(c, 400, OPERATOR_ERRORS.notJson);
      }
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return fail(c, 400, OPERATOR_ERRORS.notJson);
    try {
      const call = options.api[method as OperatorMethod] as (args: unknown) => Promise<unknown>;
      const value = await call(args);
      return c.json(UNSCRUBBED_METHODS.has(method) ? (value ?? null) : scrubValue(value ?? null), 200, { 'cache-control': 'no-store' });
    } catch (error) {
      // A refusal or bad input: the message says what happened and what to do, shown to the operator as is.
      if (isChainReadError(error)) return fail(c, 503, (error as Error).message);
      return fail(c, 400, (error as Error).message);
    }
  });

  // A browser's "Save diagnostics…" downloads the archive it just wrote (the desktop app saves where asked instead).
  app.get(`${OPERATOR_HTTP.diagnostics}:name`, async (c) => {
    const name = c.req.param('name');
    const archive = await diagnosticsArchive(options.diagnosticsDirectory, name);
    if (!archive) return fail(c, 404, OPERATOR_ERRORS.noSuchDiagnostics);
    return c.body(Readable.toWeb(createReadStream(archive.path)) as ReadableStream, 200, {
      'content-type': 'application/gzip',
      'content-length': String(archive.bytes),
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
  });

  app.get(OPERATOR_HTTP.events, (c) =>
    streamSSE(c, async (stream) => {
      let writing = Promise.resolve();
      const send = (event: OperatorEvent) => {
        // In order, one write at a time; a closed stream ends the loop below.
        writing = writing.then(() => stream.writeSSE({ data: JSON.stringify(scrubValue(event)) })).catch(() => undefined);
      };
      const unsubscribe = options.onEvent(send);
      let end = () => {};
      const closed = new Promise<void>((resolve) => {
        end = resolve;
        stream.onAbort(resolve);
      });
      openStreams.add(end);
      send({ type: 'status', status: await options.api.status() });
      const keepAlive = setInterval(() => {
        writing = writing.then(() => stream.write(': keep-alive\n\n')).then(() => undefined).catch(() => undefined);
      }, options.keepAliveMs ?? 15_000);
      try {
        await closed;
      } finally {
        clearInterval(keepAlive);
        unsubscribe();
        openStreams.delete(end);
      }
    }),
  );

  return {
    app,
    endStreams: () => {
      for (const end of openStreams) end();
      openStreams.clear();
    },
    withConsole: (publicFetch) => (request, env) => {
      const path = new URL(request.url).pathname;
      if (path === '/console' || path.startsWith(OPERATOR_HTTP.consolePath) || path.startsWith('/operator/')) return app.fetch(request, env as never);
      return publicFetch(request, env);
    },
  };
}
