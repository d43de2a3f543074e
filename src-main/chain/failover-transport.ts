/**
 * A kit RPC transport over an endpoint pool (endpoint-pool.ts): each call goes to the endpoint in use,
 * and a call that fails there moves at once to the next healthy one (failover within the call, so within
 * the 2 s the issue asks). `sendTransaction` also goes to every send endpoint (`--send-rpc`): a send
 * endpoint that fails does not fail the send, and one that takes the transaction while every read
 * endpoint is down is the answer.
 *
 * kit has no failover transport: its @solana/rpc-transport-http README shows custom transports
 * (round-robin, "failover transport that will try each transport in order") as functions of the
 * `RpcTransport` shape wrapping its HTTP transport (https://npmjs.com/package/@solana/rpc-transport-http);
 * this is that pattern, over our resilient transport (retries, stale-answer checks) per endpoint.
 */
import type { RpcTransport } from '@solana/kit';
import { reasonOf, type EndpointPool, type PoolEndpoint } from './endpoint-pool';

type Config = Parameters<RpcTransport>[0];
type AnswerBody = { result?: unknown; error?: unknown };

/** Raised when no endpoint can take a call (all of another cluster, or lagging). */
export class NoUsableEndpointError extends Error {
  constructor() {
    super('no RPC endpoint can take this call (each is of another cluster or lagging): check the --rpc URLs');
    this.name = 'NoUsableEndpointError';
  }
}

const methodOf = (config: Config) => {
  const method = (config.payload as { method?: unknown } | null)?.method;
  return typeof method === 'string' ? method : '?';
};

async function callOne(pool: EndpointPool, endpoint: PoolEndpoint, config: Config): Promise<AnswerBody> {
  const started = Date.now();
  try {
    const body = (await endpoint.transport(config)) as AnswerBody;
    pool.succeeded(endpoint, Date.now() - started, methodOf(config), body);
    return body;
  } catch (error) {
    if (!config.signal?.aborted) pool.failed(endpoint, reasonOf(error));
    throw error;
  }
}

/** A read (or the read endpoint's copy of a send): the endpoint in use, then the next, until one answers. */
async function throughReads(pool: EndpointPool, config: Config): Promise<AnswerBody> {
  await pool.ready;
  let lastError: unknown;
  for (const endpoint of pool.candidates()) {
    if (config.signal?.aborted) break;
    if (!(await pool.usable(endpoint))) continue;
    try {
      return await callOne(pool, endpoint, config);
    } catch (error) {
      if (config.signal?.aborted) throw error;
      lastError = error;
    }
  }
  throw lastError ?? new NoUsableEndpointError();
}

/** The read endpoint's answer; when it has none, the first send endpoint that took the transaction. */
async function fanOutSend(pool: EndpointPool, config: Config): Promise<AnswerBody> {
  const sent = pool.sends.map(async (endpoint) => {
    if (!(await pool.usable(endpoint))) throw new NoUsableEndpointError();
    const body = await callOne(pool, endpoint, config);
    if (body.error) throw new Error('the send endpoint refused the transaction');
    return body;
  });
  for (const promise of sent) promise.catch(() => undefined); // a failing send endpoint never fails the send
  try {
    return await throughReads(pool, config);
  } catch (readError) {
    if (config.signal?.aborted) throw readError;
    return await Promise.any(sent).catch(() => {
      throw readError;
    });
  }
}

export function createFailoverTransport(pool: EndpointPool): RpcTransport {
  return (async <TResponse>(config: Config) => {
    const body =
      methodOf(config) === 'sendTransaction' && pool.sends.length > 0
        ? await fanOutSend(pool, config)
        : await throughReads(pool, config);
    return body as TResponse;
  }) as RpcTransport;
}
