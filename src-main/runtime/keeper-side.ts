/**
 * The keeper side of the console's core: the keeper (with its guardian and faucet) on a chain side, the key
 * it cranks with, the guardian key this console holds, its step log (booked by the keeper) and the demo app beside it.
 */
import { address, createSolanaRpc, type Address, type KeyPairSigner } from '@solana/kit';
import { startKeeperCore, type KeeperCore } from './keeper-core';
import { DEFAULT_ALERT_THRESHOLDS } from '../../src-shared/alert-types';
import { DEFAULT_AUTO_PRIORITY_FEE } from '../chain/priority-fee-estimate';
import type { Deployment } from '../protocol/deployment';
import { GuardianKeyError, readConfiguredGuardian } from '../keeper/guardian';
import { parseShard } from '../keeper/shard';
import { readGuardianKey } from '../secrets/guardian-key';
import { loadClusterKeeperKey } from './cluster-keys';
import { keypairFromBytes, readKeypairFile } from '../secrets/keypair-bytes';
import type { StepLog } from '../store/step-log';
import { createStepTally } from '../store/step-tally';
import { startHistoryRetention } from '../store/history-retention';
import type { ChainSide } from './chain-side';
import { createDemoApp, demoPlacement, type DemoApp } from './demo-app';
import type { ConsoleSettings } from '../../src-shared/contract/settings';
import type { GuardianKeySource } from '../../src-shared/contract/guardian';
import type { KeySource } from '../../src-shared/contract/status';
import type { ResolvedOperatorOptions } from './operator-options';

export interface KeeperSide {
  core: KeeperCore;
  signer: KeyPairSigner;
  keySource: KeySource;
  /** The keeper's own step log (it books its steps itself): the console reads it. */
  stepLog: StepLog;
  /** Per-step figures over a window (the Overview's step table). */
  stepTally: ReturnType<typeof createStepTally>;
  /** The guardian key this console holds for the deployment (the guardian then runs in core.guardian), or why none. */
  guardianKey: { address: string; source: GuardianKeySource } | null;
  guardianKeyProblem: string | null;
  /** Made and ended by syncDemo as the cluster and the demo settings allow. */
  demo: DemoApp | null;
  stopped: boolean;
  stop(): Promise<void>;
}

/** Where `--priority-fee auto` is the default: the clusters with a fee market. */
const PUBLIC_CLUSTERS: ReadonlySet<string> = new Set(['mainnet-beta', 'devnet', 'testnet']);

type KeeperSideOptions = Pick<ResolvedOperatorOptions, 'flags' | 'devKeyOnLocalnet' | 'keychainAccount' | 'guardianKeychainAccount' | 'log'>;

export interface KeeperSideHooks {
  /** The settings in force (read when they are needed, as they may change while the keeper starts). */
  settings(): ConsoleSettings;
  /** Attaches the service's listeners to the core started on `deployment`; answers how to detach them once it has stopped. */
  attach(core: KeeperCore, deployment: Deployment): () => void;
  /** The demo app changed (the status shows it). */
  onDemoChange(): void;
}

/** Starts the keeper on `side` against `deployment`; `initial`: the host's first start (flags apply, a wrong key stops it). */
export async function startKeeperSide(options: KeeperSideOptions, side: ChainSide, deployment: Deployment, initial: boolean, hooks: KeeperSideHooks): Promise<KeeperSide> {
  const { flags } = options;
  const settings = hooks.settings();
  const key = await keeperKey(options, side);
  const guardianKey = await guardianKeyFor(options, side, deployment, initial);
  // This keeper grants test USDC itself only when it holds the deployment's mint authority.
  if (initial && flags.faucet && flags.faucet.mint !== deployment.usdcMint)
    throw new Error(`--faucet-mint ${flags.faucet.mint} is not this deployment's USDC mint (${deployment.usdcMint}): the faucet would grant a token no wager takes`);
  const faucet =
    side.manifest && side.manifest.usdcMint === deployment.usdcMint
      ? { mint: side.manifest.usdcMint as Address, mintAuthority: await keypairFromBytes(side.manifest.mintAuthority) }
      : initial
        ? flags.faucet
        : undefined;
  // The market's priority fee when asked for ("auto"), and by default on a public cluster (a localnet's stays fixed).
  const autoPriorityFee = settings.priorityFeeAuto ?? (settings.priorityFeeMicroLamports === 0 && PUBLIC_CLUSTERS.has(side.view.name));
  const core = await startKeeperCore({
    rpcUrl: side.rpcUrl,
    wsUrl: side.wsUrl,
    // Several endpoints (issue 27): failover between the reads, transactions also to the sends.
    ...(side.endpoints.reads.length > 1 || side.endpoints.sends.length > 0 ? { endpoints: side.endpoints, expectedGenesisHash: deployment.cluster.genesisHash } : {}),
    programAddress: address(deployment.programs.wager),
    signer: key.signer,
    dbPath: side.dbPath,
    priorityFeeMicroLamports: !autoPriorityFee && settings.priorityFeeMicroLamports > 0 ? BigInt(settings.priorityFeeMicroLamports) : undefined,
    ...(autoPriorityFee ? { priorityFeeAuto: { ...DEFAULT_AUTO_PRIORITY_FEE, ...options.flags.priorityFeePolicy } } : {}),
    maxInFlight: settings.maxInFlight,
    // This run's `--shard` flag wins over Settings → Fleet (flags override settings for a run, also after a cluster switch).
    ...(flags.shard ? { shard: flags.shard } : settings.shard ? { shard: { ...parseShard(settings.shard), takeoverSlots: settings.shardTakeoverSlots } } : {}),
    faucet,
    // The faucet spends this keeper's SOL: a daily budget, and never below the reserve or the balance warning (issue 33).
    faucetLimits: {
      ...(flags.faucetSolPerDayLamports !== undefined ? { solPerDayLamports: flags.faucetSolPerDayLamports } : {}),
      keepLamports: () => {
        const keep = hooks.settings().sweep.keepLamports;
        return keep === null || keep === undefined ? null : BigInt(keep);
      },
      balanceWarningSol: () => ({ ...DEFAULT_ALERT_THRESHOLDS, ...hooks.settings().alertThresholds, ...flags.alertThresholds }).balanceWarningSol,
    },
    paused: settings.paused,
    ...('signer' in guardianKey
      ? { guardian: { signer: guardianKey.signer, automatic: settings.guardianAutomatic, pauseAfterSlots: settings.guardianPauseAfterSlots, resumeAfterSlots: settings.guardianResumeAfterSlots } }
      : {}),
    logger: options.log,
  });
  const stepLog = core.keeper.stepLog;
  const stepTally = createStepTally(core.db);
  // --keep-history: prune old finished rows at start and hourly, in small batches (the rollups stay).
  const stopRetention = flags.keepHistoryMs
    ? startHistoryRetention(core.db, flags.keepHistoryMs, {
        onPruned: (pruned) => options.log?.info({ pruned, keepHistoryMs: flags.keepHistoryMs }, 'old history pruned'),
        onError: (error) => options.log?.warn({ error: error.message }, 'pruning old history failed; it is tried again in an hour'),
      })
    : () => undefined;
  const detach = hooks.attach(core, deployment);
  const started: KeeperSide = {
    core,
    signer: key.signer,
    keySource: key.source,
    guardianKey: 'signer' in guardianKey ? { address: guardianKey.signer.address, source: guardianKey.source } : null,
    guardianKeyProblem: 'problem' in guardianKey ? guardianKey.problem : null,
    stepLog,
    stepTally,
    demo: null,
    stopped: false,
    async stop() {
      started.stopped = true;
      started.demo?.stop();
      started.demo = null;
      stopRetention();
      await core.stop();
      detach();
    },
  };
  await syncDemo(started, side, deployment, hooks);
  return started;
}

/**
 * Starts or ends the demo app as the cluster and the settings allow (demoPlacement): on a wager-keeper
 * localnet it stakes the dev app key's test USDC; elsewhere the keeper key's own (fund it at the faucet).
 */
export async function syncDemo(side: KeeperSide, chainSide: ChainSide, deployment: Deployment, hooks: Pick<KeeperSideHooks, 'settings' | 'onDemoChange'>): Promise<void> {
  const settings = hooks.settings();
  const allowed = demoPlacement(chainSide.view, settings.demoOnTestNetworks).allowed;
  if (!allowed) {
    side.demo?.stop();
    side.demo = null;
    return;
  }
  if (side.demo) return side.demo.configure({ enabled: settings.demoEnabled, intervalMs: settings.demoIntervalMs });
  const stakeOwner = chainSide.manifest ? await keypairFromBytes(chainSide.manifest.devKeys.app.keypair) : side.signer;
  if (side.stopped || side.demo) return; // stopped or started meanwhile
  side.demo = createDemoApp({ rpc: side.core.connection.rpc, deployment, stakeOwner, enabled: settings.demoEnabled, intervalMs: settings.demoIntervalMs, onChange: hooks.onDemoChange });
}

/**
 * The key the keeper cranks with: --keypair (on mainnet-beta refused if it is the local/test key), a
 * wager-keeper localnet's funded dev key, else the OS keychain's key for this cluster's class (mainnet-beta
 * has its own, made at its first start there).
 */
async function keeperKey(options: KeeperSideOptions, side: ChainSide): Promise<{ signer: KeyPairSigner; source: KeySource }> {
  const cluster = side.view.name;
  if (options.flags.keypairFile) return loadClusterKeeperKey({ cluster, keypairFile: options.flags.keypairFile, baseAccount: options.keychainAccount });
  // On a wager-keeper localnet the keeper cranks with its funded dev key: a first start needs no set-up.
  if (side.manifest && options.devKeyOnLocalnet !== false) return { signer: await keypairFromBytes(side.manifest.devKeys.keeper.keypair), source: 'localnet dev key' };
  return loadClusterKeeperKey({ cluster, baseAccount: options.keychainAccount });
}

/**
 * The deployment's guardian key, where this console holds it: `--guardian-keypair FILE`; on a wager-keeper
 * localnet its dev guardian key (unless the host keeps its own keys, as `keeper` does); else the one
 * imported into the OS keychain. Checked against the config's guardian on chain: at the first start a
 * wrong --guardian-keypair stops the command; otherwise the console says why it holds no usable key.
 */
async function guardianKeyFor(
  options: KeeperSideOptions,
  side: ChainSide,
  deployment: Deployment,
  initial: boolean,
): Promise<{ signer: KeyPairSigner; source: GuardianKeySource } | { problem: string }> {
  const file = options.flags.guardianKeypairFile;
  let key: { signer: KeyPairSigner; source: GuardianKeySource };
  try {
    if (file) key = { signer: await readKeypairFile(file), source: 'file' };
    else if (side.manifest && options.devKeyOnLocalnet !== false) key = { signer: await keypairFromBytes(side.manifest.devKeys.guardian.keypair), source: 'localnet dev key' };
    else {
      const signer = await readGuardianKey(options.guardianKeychainAccount);
      if (!signer) return { problem: `this console holds no guardian key: import the keypair file of the deployment's guardian (${deployment.guardian}) in Settings → Guardian key` };
      key = { signer, source: 'keychain' };
    }
  } catch (error) {
    if (file && initial) throw new Error(`--guardian-keypair ${file}: ${(error as Error).message}`, { cause: error });
    return { problem: `the guardian key cannot be read: ${(error as Error).message}` };
  }
  try {
    const guardian = await readConfiguredGuardian(createSolanaRpc(side.rpcUrl), address(deployment.programs.wager));
    if (guardian !== key.signer.address) throw new GuardianKeyError(key.signer.address, guardian);
  } catch (error) {
    if (!(error instanceof GuardianKeyError)) return key; // the chain cannot be read yet: the guardian checks before each action
    if (file && initial) throw new Error(`--guardian-keypair ${file}: ${error.message}`, { cause: error });
    return { problem: `the ${key.source === 'keychain' ? 'guardian key in the OS keychain' : key.source === 'file' ? `key in ${file}` : 'dev guardian key'}: ${error.message}` };
  }
  return key;
}
