/**
 * A server keeper's OperatorApi, through its tunnel: every method of the one method list as
 * `POST /operator/api/<method>` with the keeper's token (`Authorization: Bearer`), as the browser console
 * calls it (src-renderer/src/transport.ts); an error comes back as JSON `{ error }` and is thrown as is.
 */
import { OPERATOR_HTTP } from '../../src-shared/contract/bridge';
import { OPERATOR_METHODS, type OperatorApi } from '../../src-shared/contract/operator-api';

/** Where the keeper answers now (the tunnel's local port and the token read at connect), or why not. */
export type RemoteEndpoint = () => { port: number; token: string } | { unavailable: string };

/** Calls longer than this fail (a sweep or a deployment load may take a while; a hung link must not hang the page). */
export const REMOTE_CALL_TIMEOUT_MS = 60_000;

/** One method call over HTTP; `onAnswer` marks the keeper seen. */
export async function callRemote(endpoint: RemoteEndpoint, method: string, args: unknown, timeoutMs = REMOTE_CALL_TIMEOUT_MS): Promise<unknown> {
  const at = endpoint();
  if ('unavailable' in at) throw new Error(at.unavailable);
  let response: Response;
  try {
    response = await fetch(`http://127.0.0.1:${at.port}${OPERATOR_HTTP.apiPrefix}${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${at.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(args ?? {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (error as Error).message;
    throw new Error(`the server keeper could not be reached through its SSH tunnel (${cause}): the app reconnects by itself; try again in a moment`, { cause: error });
  }
  const body = (await response.json().catch(() => null)) as unknown;
  if (!response.ok) {
    const error = (body as { error?: unknown } | null)?.error;
    throw new Error(typeof error === 'string' ? error : `the server keeper answered HTTP ${response.status}: try again; if it lasts, restart it there`);
  }
  return body;
}

/** The whole OperatorApi of a server keeper; `onAnswer` runs after each answered call (its "last seen"). */
export function remoteOperatorApi(endpoint: RemoteEndpoint, onAnswer: () => void = () => {}): OperatorApi {
  const entries = OPERATOR_METHODS.map((method) => [
    method,
    async (args?: unknown) => {
      const value = await callRemote(endpoint, method, args);
      onAnswer();
      return value;
    },
  ]);
  return Object.fromEntries(entries) as OperatorApi;
}
