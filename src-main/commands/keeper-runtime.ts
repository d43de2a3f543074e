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

export interface KeeperRuntime {
  keeper: Keeper;
  apiUrl: string;
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
  const apiPort = options.apiPort;
  const api = await listenPublicApi(
    createPublicApi({
      keeper,
      faucet,
      allowedOrigins: options.corsOrigins ?? [`http://127.0.0.1:${apiPort}`, `http://localhost:${apiPort}`],
      onInternalError: (error, request) => logger.error({ error: (error as Error)?.message, ...request }, 'public api error'),
    }),
    { port: apiPort, host: options.apiHost },
  );
  const operator = options.metricsPort === undefined ? undefined : await listenOperator(createOperatorApp(createKeeperMetrics(keeper)), options.metricsPort);
  logger.info({ keeper: keeper.address, api: api.url, rpc: options.rpcUrl, faucet: Boolean(faucet) }, 'keeper ready');

  return {
    keeper,
    apiUrl: api.url,
    metricsUrl: operator?.url,
    async stop() {
      await api.close();
      await new Promise<void>((resolve) => (operator ? operator.server.close(() => resolve()) : resolve()));
      await keeper.stop();
      db.close();
    },
  };
}

/** Resolves on SIGINT or SIGTERM. */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}
