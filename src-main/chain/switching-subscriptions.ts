/**
 * WebSocket subscriptions that move with the read endpoint: each subscription is made on the WebSocket of
 * the endpoint in use, and a switch ends every open one (its iterator returns), so its owner makes it
 * again, now on the new endpoint (discovery.ts restores lost subscriptions and sweeps; the subscribed
 * confirmer subscribes again and polls meanwhile).
 */
import {
  createSolanaRpcSubscriptions,
  type RpcSubscriptions,
  type SolanaRpcSubscriptionsApi,
} from '@solana/kit';
import type { EndpointPool } from './endpoint-pool';

type Subscriptions = RpcSubscriptions<SolanaRpcSubscriptionsApi>;

export function createSwitchingSubscriptions(pool: EndpointPool): Subscriptions {
  const clients = new Map<string, Subscriptions>();
  const clientFor = (wsUrl: string) => {
    let client = clients.get(wsUrl);
    if (!client) clients.set(wsUrl, (client = createSolanaRpcSubscriptions(wsUrl)));
    return client;
  };
  let generation = new AbortController();
  pool.onSwitch(() => {
    generation.abort();
    generation = new AbortController();
  });
  return new Proxy({} as Subscriptions, {
    get(_target, method: string) {
      return (...args: unknown[]) => ({
        subscribe({ abortSignal }: { abortSignal: AbortSignal }) {
          const client = clientFor(pool.inUse().wsUrl!) as unknown as Record<
            string,
            (...a: unknown[]) => { subscribe(o: { abortSignal: AbortSignal }): Promise<unknown> }
          >;
          return client[method]!(...args).subscribe({
            abortSignal: AbortSignal.any([abortSignal, generation.signal]),
          });
        },
      });
    },
  });
}
