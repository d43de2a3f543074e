/**
 * Assembles a running keeper from its parts (chain connection, store, keeper loop, faucet on test
 * networks, public /v1 API, operator metrics) for the `keeper` and `serve` commands, and stops it cleanly.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { createPublicApi, listenPublicApi } from '../api/public-api';
import { connectToChain } from '../chain/rpc-connection';
import { createFaucet } from '../faucet/faucet';
import { createKeeper, type Keeper } from '../keeper/keeper';
import { createLogger } from '../logging';
import { createKeeperMetrics } from '../operator/metrics';
import { createOperatorApp, listenOperator } from '../operator/operator-server';
import { openDatabase } from '../store/database';

export const DEFAULT_API_PORT = 7300;

/** ~/.local/share/wager-keeper/keeper.db (or $XDG_DATA_HOME/wager-keeper/keeper.db). */
export function defaultDatabasePath(): string {
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'wager-keeper', 'keeper.db');
}

export interface KeeperRuntimeOptions {
  rpcUrl: string;
  wsUrl?: string;
  signer: KeyPairSigner;
  dbPath: string;
  apiPort: number;
  apiHost?: string;
  metricsPort?: number;
  priorityFeeMicroLamports?: bigint;
  /** Cranks in flight at once (default DEFAULT_MAX_IN_FLIGHT). */
  maxInFlight?: number;
  corsOrigins?: string[];
  /** Test networks only: mint and mint authority the faucet grants test USDC with. */
  faucet?: { mint: Address; mintAuthority: KeyPairSigner };
}

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
  await mkdir(dirname(options.dbPath), { recursive: true });
  const db = openDatabase(options.dbPath);
  const connection = connectToChain(options.rpcUrl, options.wsUrl);
  const keeper = createKeeper({
    connection,
    signer: options.signer,
    db,
    logger,
    priorityFeeMicroLamports: options.priorityFeeMicroLamports,
    maxInFlight: options.maxInFlight,
  });
  await keeper.start();

  const faucet = options.faucet
    ? createFaucet({
        rpc: connection.rpc,
        mint: options.faucet.mint,
        mintAuthority: options.faucet.mintAuthority,
        payer: options.signer,
        db,
        sendTransaction: async (instructions) => (await keeper.send(instructions)).signature,
        onError: (message, error) => logger.error({ error: (error as Error)?.message }, `faucet: ${message}`),
      })
    : undefined;
  // Read by the API on every request: without --cors-origin it is filled with the console's own
  // origins once the bound port is known (with --port 0 the requested port says nothing).
  const allowedOrigins = new Set<string>(options.corsOrigins ?? []);
  const api = await listenPublicApi(
    createPublicApi({
      keeper,
      faucet,
      allowedOrigins,
      onInternalError: (error, request) => logger.error({ error: (error as Error)?.message, ...request }, 'public api error'),
    }),
    { port: options.apiPort, host: options.apiHost },
  );
  if (!options.corsOrigins) for (const origin of consoleOrigins(api)) allowedOrigins.add(origin);
  const operator = options.metricsPort === undefined ? undefined : await listenOperator(createOperatorApp(createKeeperMetrics(keeper)), options.metricsPort);
  logger.info({ keeper: keeper.address, api: api.url, rpc: options.rpcUrl, faucet: Boolean(faucet) }, 'keeper ready');

  return {
    keeper,
    apiUrl: api.url,
    corsOrigins: [...allowedOrigins],
    metricsUrl: operator?.url,
    async stop() {
      await api.close();
      await new Promise<void>((resolve) => (operator ? operator.server.close(() => resolve()) : resolve()));
      await keeper.stop();
      db.close();
    },
  };
}

export { untilSignal } from './until-signal';
