/**
 * DNS rebinding defence for every listener (`/v1`, console and operator, metrics, gateway, the embedded
 * localnet's RPC and WebSocket): a request is served only when its `Host` names this listener. A web page
 * whose own name re-resolves to 127.0.0.1 reaches the port, but its browser sends the page's name as
 * `Host`; that name is refused with 421 Misdirected Request before any route runs.
 *
 * Allowed: loopback names (`localhost`, `*.localhost`), any IP literal (a rebinding page cannot make its
 * browser send one: the browser sends the name it resolved, and a page served from an IP literal is that
 * address's own origin; go-ethereum's `--http.vhosts` check lets IP literals through for the same reason),
 * and the names the operator gives with `--public-host NAME` (repeatable; `*.example.com` allows its
 * subdomains). A port in the header is ignored: the socket already chose the port.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The 421 body's `error`, with the next step for an operator who reaches a listener through a name. */
export function misdirectedHostError(host: string): string {
  const name = hostNameOf(host) ?? host.slice(0, 100);
  const reach = `this server does not answer to the name ${JSON.stringify(name)}: reach it by 127.0.0.1 or localhost`;
  return isValidPublicHost(name) ? `${reach}, or start it with --public-host ${name} if that name is yours` : reach;
}

/** The names a listener answers to beyond loopback names and IP literals (`--public-host`). */
export type PublicHosts = readonly string[];

/** `Host` header value → lower-case host name without port or IPv6 brackets; null when it is not a host. */
export function hostNameOf(hostHeader: string): string | null {
  const value = hostHeader.trim().toLowerCase();
  if (value === '') return null;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return null;
    const rest = value.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
    return value.slice(1, end);
  }
  const colon = value.lastIndexOf(':');
  if (colon >= 0) {
    if (!/^\d{1,5}$/.test(value.slice(colon + 1))) return null;
    return value.slice(0, colon).replace(/\.$/, '');
  }
  return value.replace(/\.$/, '');
}

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const isIpLiteral = (name: string): boolean => IPV4.test(name) || (name.includes(':') && /^[0-9a-f:.]+(?:%[\w.-]+)?$/.test(name));
const isLoopbackName = (name: string): boolean => name === 'localhost' || name.endsWith('.localhost');

/** Whether a `--public-host` value is a host name this check can compare (no scheme, path or port). */
export function isValidPublicHost(name: string): boolean {
  return /^(?:\*\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(name);
}

/**
 * Whether a request carrying this `Host` may be served. A missing Host (HTTP/1.0) is allowed: only a
 * browser could be rebound, and every browser sends Host.
 */
export function isAllowedHost(hostHeader: string | undefined, publicHosts: PublicHosts = []): boolean {
  if (hostHeader === undefined) return true;
  const name = hostNameOf(hostHeader);
  if (name === null) return false;
  if (isLoopbackName(name) || isIpLiteral(name)) return true;
  return publicHosts.some((allowed) => {
    const pattern = allowed.toLowerCase().replace(/\.$/, '');
    return pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern;
  });
}

/**
 * The check as a node `request` handler's first step: answers a foreign `Host` with 421 JSON
 * `{ error }` (and closes the connection) and returns true; returns false when the request may go on.
 * Listeners call it before any route, so no route can forget it.
 */
export function refuseForeignHost(request: IncomingMessage, response: ServerResponse, publicHosts: PublicHosts = []): boolean {
  const host = request.headers.host;
  if (isAllowedHost(host, publicHosts)) return false;
  // Drain what the client still sends, then close: the page that sent it gets nothing else from this socket.
  request.resume();
  response.writeHead(421, { 'content-type': 'application/json', 'cache-control': 'no-store', connection: 'close' });
  response.end(JSON.stringify({ error: misdirectedHostError(host ?? '') }));
  return true;
}
