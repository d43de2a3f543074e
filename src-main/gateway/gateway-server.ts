/**
 * A gateway on its listener: started, served over HTTP (Hono on node), and stopped in order (listener
 * first, so no request starts after the records close). Shared by `wager-keeper gateway` and `serve`.
 */
import { listenPublicApi } from '../api/public-api';
import { listenError } from '../runtime/listen-errors';
import { startGateway, type Gateway, type GatewayOptions } from './gateway';

export interface ServedGateway {
  gateway: Gateway;
  url: string;
  stop(): Promise<void>;
}

/** `publicHosts`: the names the listener answers to beyond loopback names and IP literals (--public-host); others get 421. */
export async function serveGateway(options: GatewayOptions & { port: number; host: string; portFlag: string; publicHosts?: readonly string[] }): Promise<ServedGateway> {
  const gateway = await startGateway(options);
  const server = await listenPublicApi(gateway.app, { port: options.port, host: options.host, publicHosts: options.publicHosts ?? [] }).catch(async (error: unknown) => {
    await gateway.stop();
    throw listenError(error, options.portFlag, options.host, options.port);
  });
  return {
    gateway,
    url: server.url,
    async stop() {
      await server.close();
      await gateway.stop();
    },
  };
}
