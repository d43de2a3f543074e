/**
 * The headless keeper of the `keeper` command: the keeper core (src-main/runtime/keeper-core.ts) with its
 * public /v1 API and operator metrics, stopped cleanly.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { TrustProxy } from '../api/client-ip';
import { createPublicApi, listenPublicApi } from '../api/public-api';
import type { Keeper } from '../keeper/keeper';
import { createLogger } from '../logging';
import { createKeeperMetrics } from '../metrics/metrics';
import { createOperatorApp, listenOperator } from '../operator-http/operator-server';
import { startKeeperCore, type GuardianRunOptions } from '../runtime/keeper-core';
import { consoleOrigins, listenError, stopInReverse } from '../runtime/listen-errors';

export const DEFAULT_API_PORT = 7300;

/** ~/.local/share/wager-keeper/keeper.db (or $XDG_DATA_HOME/wager-keeper/keeper.db). */
export function defaultDatabasePath(): string {
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'wager-keeper', 'keeper.db');
}

export interface KeeperRuntimeOptions {
  rpcUrl: string;
  wsUrl?: string;
  /** The deployment's wager program (never a constant: see src-main/deployment). */
  programAddress: Address;
  signer: KeyPairSigner;
  dbPath: string;
  apiPort: number;
  apiHost?: string;
  metricsPort?: number;
  priorityFeeMicroLamports?: bigint;
  /** Cranks in flight at once (default DEFAULT_MAX_IN_FLIGHT). */
  maxInFlight?: number;
  corsOrigins?: string[];
  /** Names the listeners answer to beyond loopback names and IP literals (--public-host); others get 421. */
  publicHosts?: string[];
  /** Which proxies in front may say who the client is (--trust-proxy; see api/client-ip.ts). */
  trustProxy?: TrustProxy;
  /** Test networks only: mint and mint authority the faucet grants test USDC with. */
  faucet?: { mint: Address; mintAuthority: KeyPairSigner };
  /** Runs the guardian beside the keeper with this key (see KeeperCoreOptions.guardian). */
  guardian?: GuardianRunOptions;
}

export interface KeeperRuntime {
  keeper: Keeper;
  apiUrl: string;
  /** The origins that get CORS headers: --cors-origin, or by default consoleOrigins() of the bound API. */
  corsOrigins: readonly string[];
  metricsUrl?: string;
  stop(): Promise<void>;
}

export async function startKeeperRuntime(options: KeeperRuntimeOptions): Promise<KeeperRuntime> {
  const logger = createLogger('keeper');
  // What has started so far, stopped in reverse order when a later part cannot start (a port in use):
  // the command then exits with its error instead of running half a keeper.
  const core = await startKeeperCore({ ...options, logger });
  const started: (() => Promise<void> | void)[] = [() => core.stop()];
  const stopAll = () => stopInReverse(started, logger);
  try {
    const { keeper, faucet } = core;
    // Read by the API on every request: without --cors-origin it is filled with the console's own
    // origins once the bound port is known (with --port 0 the requested port says nothing).
    const allowedOrigins = new Set<string>(options.corsOrigins ?? []);
    const apiHost = options.apiHost ?? '127.0.0.1';
    const api = await listenPublicApi(
      createPublicApi({
        keeper,
        faucet,
        allowedOrigins,
        ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
        onInternalError: (error, request) => logger.error({ error: (error as Error)?.message, ...request }, 'public api error'),
      }),
      { port: options.apiPort, host: options.apiHost, publicHosts: options.publicHosts ?? [] },
    ).catch((error: unknown) => {
      throw listenError(error, '--port', apiHost, options.apiPort);
    });
    started.push(() => api.close());
    if (!options.corsOrigins) for (const origin of consoleOrigins(api)) allowedOrigins.add(origin);
    const metricsPort = options.metricsPort;
    const operator =
      metricsPort === undefined
        ? undefined
        : await listenOperator(createOperatorApp(createKeeperMetrics(keeper, core.guardian)), metricsPort, options.publicHosts ?? []).catch((error: unknown) => {
            throw listenError(error, '--metrics-port', '127.0.0.1', metricsPort);
          });
    if (operator) started.push(() => new Promise<void>((resolve) => operator.server.close(() => resolve())));
    logger.info({ keeper: keeper.address, api: api.url, rpc: options.rpcUrl, faucet: Boolean(faucet) }, 'keeper ready');

    return {
      keeper,
      apiUrl: api.url,
      corsOrigins: [...allowedOrigins],
      metricsUrl: operator?.url,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

export { untilSignal } from './until-signal';
