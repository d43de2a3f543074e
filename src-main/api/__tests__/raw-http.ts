/**
 * A bare HTTP/1.1 client over a TCP socket, for tests that must send what fetch and node:http refuse to
 * (odd methods, broken request lines, bad Host headers, conflicting framing) from a chosen local address
 * (any of 127.0.0.0/8 on Linux), and read whatever comes back, including an answer to a request the
 * server stops reading half-way.
 */
import { connect } from 'node:net';

export interface RawRequest {
  /** The bytes of the request head and body, sent as given. */
  bytes: Buffer;
  /** HEAD answers carry no body. */
  head?: boolean;
  localAddress?: string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** Decodes a chunked body; null while incomplete. */
function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1').split(';')[0]!, 16);
    if (!Number.isFinite(size)) throw new Error(`bad chunk size in the answer: ${data.subarray(at, lineEnd).toString('latin1')}`);
    const start = lineEnd + 2;
    if (size === 0) return Buffer.concat(parts);
    if (data.length < start + size + 2) return null;
    parts.push(data.subarray(start, start + size));
    at = start + size + 2;
  }
}

/** The answer once complete, or null while more is expected (`ended`: the server closed the connection). */
function parse(data: Buffer, head: boolean, ended: boolean): RawResponse | null {
  const headEnd = data.indexOf(HEAD_END);
  if (headEnd < 0) {
    if (ended) throw new Error(`the connection closed without an answer (${data.length} bytes: ${JSON.stringify(data.toString('latin1').slice(0, 80))})`);
    return null;
  }
  const [statusLine, ...lines] = data.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  if (!status) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  // 1xx (100 Continue) precedes the real answer.
  if (status < 200) return parse(data.subarray(headEnd + 4), head, ended);
  const rest = data.subarray(headEnd + 4);
  if (head || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
  if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
    const body = dechunk(rest);
    if (body) return { status, headers, body };
    if (ended) throw new Error(`the connection closed inside a chunked answer (status ${status})`);
    return null;
  }
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (rest.length >= length) return { status, headers, body: rest.subarray(0, length) };
    if (ended) throw new Error(`the connection closed after ${rest.length} of ${length} body bytes (status ${status})`);
    return null;
  }
  return ended ? { status, headers, body: rest } : null;
}

/**
 * Sends `request` on a new connection to 127.0.0.1:`port` and resolves with the first complete answer.
 * Rejects when the connection ends, resets or stays silent (`timeoutMs`) before a complete answer.
 */
export function rawRequest(port: number, request: RawRequest, timeoutMs = 20_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: request.localAddress });
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (error: Error | null, response?: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(response!);
    };
    const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const check = (ended: boolean) => {
      try {
        const response = parse(received, request.head ?? false, ended);
        if (response) finish(null, response);
      } catch (error) {
        finish(error as Error);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      check(false);
    });
    socket.on('end', () => check(true));
    // The server may stop reading a body it refused and close: what it answered before counts.
    socket.on('error', (error) => {
      check(true);
      finish(error);
    });
    socket.on('close', () => check(true));
    socket.write(request.bytes);
  });
}
