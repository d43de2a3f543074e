/**
 * One body-size limit for every request of an app, whatever its route or method: a declared Content-Length
 * over `maxBytes` is refused before any of the body is read (a GET carrying a big body too); a body without
 * one (chunked) is refused once it passes `maxBytes` (Hono's bodyLimit, which buffers at most that much).
 * The listener drains what the client still sends, so it reads the refusal instead of a reset connection.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

export function limitBodies(maxBytes: number, onTooLarge: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const streamed = bodyLimit({ maxSize: maxBytes, onError: onTooLarge });
  return async (c, next) => {
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > maxBytes) return onTooLarge(c);
    return streamed(c, next);
  };
}
