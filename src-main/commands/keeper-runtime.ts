/**
 * Assembles a running keeper from its parts (chain connection, store, keeper loop, faucet on test
 * networks, public /v1 API, operator metrics) for the `keeper` and `serve` commands, and stops it cleanly.
 */
import { createSolanaRpc, type Address, type KeyPairSigner } from '@solana/kit';
import type { Logger } from 'pino';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { createPublicApi, listenPublicApi } from '../api/public-api';
import { connectToChain, type ChainConnection } from '../chain/rpc-connection';
import type { AutoPriorityFeePolicy } from '../chain/priority-fee-estimate';
import type { ChainEndpoints } from '../chain/rpc-endpoints';
import type { FaucetService } from '../faucet/faucet-service';
import { createFaucet } from '../faucet/faucet';
import { assertIsDeploymentGuardian, createGuardian, GuardianKeyError, type Guardian, type GuardianSettings } from '../keeper/guardian';
import { createKeeper, type Keeper } from '../keeper/keeper';
import type { Shard } from '../keeper/shard';
import { createLogger } from '../logging';
import { createKeeperMetrics } from '../operator/metrics';
import { createOperatorApp, listenOperator } from '../operator/operator-server';
import { openDatabase, type Database } from '../store/database';

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
  /** Test networks only: mint and mint authority the faucet grants test USDC with. */
  faucet?: { mint: Address; mintAuthority: KeyPairSigner };
  /** Runs the guardian beside the keeper with this key (see KeeperCoreOptions.guardian). */
  guardian?: GuardianRunOptions;
}

/** The guardian beside a keeper: its key (the deployment's guardian, or the core refuses to start) and how it acts. */
export type GuardianRunOptions = { signer: KeyPairSigner } & Partial<GuardianSettings>;

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

export interface KeeperCoreOptions {
  rpcUrl: string;
  wsUrl?: string;
  /** Several read endpoints with failover and send endpoints (issue 27); without it rpcUrl/wsUrl alone. */
  endpoints?: ChainEndpoints;
  /** The deployment's cluster: an endpoint with another genesis hash is never used. */
  expectedGenesisHash?: string;
  /** The deployment's wager program (never a constant: see src-main/deployment). */
  programAddress: Address;
  signer: KeyPairSigner;
  dbPath: string;
  priorityFeeMicroLamports?: bigint;
  /** `--priority-fee auto` (or the cluster's default on a public one): price cranks from the market under this policy. */
  priorityFeeAuto?: AutoPriorityFeePolicy;
  maxInFlight?: number;
  /** This keeper's shard of a fleet (`--shard I/N`, else Settings → Fleet). */
  shard?: Shard;
  faucet?: { mint: Address; mintAuthority: KeyPairSigner };
  /** Start with the crank loop paused (the console's saved choice). */
  paused?: boolean;
  /**
   * Runs the guardian beside the keeper (src-main/keeper/guardian.ts): it pauses new wagers when the
   * oracle stalls. A key that is not the config's guardian on chain is refused (GuardianKeyError) before
   * anything starts; when the chain cannot be read yet, the guardian checks before each action instead.
   */
  guardian?: GuardianRunOptions;
  logger?: Logger;
}

/** The keeper without its HTTP surfaces: store, chain connection, crank loop and the faucet on test networks. */
export interface KeeperCore {
  keeper: Keeper;
  faucet?: FaucetService;
  /** The guardian beside the keeper (with `guardian` in the options). */
  guardian?: Guardian;
  db: Database;
  connection: ChainConnection;
  stop(): Promise<void>;
}

/** Starts store, keeper loop and faucet; stops what started when a later part cannot start. */
export async function startKeeperCore(options: KeeperCoreOptions): Promise<KeeperCore> {
  const logger = options.logger ?? createLogger('keeper');
  if (options.guardian) await checkGuardianKey(options.rpcUrl, options.programAddress, options.guardian.signer, logger);
  await mkdir(dirname(options.dbPath), { recursive: true });
  const db = openDatabase(options.dbPath);
  const started: (() => Promise<void> | void)[] = [() => db.close()];
  const stopFirst: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    await stopInReverse(stopFirst, logger);
    await stopInReverse(started, logger);
  };
  try {
    const connection = options.endpoints
      ? connectToChain(options.endpoints, {
          ...(options.expectedGenesisHash ? { expectedGenesisHash: options.expectedGenesisHash } : {}),
          onOtherCluster: (label, genesisHash, expected) => logger.error({ endpoint: label, genesisHash, expected }, `RPC endpoint ${label} is of another cluster (genesis ${genesisHash}): never used`),
        })
      : connectToChain(options.rpcUrl, options.wsUrl);
    started.push(() => connection.close());
    connection.onEndpointSwitch((from, to, why) => logger.warn({ from, to, why }, `RPC reads moved from ${from} to ${to} (${why})`));
    const keeper = createKeeper({
      connection,
      signer: options.signer,
      db,
      programAddress: options.programAddress,
      logger,
      priorityFeeMicroLamports: options.priorityFeeMicroLamports,
      priorityFeeAuto: options.priorityFeeAuto,
      maxInFlight: options.maxInFlight,
      shard: options.shard,
    });
    if (options.paused) keeper.setPaused(true);
    started.push(() => keeper.stop());
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
    let guardian: Guardian | undefined;
    if (options.guardian) {
      const { signer, ...settings } = options.guardian;
      const started = createGuardian({ keeper, rpc: connection.rpc, signer, programAddress: options.programAddress, priorityFeeMicroLamports: options.priorityFeeMicroLamports, logger, ...settings });
      // Stopped before the keeper (it listens to the keeper's events).
      stopFirst.push(() => started.stop());
      started.start();
      guardian = started;
      logger.info({ guardian: signer.address, ...started.state() }, 'guardian running beside the keeper');
    }
    return { keeper, faucet, guardian, db, connection, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Refuses a guardian key that is not the config's guardian on chain (it could pause nothing). A chain
 * that cannot be read yet does not stop the keeper from starting (it starts before its RPC): the guardian
 * reads the config before each action anyway.
 */
async function checkGuardianKey(rpcUrl: string, programAddress: Address, signer: KeyPairSigner, logger: Logger): Promise<void> {
  try {
    await assertIsDeploymentGuardian(createSolanaRpc(rpcUrl), programAddress, signer);
  } catch (error) {
    if (error instanceof GuardianKeyError) throw error;
    logger.warn({ guardian: signer.address, error: (error as Error).message }, 'cannot read the config to check the guardian key yet; the guardian checks it before each action');
  }
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
        onInternalError: (error, request) => logger.error({ error: (error as Error)?.message, ...request }, 'public api error'),
      }),
      { port: options.apiPort, host: options.apiHost },
    ).catch((error: unknown) => {
      throw listenError(error, '--port', apiHost, options.apiPort);
    });
    started.push(() => api.close());
    if (!options.corsOrigins) for (const origin of consoleOrigins(api)) allowedOrigins.add(origin);
    const metricsPort = options.metricsPort;
    const operator =
      metricsPort === undefined
        ? undefined
        : await listenOperator(createOperatorApp(createKeeperMetrics(keeper, core.guardian)), metricsPort).catch((error: unknown) => {
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
