/**
 * What the keeper's servers say when they cannot listen, the console's own CORS origins, and stopping what
 * started in reverse order: shared by the commands, the operator core and the gateway.
 */
import type { Logger } from 'pino';

/**
 * The default CORS origins (headless mode): the console's own, i.e. the origins the API is reached at
 * on this machine: http://127.0.0.1:<bound port>, http://localhost:<bound port>, and the bound address
 * itself when it is a specific one (not 0.0.0.0 or ::, which no browser can have as its origin).
 * @example consoleOrigins({ url: 'http://127.0.0.1:7300', port: 7300 }) // ['http://127.0.0.1:7300', 'http://localhost:7300']
 */
export function consoleOrigins(api: { url: string; port: number }): string[] {
  const origins = new Set([`http://127.0.0.1:${api.port}`, `http://localhost:${api.port}`]);
  const bound = new URL(api.url);
  if (bound.hostname !== '0.0.0.0' && bound.hostname !== '[::]') origins.add(bound.origin);
  return [...origins];
}

/**
 * The one-line error of a server that cannot listen, naming the flag that chose the port.
 * @example listenError(err, '--port', '127.0.0.1', 7300) // "--port 7300: 127.0.0.1:7300 is already in use (...)"
 */
export function listenError(error: unknown, flag: string, host: string, port: number): Error {
  const code = (error as { code?: string }).code;
  const why =
    code === 'EADDRINUSE'
      ? 'is already in use (another process listens there; pick another port, or 0 for any free one)'
      : code === 'EACCES'
        ? 'is not allowed for this user (ports below 1024 need privileges)'
        : code === 'EADDRNOTAVAIL'
          ? 'is not an address of this machine'
          : `cannot be listened on: ${(error as Error).message}`;
  return new Error(`${flag} ${port}: ${host}:${port} ${why}`, { cause: error });
}

/** A localnet that cannot listen: the error names the flag of the port (the WebSocket's is the RPC port + 1 by default). */
export function localnetListenError(error: unknown, rpcPort: number, wsPort: number | undefined, wsFlag = '--ws-port'): unknown {
  const { code, port, address } = error as { code?: string; port?: number; address?: string };
  if (!code || port === undefined || !['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL'].includes(code)) return error;
  const flag = port === rpcPort && rpcPort !== 0 ? '--rpc-port' : wsPort === undefined ? `${wsFlag} (by default the RPC port + 1)` : wsFlag;
  return listenError(error, flag, address ?? '127.0.0.1', port);
}

/** Runs the stop functions newest first; one that fails is logged and the rest still run. */
export async function stopInReverse(started: (() => Promise<void> | void)[], logger: Logger): Promise<void> {
  for (const stop of started.splice(0).reverse()) {
    try {
      await stop();
    } catch (error) {
      logger.error({ error: (error as Error)?.message }, 'while stopping');
    }
  }
}
