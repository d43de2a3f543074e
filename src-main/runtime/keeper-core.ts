/**
 * The keeper without its HTTP surfaces, assembled from its parts (store, chain connection, crank loop,
 * faucet on test networks, the guardian beside it) and stopped cleanly: `keeper`/`serve` and the
 * console's operator core both start it.
 */
import { createSolanaRpc, type Address, type KeyPairSigner } from '@solana/kit';
import type { Logger } from 'pino';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { connectToChain, type ChainConnection } from '../chain/rpc-connection';
import type { AutoPriorityFeePolicy } from '../chain/priority-fee-estimate';
import type { ChainEndpoints } from '../chain/rpc-endpoints';
import type { FaucetService } from '../faucet/faucet-service';
import { createFaucet } from '../faucet/faucet';
import { createKeeperFloor } from '../faucet/keeper-floor';
import { DEFAULT_ALERT_THRESHOLDS } from '../../src-shared/alert-types';
import { assertIsDeploymentGuardian, createGuardian, GuardianKeyError, type Guardian, type GuardianSettings } from '../keeper/guardian';
import { createKeeper, type Keeper } from '../keeper/keeper';
import type { Shard } from '../keeper/shard';
import { createLogger } from '../logging';
import { openDatabase, type Database } from '../store/database';
import { stopInReverse } from './listen-errors';

/** The guardian beside a keeper: its key (the deployment's guardian, or the core refuses to start) and how it acts. */
export type GuardianRunOptions = { signer: KeyPairSigner } & Partial<GuardianSettings>;

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
  /**
   * What the faucet may spend of the keeper's SOL (issue 33): `solPerDayLamports` a UTC day (default 0.5
   * SOL), and never below the keeper's floor, the larger of its sweep reserve (`keepLamports`, null: the
   * measured one) and its balance warning (`balanceWarningSol`), both read at each claim.
   */
  faucetLimits?: { solPerDayLamports?: bigint; keepLamports?: () => bigint | null; balanceWarningSol?: () => number };
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
          sendTransaction: async (instructions) => {
            const { signature, feeLamports } = await keeper.send(instructions);
            return { signature, feeLamports };
          },
          ...(options.faucetLimits?.solPerDayLamports !== undefined ? { solPerDayLamports: options.faucetLimits.solPerDayLamports } : {}),
          keeperFloorLamports: createKeeperFloor({
            earnings: keeper.earnings,
            keepLamports: options.faucetLimits?.keepLamports ?? (() => null),
            balanceWarningSol: options.faucetLimits?.balanceWarningSol ?? (() => DEFAULT_ALERT_THRESHOLDS.balanceWarningSol),
          }),
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
