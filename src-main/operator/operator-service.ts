/**
 * The console's core, the same in both hosts (the Electron main process and headless `serve`/`keeper`):
 * it runs the chain side (the embedded localnet, or an RPC the operator picks), the keeper on it, the
 * public /v1 API (and, headless, the operator HTTP API with the built UI on the same listener), and
 * answers the operator interface (operator-interface.ts). Switching cluster restarts the chain side and
 * the keeper without restarting the host; the /v1 listener stays up and answers 503 meanwhile.
 */
import { address, createSolanaRpc, isAddress, type Address, type Instruction, type KeyPairSigner } from '@solana/kit';
import { EventEmitter } from 'node:events';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { KeeperUnavailableError } from '../api/chain-read-error';
import { createPublicApi, listenPublicApi, type PublicApiServer } from '../api/public-api';
import { defaultWebSocketUrl } from '../chain/rpc-connection';
import { consoleOrigins, listenError, startKeeperCore, stopInReverse, type KeeperCore } from '../commands/keeper-runtime';
import { localnetListenError } from '../commands/localnet-command';
import type { KeeperEvents } from '../keeper/keeper-events';
import type { CrankResult } from '../keeper/keeper';
import { fetchConfig } from '../keeper/chain-view';
import { GuardianKeyError, readConfiguredGuardian, type GuardianAction, type GuardianEvents } from '../keeper/guardian';
import { readGuardianKey, readGuardianKeyAddress, storeGuardianKey, GUARDIAN_KEYCHAIN_ACCOUNT } from '../secrets/guardian-key';
import { deploymentSummary, parseDeploymentText, type Deployment } from '../deployment/deployment';
import { DeploymentClusterMismatchError, NoDeploymentError, type DeploymentSource } from '../deployment/deployment-finder';
import { oracleName, resolveDeploymentForRpc } from '../deployment/deployment-resolver';
import { remoteFaucetClaim, remoteFaucetStatus } from '../faucet/remote-faucet';
import { fetchLocalnetManifest, localOracleStatus, resumeLocalOracle, stallLocalOracle } from '../localnet/localnet-admin-client';
import { startLocalnet, type Localnet, type LocalnetManifest } from '../localnet/localnet';
import { createLogger } from '../logging';
import { fetchPaytableNames } from './paytable-names';
import { inspectWager } from './wager-inspection';
import { searchAddress } from './address-search';
import { balanceAfterClaim, claimInstruction, readLiquidity, simulatorFor, strikeInstruction, type LiquidityContext } from './liquidity-view';
import { explainCode, lastErrorInWords } from '../protocol/program-error-sentences';
import { keypairFromBytes, generateKeypairWithBytes, readKeypairFile, readKeypairFileBytes } from '../secrets/keypair-bytes';
import { loadKeeperKey, readKeeperKeyAddress, storeKeeperKey, KEYCHAIN_ACCOUNT } from '../secrets/keeper-key';
import { IN_PROGRESS_STATES, type WagerRecord } from '../store/wager-records';
import { createStepLog, type StepLog } from '../store/step-log';
import { clusterNameOf, testRpcConnection } from './cluster-identity';
import { validateSettingsChanges, type SettingsBackend } from './console-settings';
import { createDemoApp, demoPlacement, unavailableDemo, type DemoApp } from './demo-app';
import { createKeeperMetrics } from './metrics';
import { solanaNetworkId } from '../chain/network-id';
import { createOperatorHttp } from './operator-http';
import { createOperatorApp, listenOperator } from './operator-server';
import {
  BASE_FEE_LAMPORTS,
  FINISHED_ROW_TTL_MS,
  LOW_BALANCE_LAMPORTS,
  OPERATOR_HTTP,
  type ClusterName,
  type ClusterSetting,
  type ClusterView,
  type ConsoleSettings,
  type DeploymentView,
  type EarningsTotals,
  type FaucetView,
  type GuardianKeySource,
  type GuardianView,
  type HealthView,
  type KeySource,
  type InspectionView,
  type KeyView,
  type CrankActionView,
  type OracleWaitView,
  type OperatorApi,
  type OperatorEvent,
  type QueueRow,
  type StatusView,
  type StepView,
} from './operator-interface';

/** Command-line flags: they fix a setting for this run (shown read-only in Settings) and are never saved. */
export interface OperatorFlags {
  /** --rpc (and --ws): the cluster to start on; without it the host's default (headless: the embedded localnet). */
  cluster?: ClusterSetting;
  embeddedRpcPort?: number;
  embeddedSlotMs?: number;
  dbPath?: string;
  keypairFile?: string;
  apiPort?: number;
  apiHost?: string;
  corsOrigins?: string[];
  metricsPort?: number;
  priorityFeeMicroLamports?: number;
  maxInFlight?: number;
  /** --faucet-mint/--faucet-authority, for the cluster given by --rpc. */
  faucet?: { mint: Address; mintAuthority: KeyPairSigner };
  /** --deployment FILE, for the cluster given by --rpc (else one is found by its genesis hash). */
  deploymentFile?: string;
  /** `keeper --guardian-keypair FILE`: the guardian runs automatically with this key (refused at start when it is not the deployment's guardian). */
  guardianKeypairFile?: string;
  /** --guardian-pause-after-slots, --guardian-resume-after-slots. */
  guardianPauseAfterSlots?: number;
  guardianResumeAfterSlots?: number;
}

export interface OperatorServiceOptions {
  host: 'desktop' | 'headless';
  settings: SettingsBackend;
  /** Where records of RPC clusters are kept (headless: ~/.local/share/wager-keeper). */
  dataDir: string;
  flags?: OperatorFlags;
  /** Headless: serve the console (operator HTTP API + the built UI in `uiDirectory`) on the API listener. */
  console?: { uiDirectory: string };
  /** Throw from start() when the first core cannot start (the CLI exits 1); the desktop shows the error instead. */
  failFast?: boolean;
  keychainAccount?: string;
  /** The keychain account of the guardian key (default "guardian"). */
  guardianKeychainAccount?: string;
  /** On a wager-keeper localnet, crank with its funded dev keeper key unless --keypair (default true; `keeper` keeps its own key). */
  devKeyOnLocalnet?: boolean;
  logger?: Logger;
}

/** What the ready line of `serve`/`keeper` prints. */
export interface ServiceDescription {
  apiUrl: string;
  consoleUrl: string | null;
  corsOrigins: string[];
  metricsUrl: string | null;
  rpcUrl: string | null;
  keeper: string | null;
  keySource: KeySource | null;
  db: string | null;
  faucet: boolean;
  /** The cluster's genesis hash and CAIP-2 id (`solana:` + its first 32 characters), when it answered. */
  genesisHash: string | null;
  network: string | null;
  /** The full manifest of a wager-keeper localnet (callers print a public subset). */
  manifest: LocalnetManifest | null;
  /** The deployment the keeper runs against (ready lines print deploymentSummary of it). */
  deployment: Deployment | null;
  /** The guardian running beside the keeper: its key's address and whether it pauses by itself. */
  guardian: { address: string; automatic: boolean } | null;
}

export interface OperatorService {
  api: OperatorApi;
  onEvent(listener: (event: OperatorEvent) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
  describe(): ServiceDescription;
  /** The current keeper's events, re-emitted across cluster switches (metrics and tests listen here). */
  readonly keeperEvents: EventEmitter<KeeperEvents>;
  /** The current guardian's actions, re-emitted across cluster switches (metrics listen here). */
  readonly guardianEvents: EventEmitter<GuardianEvents>;
}

/** The chain side of a core: the embedded localnet or an RPC, and what we learned about it. */
interface ChainSide {
  setting: ClusterSetting;
  localnet?: Localnet;
  rpcUrl: string;
  wsUrl: string;
  manifest: LocalnetManifest | null;
  /** Where the service is on this cluster (null: none known; `view.noDeployment` says so and the keeper waits). */
  deployment: Deployment | null;
  deploymentSource: DeploymentSource | null;
  view: ClusterView;
  dbPath: string;
}

/** The keeper side of a core. */
interface KeeperSide {
  core: KeeperCore;
  signer: KeyPairSigner;
  keySource: KeySource;
  stepLog: StepLog;
  /** The guardian key this console holds for the deployment (the guardian then runs in core.guardian), or why none. */
  guardianKey: { address: string; source: GuardianKeySource } | null;
  guardianKeyProblem: string | null;
  /** Made and ended by syncDemo as the cluster and the demo settings allow. */
  demo: DemoApp | null;
  stopped: boolean;
  stop(): Promise<void>;
}

const RECORD_BATCH_MS = 150;
/** The queue also lists wagers that finished this recently (at most this many), so their end is seen. */
export const RECENTLY_FINISHED_MS = FINISHED_ROW_TTL_MS;
const RECENTLY_FINISHED_LIMIT = 500;
const HEALTH_PROBE_MS = 1_000;
const DAY_MS = 86_400_000;

export function createOperatorService(options: OperatorServiceOptions): OperatorService {
  const log = options.logger ?? createLogger('keeper');
  const flags = options.flags ?? {};
  const keychainAccount = options.keychainAccount ?? KEYCHAIN_ACCOUNT;
  const guardianKeychainAccount = options.guardianKeychainAccount ?? GUARDIAN_KEYCHAIN_ACCOUNT;
  const listeners = new Set<(event: OperatorEvent) => void>();
  const keeperEvents = new EventEmitter<KeeperEvents>();
  const guardianEvents = new EventEmitter<GuardianEvents>();
  const emit = (event: OperatorEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log.warn({ error: (error as Error).message }, 'a console event listener failed');
      }
    }
  };

  /** Saved settings with this run's flags on top. */
  const effective = (): ConsoleSettings => {
    const saved = options.settings.store;
    return {
      ...saved,
      ...(flags.apiPort !== undefined ? { apiPort: flags.apiPort } : {}),
      ...(flags.apiHost !== undefined ? { apiHost: flags.apiHost } : {}),
      ...(flags.corsOrigins !== undefined ? { corsOrigins: flags.corsOrigins } : {}),
      ...(flags.priorityFeeMicroLamports !== undefined ? { priorityFeeMicroLamports: flags.priorityFeeMicroLamports } : {}),
      ...(flags.maxInFlight !== undefined ? { maxInFlight: flags.maxInFlight } : {}),
      // --guardian-keypair runs the guardian automatically: that is what the flag is for.
      ...(flags.guardianKeypairFile !== undefined ? { guardianAutomatic: true } : {}),
      ...(flags.guardianPauseAfterSlots !== undefined ? { guardianPauseAfterSlots: flags.guardianPauseAfterSlots } : {}),
      ...(flags.guardianResumeAfterSlots !== undefined ? { guardianResumeAfterSlots: flags.guardianResumeAfterSlots } : {}),
    };
  };
  const fixedByFlags = (): (keyof ConsoleSettings)[] => [
    ...(flags.apiPort !== undefined ? (['apiPort'] as const) : []),
    ...(flags.apiHost !== undefined ? (['apiHost'] as const) : []),
    ...(flags.corsOrigins !== undefined ? (['corsOrigins'] as const) : []),
    ...(flags.priorityFeeMicroLamports !== undefined ? (['priorityFeeMicroLamports'] as const) : []),
    ...(flags.maxInFlight !== undefined ? (['maxInFlight'] as const) : []),
    ...(flags.guardianKeypairFile !== undefined ? (['guardianAutomatic'] as const) : []),
    ...(flags.guardianPauseAfterSlots !== undefined ? (['guardianPauseAfterSlots'] as const) : []),
    ...(flags.guardianResumeAfterSlots !== undefined ? (['guardianResumeAfterSlots'] as const) : []),
  ];

  let phase: StatusView['phase'] = 'starting';
  let coreError: string | null = null;
  let chain: ChainSide | undefined;
  let keeperSide: KeeperSide | undefined;
  let startedAt = Date.now();
  /** One core change at a time (switches queue behind each other). */
  let changing: Promise<unknown> = Promise.resolve();
  let api: PublicApiServer | undefined;
  let consoleUrl: string | null = null;
  let metricsUrl: string | null = null;
  let corsOrigins: string[] = [];
  const stopHost: (() => Promise<void> | void)[] = [];
  const paytableNames = new Map<string, string>();
  let probe: { slot: number | null; latencyMs: number | null; checkedAt: number } = { slot: null, latencyMs: null, checkedAt: 0 };
  let probeTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  // ---- records and steps reach the UI in batches (10 000 wagers updating must not mean 10 000 messages)
  const pendingRecords = new Map<string, QueueRow>();
  const pendingSteps: StepView[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  const scheduleFlush = () => {
    flushTimer ??= setTimeout(() => {
      flushTimer = undefined;
      if (pendingRecords.size) emit({ type: 'records', records: [...pendingRecords.values()] });
      pendingRecords.clear();
      if (pendingSteps.length) emit({ type: 'steps', steps: pendingSteps.splice(0) });
    }, RECORD_BATCH_MS);
    flushTimer.unref?.();
  };

  const toRow = (record: WagerRecord): QueueRow => ({
    address: record.address,
    state: record.state,
    paytable: record.paytable,
    paytableName: (record.paytable && paytableNames.get(record.paytable)) ?? null,
    stake: record.stake,
    openSlot: record.openSlot,
    expirySlot: record.expirySlot,
    oracleRequest: record.oracleRequest,
    requestSignature: record.requestSignature,
    requestedSlot: record.requestedSlot,
    fulfilledSlot: record.fulfilledSlot,
    settleSignature: record.settleSignature,
    expireSignature: record.expireSignature,
    claimSignature: record.claimSignature,
    bucket: record.bucket,
    payout: record.payout,
    payoutPending: record.payoutPending,
    attempts: record.attempts,
    nextAttemptAt: record.nextAttemptAt,
    lastError: record.lastError === null ? null : lastErrorInWords(record.lastError),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  });

  const status = (): StatusView => {
    const settings = effective();
    const keeper = keeperSide?.core.keeper;
    return {
      phase,
      error: coreError,
      host: options.host,
      cluster: chain?.view ?? null,
      keeper: keeper && keeperSide ? { address: keeper.address, keySource: keeperSide.keySource } : null,
      paused: settings.paused,
      apiUrl: api?.url ?? null,
      faucet: Boolean(keeperSide?.core.faucet),
      demo: keeperSide?.demo?.view() ?? unavailableDemo(settings.demoIntervalMs, demoUnavailableReason(settings)),
      startedAt,
    };
  };
  const emitStatus = () => emit({ type: 'status', status: status() });

  const health = async (): Promise<HealthView> => {
    const keeper = keeperSide?.core.keeper;
    const record = keeper ? await keeper.health() : null;
    const lamports = record ? BigInt(record.lamports) : 0n;
    const summary = keeper?.earnings.summary();
    const lamportsPerCrank = summary && summary.cranks > 0 ? Math.max(1, Math.round(summary.feeLamports / summary.cranks)) : BASE_FEE_LAMPORTS;
    return {
      lamports: lamports.toString(),
      lastTick: record?.lastTick ?? 0,
      queue: record?.queue ?? 0,
      // Waiting for a deployment is not an RPC error (the cluster answers; status says what is missing).
      rpcError: record?.rpcError ?? (keeper || phase === 'noDeployment' ? null : coreError),
      slot: probe.slot,
      rpcLatencyMs: probe.latencyMs,
      checkedAt: probe.checkedAt,
      runway: { lamportsPerCrank, cranks: Number(lamports / BigInt(lamportsPerCrank)), low: lamports < BigInt(LOW_BALANCE_LAMPORTS) },
      oracleWait: oracleWait(keeper?.records.byState(['requested']) ?? [], probe.slot),
      // The keeper names refusals by code; people read the sentence.
      overdue: (keeper?.overdueRequests() ?? []).map((entry) => ({ ...entry, lastError: entry.lastError === null ? null : lastErrorInWords(entry.lastError) })),
    };
  };

  /** Slot and round trip of the current RPC, once a second: the status line and the queue's countdowns. */
  const probeRpc = async () => {
    if (!chain) return;
    const rpc = keeperSide?.core.connection.rpc ?? createSolanaRpc(chain.rpcUrl);
    const started = performance.now();
    try {
      const slot = await rpc.getSlot({ commitment: 'confirmed' }).send({ abortSignal: AbortSignal.timeout(5_000) });
      probe = { slot: Number(slot), latencyMs: Math.round(performance.now() - started), checkedAt: Date.now() };
    } catch {
      probe = { slot: probe.slot, latencyMs: null, checkedAt: Date.now() };
    }
    if (!stopped) emit({ type: 'health', health: await health() });
  };

  // ---- the chain side
  /** The deployment file for `setting`'s cluster: --deployment for the flags' cluster, else the one loaded in Settings for this genesis. */
  const deploymentFileFor = (setting: ClusterSetting, genesisHash: string | null): { path: string; named: boolean } | null => {
    if (flags.deploymentFile && JSON.stringify(setting) === JSON.stringify(flags.cluster)) return { path: flags.deploymentFile, named: true };
    const remembered = genesisHash ? options.settings.store.deploymentFiles?.find((entry) => entry.genesisHash === genesisHash) : undefined;
    return remembered ? { path: remembered.path, named: false } : null;
  };

  const startChain = async (setting: ClusterSetting, initial: boolean): Promise<ChainSide> => {
    if (setting.kind === 'embedded') {
      const rpcPort = flags.embeddedRpcPort ?? (options.host === 'desktop' ? 0 : 8899);
      const localnet = await startLocalnet({ rpcPort, slotMs: flags.embeddedSlotMs }).catch((error: unknown) => {
        throw localnetListenError(error, rpcPort, undefined, 'the WebSocket port');
      });
      const dbPath = flags.dbPath ?? join(await mkdtemp(join(tmpdir(), 'wager-keeper-')), 'keeper.db');
      const genesisHash = localnet.manifest.genesisHash;
      // This app's own localnet: the deployment its genesis made.
      const deployment = localnet.manifest.deployment;
      const source: DeploymentSource = { kind: 'localnet' };
      return {
        setting,
        localnet,
        rpcUrl: localnet.rpcUrl,
        wsUrl: localnet.wsUrl,
        manifest: localnet.manifest,
        deployment,
        deploymentSource: source,
        dbPath,
        view: {
          name: 'localnet',
          rpcUrl: localnet.rpcUrl,
          wsUrl: localnet.wsUrl,
          genesisHash,
          embedded: true,
          wagerKeeperLocalnet: true,
          deployment: deploymentView(deployment, source),
          noDeployment: null,
        },
      };
    }
    const rpcUrl = setting.rpcUrl;
    const anyManifest = await fetchLocalnetManifest(rpcUrl).catch(() => null);
    // A bare localnet has none of our programs, dev keys or mint: used like a public cluster.
    const manifest = anyManifest && !anyManifest.bare ? anyManifest : null;
    const wsUrl = setting.wsUrl ?? anyManifest?.wsUrl ?? defaultWebSocketUrl(rpcUrl);
    const genesisHash = await createSolanaRpc(rpcUrl)
      .getGenesisHash()
      .send({ abortSignal: AbortSignal.timeout(8_000) })
      .catch(() => null);
    const name: ClusterName = clusterNameOf(genesisHash, anyManifest !== null);
    // Where the service is on this cluster. Headless commands exit with the resolver's own error (it names
    // the cluster and --deployment/deploy); the console says so and waits for a file to be loaded.
    const file = deploymentFileFor(setting, genesisHash);
    let deployment: Deployment | null = null;
    let deploymentSource: DeploymentSource | null = null;
    let noDeployment: string | null = null;
    try {
      const resolved = await resolveDeploymentForRpc(rpcUrl, { file: file?.path, manifest: anyManifest, ...(genesisHash ? { genesisHash } : {}) });
      deployment = resolved.deployment;
      deploymentSource = resolved.source;
    } catch (error) {
      if ((initial && options.failFast) || !(error instanceof Error)) throw error;
      if (genesisHash === null) throw error; // unreachable, and no file to go by: the core fails with the reason
      noDeployment =
        error instanceof NoDeploymentError
          ? noDeploymentText(name, genesisHash)
          : `${noDeploymentText(name, genesisHash)} The deployment file ${file?.named ? 'named by --deployment' : 'loaded for it before'} cannot be used: ${error.message}`;
    }
    // Records per cluster: a localnet's chain is new every run (a fresh file); a long-lived cluster keeps its
    // file, so a restart resumes every wager. `serve --rpc`/`keeper --rpc` keep the documented keeper.db.
    const clusterFile = `keeper-${name}-${createHash('sha256').update(genesisHash ?? rpcUrl).digest('hex').slice(0, 8)}.db`;
    const dbPath =
      flags.dbPath ??
      (initial && options.host === 'headless'
        ? join(options.dataDir, 'keeper.db')
        : anyManifest
          ? join(await mkdtemp(join(tmpdir(), 'wager-keeper-')), 'keeper.db')
          : join(options.dataDir, clusterFile));
    return {
      setting,
      rpcUrl,
      wsUrl,
      manifest,
      deployment,
      deploymentSource,
      dbPath,
      view: {
        name,
        rpcUrl,
        wsUrl,
        genesisHash,
        embedded: false,
        wagerKeeperLocalnet: anyManifest !== null,
        deployment: deployment && deploymentSource ? deploymentView(deployment, deploymentSource) : null,
        noDeployment,
      },
    };
  };

  const keeperKey = async (side: ChainSide): Promise<{ signer: KeyPairSigner; source: KeySource }> => {
    if (flags.keypairFile) return { signer: await readKeypairFile(flags.keypairFile), source: 'file' };
    // On a wager-keeper localnet the keeper cranks with its funded dev key: a first start needs no set-up.
    if (side.manifest && options.devKeyOnLocalnet !== false)
      return { signer: await keypairFromBytes(side.manifest.devKeys.keeper.keypair), source: 'localnet dev key' };
    const key = await loadKeeperKey({ account: keychainAccount });
    return { signer: key.signer, source: key.source === 'file' ? 'file' : key.source };
  };

  /**
   * The deployment's guardian key, where this console holds it: `--guardian-keypair FILE`; on a wager-keeper
   * localnet its dev guardian key (unless the host keeps its own keys, as `keeper` does); else the one
   * imported into the OS keychain. Checked against the config's guardian on chain: at the first start a
   * wrong --guardian-keypair stops the command; otherwise the console says why it holds no usable key.
   */
  const guardianKeyFor = async (side: ChainSide, deployment: Deployment, initial: boolean): Promise<{ signer: KeyPairSigner; source: GuardianKeySource } | { problem: string }> => {
    const file = flags.guardianKeypairFile;
    let key: { signer: KeyPairSigner; source: GuardianKeySource };
    try {
      if (file) key = { signer: await readKeypairFile(file), source: 'file' };
      else if (side.manifest && options.devKeyOnLocalnet !== false) key = { signer: await keypairFromBytes(side.manifest.devKeys.guardian.keypair), source: 'localnet dev key' };
      else {
        const signer = await readGuardianKey(guardianKeychainAccount);
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
  };

  const startKeeperSide = async (side: ChainSide, deployment: Deployment, initial: boolean): Promise<KeeperSide> => {
    const settings = effective();
    const key = await keeperKey(side);
    const guardianKey = await guardianKeyFor(side, deployment, initial);
    // This keeper grants test USDC itself only when it holds the deployment's mint authority.
    if (initial && flags.faucet && flags.faucet.mint !== deployment.usdcMint)
      throw new Error(`--faucet-mint ${flags.faucet.mint} is not this deployment's USDC mint (${deployment.usdcMint}): the faucet would grant a token no wager takes`);
    const faucet =
      side.manifest && side.manifest.usdcMint === deployment.usdcMint
        ? { mint: side.manifest.usdcMint as Address, mintAuthority: await keypairFromBytes(side.manifest.mintAuthority) }
        : initial
          ? flags.faucet
          : undefined;
    const core = await startKeeperCore({
      rpcUrl: side.rpcUrl,
      wsUrl: side.wsUrl,
      programAddress: address(deployment.programs.wager),
      signer: key.signer,
      dbPath: side.dbPath,
      priorityFeeMicroLamports: settings.priorityFeeMicroLamports > 0 ? BigInt(settings.priorityFeeMicroLamports) : undefined,
      maxInFlight: settings.maxInFlight,
      faucet,
      paused: settings.paused,
      ...('signer' in guardianKey
        ? { guardian: { signer: guardianKey.signer, automatic: settings.guardianAutomatic, pauseAfterSlots: settings.guardianPauseAfterSlots, resumeAfterSlots: settings.guardianResumeAfterSlots } }
        : {}),
      logger: log,
    });
    for (const paytable of deployment.paytables) paytableNames.set(paytable.address, paytable.name);
    const stepLog = createStepLog(core.db);
    const { events } = core.keeper;
    const onRecord = (record: WagerRecord) => {
      pendingRecords.set(record.address, toRow(record));
      scheduleFlush();
      keeperEvents.emit('record', record);
    };
    const onStep: (...args: KeeperEvents['step']) => void = (step) => {
      const view: StepView = { at: Date.now(), wager: step.wager, step: step.step, outcome: step.outcome, signature: step.signature ?? null, error: step.error ?? null };
      stepLog.record({ atMs: view.at, wager: view.wager, step: view.step, outcome: view.outcome, signature: view.signature, error: view.error });
      pendingSteps.push(view);
      scheduleFlush();
      keeperEvents.emit('step', step);
    };
    const onEarnings: (...args: KeeperEvents['earnings']) => void = (entry) => {
      emit({ type: 'earnings' });
      keeperEvents.emit('earnings', entry);
    };
    const onLatency: (...args: KeeperEvents['latency']) => void = (latency) => {
      emit({ type: 'latency', latency: [{ ...latency, at: new Date().toISOString() }] });
      keeperEvents.emit('latency', latency);
    };
    const onHealth: (...args: KeeperEvents['health']) => void = (record) => keeperEvents.emit('health', record);
    const onGuardianAction = (action: GuardianAction) => {
      emit({ type: 'guardian' });
      guardianEvents.emit('action', action);
    };
    core.guardian?.events.on('action', onGuardianAction);
    events.on('record', onRecord);
    events.on('step', onStep);
    events.on('earnings', onEarnings);
    events.on('latency', onLatency);
    events.on('health', onHealth);
    const started: KeeperSide = {
      core,
      signer: key.signer,
      keySource: key.source,
      guardianKey: 'signer' in guardianKey ? { address: guardianKey.signer.address, source: guardianKey.source } : null,
      guardianKeyProblem: 'problem' in guardianKey ? guardianKey.problem : null,
      stepLog,
      demo: null,
      stopped: false,
      async stop() {
        started.stopped = true;
        started.demo?.stop();
        started.demo = null;
        await core.stop();
        events.off('record', onRecord);
        events.off('step', onStep);
        events.off('earnings', onEarnings);
        events.off('latency', onLatency);
        events.off('health', onHealth);
        core.guardian?.events.off('action', onGuardianAction);
      },
    };
    await syncDemo(started, side, deployment);
    return started;
  };

  /**
   * Starts or ends the demo app as the cluster and the settings allow (demoPlacement): on a wager-keeper
   * localnet it stakes the dev app key's test USDC; elsewhere the keeper key's own (fund it at the faucet).
   */
  const syncDemo = async (side: KeeperSide, chainSide: ChainSide, deployment: Deployment) => {
    const settings = effective();
    const allowed = demoPlacement(chainSide.view, settings.demoOnTestNetworks).allowed;
    if (!allowed) {
      side.demo?.stop();
      side.demo = null;
      return;
    }
    if (side.demo) return side.demo.configure({ enabled: settings.demoEnabled, intervalMs: settings.demoIntervalMs });
    const stakeOwner = chainSide.manifest ? await keypairFromBytes(chainSide.manifest.devKeys.app.keypair) : side.signer;
    if (side.stopped || side.demo) return; // stopped or started meanwhile
    side.demo = createDemoApp({ rpc: side.core.connection.rpc, deployment, stakeOwner, enabled: settings.demoEnabled, intervalMs: settings.demoIntervalMs, onChange: emitStatus });
  };

  /** Why the demo app does not run now (the status shows it in place of the demo's figures). */
  const demoUnavailableReason = (settings: ConsoleSettings): string => {
    if (!chain) return 'no cluster is running';
    if (!chain.deployment) return 'no deployment is known for this cluster';
    const placement = demoPlacement(chain.view, settings.demoOnTestNetworks);
    return placement.allowed ? 'the keeper is not running' : placement.reason;
  };

  const stopCore = async (what: 'keeper' | 'all') => {
    const side = keeperSide;
    keeperSide = undefined;
    await side?.stop();
    if (what === 'all') {
      const old = chain;
      chain = undefined;
      await old?.localnet?.stop();
    }
  };

  /** Starts (or restarts) the core on `setting`; keeps the chain side when only the keeper must restart. */
  const runCore = async (setting: ClusterSetting | null, initial: boolean) => {
    phase = 'starting';
    coreError = null;
    emitStatus();
    try {
      await stopCore(setting ? 'all' : 'keeper');
      if (setting) chain = await startChain(setting, initial);
      if (!chain) throw new Error('no cluster chosen');
      if (chain.deployment) {
        keeperSide = await startKeeperSide(chain, chain.deployment, initial);
        startedAt = Date.now();
        phase = 'running';
        log.info({ cluster: chain.view.name, rpc: chain.rpcUrl, keeper: keeperSide.core.keeper.address, deployment: deploymentSummary(chain.deployment) }, 'keeper core running');
      } else {
        // Not a failure: the cluster answers, the keeper waits for a deployment file (Settings → Cluster).
        phase = 'noDeployment';
        coreError = chain.view.noDeployment;
        log.warn({ cluster: chain.view.name, genesisHash: chain.view.genesisHash }, 'no deployment known for this cluster: the keeper waits for one');
      }
    } catch (error) {
      phase = 'failed';
      const message = (error as Error).message;
      coreError = setting?.kind === 'rpc' ? `the keeper could not start on ${setting.rpcUrl}: ${message}` : `the keeper could not start: ${message}`;
      coreError += '. Choose another cluster or fix the RPC URL in Settings, then switch again.';
      log.error({ error: message }, 'keeper core failed to start');
      emitStatus();
      throw error;
    }
    emitStatus();
    void probeRpc();
  };
  const change = <T>(work: () => Promise<T>): Promise<T> => {
    const next = changing.then(work, work);
    changing = next.catch(() => undefined);
    return next;
  };

  /** The deployment the keeper runs against (the operator's actions need one). */
  const requireDeployment = (): Deployment => {
    if (!chain?.deployment) throw new KeeperUnavailableError(chain?.view.noDeployment ?? 'the keeper is not running: see Settings');
    return chain.deployment;
  };
  /** The wager program of the current deployment. */
  const wagerProgram = () => address(requireDeployment().programs.wager);
  /** Sends a crank the operator asked for and says what it did, with the fee it earned (from its booking). */
  const operatorCrank = (side: KeeperSide, step: 'strike_epoch' | 'claim_deposit' | 'claim_withdraw', subject: string, instructions: Instruction[]) =>
    bookedCrank(side, () => side.core.keeper.crank(step, subject, instructions));
  /** What the Liquidity screen reads and simulates with: the keeper's RPC and key, the deployment's programs. */
  const liquidityContext = (side: KeeperSide): LiquidityContext => {
    const deployment = requireDeployment();
    return {
      rpc: side.core.connection.rpc,
      program: address(deployment.programs.wager),
      usdcMint: address(deployment.usdcMint),
      caller: side.signer,
      simulate: simulatorFor(side.core.connection.rpc, side.signer),
      programs: { wager: address(deployment.programs.wager), oracle: address(deployment.programs.oracle) },
    };
  };
  /** Runs one crank and answers what it did, with the fee its booking recorded. */
  const bookedCrank = async (side: KeeperSide, send: () => Promise<CrankResult>): Promise<CrankActionView> => {
    const fees = new Map<string, number>();
    const onEarnings: (...args: KeeperEvents['earnings']) => void = (entry) => void (entry.signature && fees.set(entry.signature, entry.receivedLamports));
    side.core.keeper.events.on('earnings', onEarnings);
    try {
      const result = await send();
      if (result.outcome !== 'landed') {
        const error = 'error' in result ? result.error : result.reason;
        return { outcome: result.outcome, error, sentence: explainCode(error) };
      }
      return { outcome: 'landed', signature: result.signature, feeLamports: fees.get(result.signature) ?? 0 };
    } finally {
      side.core.keeper.events.off('earnings', onEarnings);
    }
  };

  /** Which faucet the console uses: this keeper's own (it holds the test mint's authority), the deployment keeper's, or none and why. */
  const faucetSource = (): Exclude<FaucetView, { source: 'deployment keeper' }> | { source: 'deployment keeper'; keeperApi: string; status: null; error: null } => {
    const own = keeperSide?.core.faucet;
    if (own) return { source: 'this keeper', status: own.status() };
    if (!chain) return { source: 'none', reason: 'no cluster is running' };
    if (chain.view.name === 'mainnet-beta') return { source: 'none', reason: 'mainnet-beta has no faucet: its USDC is real' };
    const deployment = chain.deployment;
    if (!deployment) return { source: 'none', reason: 'no deployment is known for this cluster (Settings → Cluster), so there is no test USDC mint to grant' };
    if (deployment.keeperApi) return { source: 'deployment keeper', keeperApi: deployment.keeperApi, status: null, error: null };
    return {
      source: 'none',
      reason:
        "this keeper does not hold the test USDC mint's authority (a wager-keeper localnet's, or `keeper --faucet-mint MINT --faucet-authority FILE`), and the deployment names no public keeper (`keeperApi`) whose faucet it could ask",
    };
  };

  /** Why there is no keeper to act through: no deployment known here (say so), or it is not running. */
  const notRunning = (what: string) =>
    new KeeperUnavailableError(phase === 'noDeployment' && chain?.view.noDeployment ? chain.view.noDeployment : `the keeper is not running: ${what}`);

  const requireKeeper = () => {
    if (!keeperSide)
      throw new KeeperUnavailableError(phase === 'failed' || phase === 'noDeployment' ? (coreError ?? 'the keeper is not running') : 'the keeper is restarting');
    return keeperSide.core.keeper;
  };

  const keyView = async (): Promise<KeyView> => {
    let keychain: KeyView['keychain'];
    try {
      keychain = { address: await readKeeperKeyAddress(keychainAccount), error: null };
    } catch (error) {
      keychain = { address: null, error: (error as Error).message };
    }
    const keeper = keeperSide?.core.keeper;
    return { inUse: keeper && keeperSide ? { address: keeper.address, source: keeperSide.keySource } : null, keychain };
  };

  const emptyTotals = (): EarningsTotals => ({ receivedLamports: 0, feeLamports: 0, netLamports: 0, cranks: 0 });
  const totals = (summary: { receivedLamports: number; feeLamports: number; cranks: number }): EarningsTotals => ({
    ...summary,
    netLamports: summary.receivedLamports - summary.feeLamports,
  });

  /** The keeper key in the keychain changed: restart the keeper if it cranks with that key. */
  const afterKeyChange = async () => {
    if (keeperSide?.keySource === 'keychain' || keeperSide?.keySource === 'keychain (created)') await change(() => runCore(null, false)).catch(() => undefined);
    return keyView();
  };

  const operatorApi: OperatorApi = {
    status: async () => status(),
    health,
    async overview({ dayStartMs }) {
      const keeper = keeperSide?.core.keeper;
      const now = Date.now();
      if (!keeper || !keeperSide) {
        return {
          queueCounts: { queued: 0, requested: 0, fulfilled: 0, settled: 0, expired: 0, unknown: 0 },
          parkedPayouts: 0,
          cranksToday: { landed: 0, lost: 0, skipped: 0, failed: 0 },
          earnings: { today: emptyTotals(), week: emptyTotals(), all: emptyTotals() },
        };
      }
      const counts = keeper.records.countsByState();
      return {
        queueCounts: counts.states,
        parkedPayouts: counts.parkedPayouts,
        cranksToday: keeperSide.stepLog.countsSince(dayStartMs),
        earnings: {
          today: totals(keeper.earnings.summary(dayStartMs)),
          week: totals(keeper.earnings.summary(now - 7 * DAY_MS)),
          all: totals(keeper.earnings.summary()),
        },
      };
    },
    async queue() {
      const keeper = keeperSide?.core.keeper;
      if (!keeper) return [];
      // In progress, parked payouts, and what finished in the last few minutes (so a cranker sees it end).
      const records = [
        ...keeper.records.byState(IN_PROGRESS_STATES),
        ...keeper.records.withParkedPayout(),
        ...keeper.records.finishedSince(new Date(Date.now() - RECENTLY_FINISHED_MS), RECENTLY_FINISHED_LIMIT),
      ];
      const unknown = [...new Set(records.flatMap((r) => (r.paytable && !paytableNames.has(r.paytable) ? [r.paytable] : [])))];
      if (unknown.length) {
        for (const [address, name] of await fetchPaytableNames(keeperSide!.core.connection.rpc, unknown).catch(() => new Map<string, string>()))
          paytableNames.set(address, name);
      }
      return records.map(toRow);
    },
    async wager({ address }) {
      const record = keeperSide?.core.keeper.records.get(address);
      return record ? toRow(record) : null;
    },
    async earningsSeries({ sinceMs, bucketMs }) {
      const keeper = keeperSide?.core.keeper;
      if (!keeper) return [];
      if (!(bucketMs >= 1_000)) throw new Error('bucketMs must be at least 1000 (one second)');
      return keeper.earnings.totals(sinceMs, bucketMs).map((point) => ({
        bucketStart: Number(point.bucketStart),
        receivedLamports: Number(point.receivedLamports),
        feeLamports: Number(point.feeLamports),
        netLamports: Number(point.receivedLamports) - Number(point.feeLamports),
        cranks: Number(point.cranks),
      }));
    },
    async recentSteps({ limit }) {
      if (!keeperSide) return [];
      return keeperSide.stepLog.recent(Math.min(Math.max(1, limit), 1_000)).map((entry) => ({
        at: entry.atMs,
        wager: entry.wager,
        step: entry.step,
        outcome: entry.outcome,
        signature: entry.signature,
        error: entry.error,
      }));
    },
    async oracleLatency({ limit }) {
      return keeperSide?.core.keeper.oracleLatency.history(Math.min(Math.max(1, limit), 1_000)) ?? [];
    },
    async settings() {
      return { settings: effective(), key: await keyView(), fixedByFlags: fixedByFlags() };
    },
    async setPaused({ paused }) {
      if (typeof paused !== 'boolean') throw new Error('paused must be true or false');
      options.settings.set({ paused });
      keeperSide?.core.keeper.setPaused(paused);
      emitStatus();
      return status();
    },
    async saveSettings({ changes }) {
      const checked = validateSettingsChanges(changes ?? {});
      for (const key of fixedByFlags())
        if (key in checked) throw new Error(`${key} is set by a command-line flag for this run; restart without the flag to change it here`);
      const before = effective();
      // Compared with the cluster running now (headless hosts start on their flags, not on the saved one).
      const clusterChanged = checked.cluster !== undefined && JSON.stringify(checked.cluster) !== JSON.stringify(chain?.setting);
      if (checked.cluster?.kind === 'rpc' && clusterChanged) {
        // Refuse a cluster we cannot reach before anything stops: the running keeper keeps running.
        const test = await testRpcConnection(checked.cluster.rpcUrl);
        if (!test.ok) throw new Error(`${test.error} Nothing was changed: the keeper keeps running on ${chain?.rpcUrl ?? 'its current cluster'}.`);
      }
      options.settings.set(checked);
      const after = effective();
      if (checked.paused !== undefined) keeperSide?.core.keeper.setPaused(after.paused);
      if (checked.guardianAutomatic !== undefined || checked.guardianPauseAfterSlots !== undefined || checked.guardianResumeAfterSlots !== undefined) {
        // At once, beside the running keeper (no restart).
        keeperSide?.core.guardian?.configure({ automatic: after.guardianAutomatic, pauseAfterSlots: after.guardianPauseAfterSlots, resumeAfterSlots: after.guardianResumeAfterSlots });
        emit({ type: 'guardian' });
      }
      if (keeperSide && chain?.deployment) await syncDemo(keeperSide, chain, chain.deployment);
      const loopChanged = before.priorityFeeMicroLamports !== after.priorityFeeMicroLamports || before.maxInFlight !== after.maxInFlight;
      let restarted = false;
      if (clusterChanged && checked.cluster) {
        await change(() => runCore(checked.cluster!, false));
        restarted = true;
      } else if (loopChanged && chain) {
        await change(() => runCore(null, false));
        restarted = true;
      } else emitStatus();
      return { view: await operatorApi.settings(), restarted };
    },
    testConnection: async ({ rpcUrl }) => testRpcConnection(rpcUrl),
    async inspect({ address: target }) {
      const text = typeof target === 'string' ? target.trim() : '';
      if (!isAddress(text))
        return { address: text, problem: { kind: 'notAddress', message: `'${text}' is not a Solana address: paste a wager's address (base58, 32 to 44 characters)` }, report: {}, record: null, slots: null, paytable: null };
      const side = keeperSide;
      if (!side || !chain) throw notRunning('the Inspector reads the chain through it; see Settings');
      const deployment = requireDeployment();
      const source = chain.deploymentSource;
      const inspection = await inspectWager(side.core.connection.rpc, chain.rpcUrl, address(text), {
        programs: { wager: address(deployment.programs.wager), oracle: address(deployment.programs.oracle) },
        ...(source?.kind === 'file' || source?.kind === 'folder' ? { file: source.path } : {}),
      });
      const record = side.core.keeper.records.get(text);
      // An address with nothing on chain may still be a wager this keeper finished: its record answers.
      const problem = inspection.notAWager && !(inspection.notAWager.kind === 'nothingHere' && record) ? { kind: inspection.notAWager.kind, message: inspection.notAWager.message } : null;
      return { address: text, problem, report: inspection.report as InspectionView['report'], record: record ? toRow(record) : null, slots: inspection.slots, paytable: inspection.paytable };
    },
    async searchAddress({ address: target }) {
      const side = keeperSide;
      if (!side || !chain) throw notRunning('the search reads the chain through it; see Settings');
      const deployment = requireDeployment();
      const records = side.core.keeper.records;
      return searchAddress(
        side.core.connection.rpc,
        { program: address(deployment.programs.wager), pool: deployment.pool, usdcMint: deployment.usdcMint, config: deployment.config, paytables: deployment.paytables, record: (wager) => records.get(wager) },
        typeof target === 'string' ? target : '',
      );
    },
    async handToKeeper({ address: target }) {
      if (typeof target !== 'string' || !isAddress(target)) throw new Error(`'${target}' is not a Solana address`);
      const keeper = requireKeeper();
      const result = await keeper.submitWager(address(target));
      if (result.kind === 'accountNotFound') throw new Error('no account at this address: a closed wager needs no keeper (see how it ended above)');
      if (result.kind === 'notAWager') throw new Error('this account is not a wager of this service: the keeper cannot crank it');
      const record = keeper.records.get(target);
      return record ? toRow(record) : null;
    },
    async claimPayout({ address: target }) {
      if (typeof target !== 'string' || !isAddress(target)) throw new Error(`'${target}' is not a Solana address`);
      const side = keeperSide;
      if (!side) throw notRunning('see Settings');
      return bookedCrank(side, () => side.core.keeper.claimPayoutNow(address(target)));
    },
    async liquidity({ owner }) {
      if (owner !== null && owner !== undefined && owner !== '' && !isAddress(owner.trim())) throw new Error(`'${owner}' is not a Solana address: filter by an LP's wallet address`);
      const side = keeperSide;
      if (!side || !chain) throw notRunning('see Settings');
      return readLiquidity(liquidityContext(side), owner ? owner.trim() : null);
    },
    async strikeEpoch(args) {
      const side = keeperSide;
      if (!side) throw notRunning('see Settings');
      const { epoch, subject, instructions } = await strikeInstruction(side.core.connection.rpc, wagerProgram(), side.signer);
      // The screen showed an older epoch: someone struck it meanwhile (striking the next one was not asked).
      if (typeof args?.epoch === 'number' && BigInt(args.epoch) < epoch)
        return { outcome: 'lost', error: 'alreadyStruck', sentence: `Already struck: epoch ${args.epoch} was struck meanwhile; the live epoch is now ${epoch}.` };
      return operatorCrank(side, 'strike_epoch', subject, instructions);
    },
    async claimLiquidity({ request }) {
      const side = keeperSide;
      if (!side) throw notRunning('see Settings');
      if (typeof request !== 'string' || !isAddress(request)) throw new Error(`'${request}' is not a request address`);
      const context = liquidityContext(side);
      const { kind, instructions, destination } = await claimInstruction(context, address(request));
      const result = await operatorCrank(side, kind === 'deposit' ? 'claim_deposit' : 'claim_withdraw', request, instructions);
      return result.outcome === 'landed' ? { ...result, balance: await balanceAfterClaim(context.rpc, kind, destination) } : result;
    },
    async localOracle() {
      if (!chain?.view.wagerKeeperLocalnet) return null;
      return localOracleStatus(chain.rpcUrl);
    },
    async setLocalOracleStalled({ stalled }) {
      if (!chain?.view.wagerKeeperLocalnet) throw new Error('only a wager-keeper localnet has an oracle the console can stall; this cluster\'s oracle is not ours to stop');
      if (typeof stalled !== 'boolean') throw new Error('stalled must be true or false');
      await (stalled ? stallLocalOracle(chain.rpcUrl) : resumeLocalOracle(chain.rpcUrl));
      log.warn({ stalled }, stalled ? 'local oracle stalled from the console' : 'local oracle resumed from the console');
      return localOracleStatus(chain.rpcUrl);
    },
    async faucetStatus() {
      const source = faucetSource();
      if (source.source !== 'deployment keeper') return source;
      try {
        return { ...source, status: await remoteFaucetStatus(source.keeperApi), error: null };
      } catch (error) {
        return { ...source, error: (error as Error).message };
      }
    },
    async faucetClaim({ owner }) {
      if (typeof owner !== 'string' || !isAddress(owner.trim())) throw new Error(`'${owner}' is not a Solana address: paste a wallet address (base58, 32 to 44 characters)`);
      const source = faucetSource();
      if (source.source === 'none') throw new Error(`no faucet on this cluster: ${source.reason}`);
      // Claims from the console count against the same per-wallet and daily limits; one "client" for the console.
      if (source.source === 'this keeper') return { ...(await keeperSide!.core.faucet!.claim(address(owner.trim()), 'operator console')), answeredBy: 'this keeper' };
      return { ...(await remoteFaucetClaim(source.keeperApi, owner.trim())), answeredBy: source.keeperApi };
    },
    async loadDeployment({ path }) {
      if (typeof path !== 'string' || path.trim() === '') throw new Error('give the path of a deployment file (the JSON `wager-keeper deploy` writes) on the machine that runs the keeper');
      const file = resolve(path.trim().replace(/^~(?=\/)/, process.env.HOME ?? '~'));
      const side = chain;
      const genesisHash = side?.view.genesisHash;
      if (!side || !genesisHash) throw new Error('no cluster is running to load a deployment for: switch to one first (Settings → Cluster)');
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new Error(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): give the path of a deployment file on the machine that runs the keeper`, { cause: error });
      }
      const deployment = parseDeploymentText(text, file);
      if (deployment.cluster.genesisHash !== genesisHash) throw new DeploymentClusterMismatchError(file, deployment, genesisHash);
      // Remembered for this cluster only (by genesis hash): the next start on it finds the file again.
      const others = (options.settings.store.deploymentFiles ?? []).filter((entry) => entry.genesisHash !== genesisHash);
      options.settings.set({ deploymentFiles: [...others, { genesisHash, path: file }] });
      await change(async () => {
        if (chain !== side) throw new Error('the cluster changed meanwhile: load the deployment again for the new one');
        const source: DeploymentSource = { kind: 'file', path: file };
        side.deployment = deployment;
        side.deploymentSource = source;
        side.view = { ...side.view, deployment: deploymentView(deployment, source), noDeployment: null };
        log.info({ file, deployment: deploymentSummary(deployment) }, 'deployment loaded from the console');
        await runCore(null, false);
      });
      return status();
    },
    async guardian() {
      const settings = effective();
      const side = keeperSide;
      const deployment = chain?.deployment ?? null;
      const guardian = side?.core.guardian;
      let keychain: GuardianView['keychain'];
      try {
        keychain = { address: await readGuardianKeyAddress(guardianKeychainAccount), error: null };
      } catch (error) {
        keychain = { address: null, error: (error as Error).message };
      }
      let onChain: { paused: boolean; guardian: string } | null = null;
      let readError: string | null = null;
      if (deployment && chain) {
        try {
          const rpc = side?.core.connection.rpc ?? createSolanaRpc(chain.rpcUrl);
          const config = await fetchConfig(rpc, address(deployment.config), address(deployment.programs.wager));
          onChain = { paused: config.paused !== 0, guardian: config.guardian };
        } catch (error) {
          readError = `cannot read the config on chain: ${(error as Error).message}`;
        }
      } else readError = chain?.view.noDeployment ?? 'no cluster is running';
      const state = guardian?.state();
      return {
        guardian: onChain?.guardian ?? deployment?.guardian ?? null,
        paused: onChain?.paused ?? null,
        readError,
        key: side?.guardianKey ?? null,
        keyProblem: side ? side.guardianKeyProblem : 'the keeper is not running, so neither is its guardian',
        keychain,
        automatic: {
          enabled: settings.guardianAutomatic,
          running: Boolean(state?.automatic),
          pauseAfterSlots: state?.pauseAfterSlots ?? settings.guardianPauseAfterSlots,
          resumeAfterSlots: state?.resumeAfterSlots ?? settings.guardianResumeAfterSlots,
          lastError: state?.lastError ?? null,
        },
        pausedByGuardian: Boolean(state?.pausedByGuardian && onChain?.paused),
        actions: guardian?.actions() ?? [],
      };
    },
    async setNewWagersPaused({ paused }) {
      if (typeof paused !== 'boolean') throw new Error('paused must be true or false');
      const side = keeperSide;
      if (!side) throw notRunning('see Settings');
      const guardian = side.core.guardian;
      if (!guardian)
        throw new Error(`only the deployment's guardian (${chain?.deployment?.guardian ?? 'see the deployment'}) can ${paused ? 'pause' : 'resume'} new wagers, and ${side.guardianKeyProblem ?? 'this console does not hold its key'}`);
      return guardian.setPaused(paused, paused ? 'paused by a person from the console' : 'resumed by a person from the console');
    },
    async importGuardianKey({ path, replace }) {
      if (typeof path !== 'string' || path.trim() === '') throw new Error("give the path of the guardian's Solana CLI keypair file (a JSON array of 64 bytes) on the machine that runs the keeper");
      const file = path.trim().replace(/^~(?=\/)/, process.env.HOME ?? '~');
      const { signer, bytes } = await readKeypairFileBytes(file);
      const existing = await readGuardianKeyAddress(guardianKeychainAccount);
      if (existing && existing !== signer.address && !replace)
        throw new Error(`the keychain already holds a guardian key (${existing}); importing ${signer.address} replaces it: confirm the replacement`);
      storeGuardianKey(bytes, guardianKeychainAccount);
      bytes.fill(0);
      log.info({ address: signer.address }, 'guardian key imported into the OS keychain');
      // The guardian runs with the core's key: restart the keeper when the keychain is where its key comes from.
      const source = keeperSide?.guardianKey?.source;
      if (keeperSide && source !== 'file' && source !== 'localnet dev key') await change(() => runCore(null, false)).catch(() => undefined);
      emit({ type: 'guardian' });
      return operatorApi.guardian();
    },
    async generateKey({ replace }) {
      const existing = await readKeeperKeyAddress(keychainAccount);
      if (existing && !replace)
        throw new Error(
          `the keychain already holds a keeper key (${existing}); a new key replaces it, and SOL left on ${existing} stays there: move it first, then confirm the replacement`,
        );
      const fresh = await generateKeypairWithBytes();
      storeKeeperKey(fresh.secretKey, keychainAccount);
      log.info({ address: fresh.signer.address }, 'new keeper key stored in the OS keychain');
      return afterKeyChange();
    },
    async importKey({ path, replace }) {
      if (typeof path !== 'string' || path.trim() === '') throw new Error('give the path of a Solana CLI keypair file (a JSON array of 64 bytes), e.g. ~/.config/solana/id.json');
      const file = path.trim().replace(/^~(?=\/)/, process.env.HOME ?? '~');
      const { signer, bytes } = await readKeypairFileBytes(file);
      const existing = await readKeeperKeyAddress(keychainAccount);
      if (existing && existing !== signer.address && !replace)
        throw new Error(`the keychain already holds a keeper key (${existing}); importing ${signer.address} replaces it: confirm the replacement`);
      storeKeeperKey(bytes, keychainAccount);
      bytes.fill(0);
      log.info({ address: signer.address }, 'keeper key imported into the OS keychain');
      return afterKeyChange();
    },
  };

  const startApi = async () => {
    const settings = effective();
    const allowedOrigins = new Set<string>(settings.corsOrigins);
    const publicApi = createPublicApi({
      keeper: {
        submitWager: (address) => requireKeeper().submitWager(address),
        lookupWager: (address) => requireKeeper().lookupWager(address),
        health: () => requireKeeper().health(),
      },
      faucet: () => keeperSide?.core.faucet,
      allowedOrigins,
      onInternalError: (error, request) => log.error({ error: (error as Error)?.message, ...request }, 'public api error'),
    });
    const token = randomBytes(24).toString('base64url');
    const operatorHttp = options.console
      ? createOperatorHttp({ api: operatorApi, onEvent: (listener) => service.onEvent(listener), token, uiDirectory: options.console.uiDirectory, logger: log })
      : undefined;
    const fetch = operatorHttp ? operatorHttp.withConsole(publicApi.fetch) : publicApi.fetch;
    api = await listenPublicApi({ fetch } as Parameters<typeof listenPublicApi>[0], { port: settings.apiPort, host: settings.apiHost }).catch((error: unknown) => {
      throw listenError(error, '--port', settings.apiHost, settings.apiPort);
    });
    const server = api;
    stopHost.push(() => {
      operatorHttp?.endStreams();
      return server.close();
    });
    // --cors-origin names exactly the origins allowed (as before the console existed); otherwise the
    // console's own origins and the saved list.
    if (flags.corsOrigins === undefined) for (const origin of consoleOrigins(server)) allowedOrigins.add(origin);
    corsOrigins = [...allowedOrigins];
    if (operatorHttp) consoleUrl = `${consoleBase(server.url)}${OPERATOR_HTTP.consolePath}#token=${token}`;
    if (flags.metricsPort !== undefined) {
      const port = flags.metricsPort;
      const metrics = await listenOperator(createOperatorApp(createKeeperMetrics({ events: keeperEvents }, { events: guardianEvents })), port).catch((error: unknown) => {
        throw listenError(error, '--metrics-port', '127.0.0.1', port);
      });
      stopHost.push(() => new Promise<void>((resolve) => metrics.server.close(() => resolve())));
      metricsUrl = metrics.url;
    }
  };

  const service: OperatorService = {
    api: operatorApi,
    keeperEvents,
    guardianEvents,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start() {
      const initialCluster = flags.cluster ?? (options.host === 'desktop' ? options.settings.store.cluster : { kind: 'embedded' as const });
      try {
        await startApi();
        await change(() => runCore(initialCluster, true));
      } catch (error) {
        if (options.failFast) {
          await service.stop();
          throw error;
        }
      }
      probeTimer = setInterval(() => void probeRpc(), HEALTH_PROBE_MS);
      probeTimer.unref?.();
    },
    async stop() {
      stopped = true;
      clearInterval(probeTimer);
      clearTimeout(flushTimer);
      await changing;
      await stopCore('all');
      await stopInReverse(stopHost, log);
      listeners.clear();
    },
    describe: () => ({
      apiUrl: api?.url ?? '',
      consoleUrl,
      corsOrigins,
      metricsUrl,
      rpcUrl: chain?.rpcUrl ?? null,
      keeper: keeperSide?.core.keeper.address ?? null,
      keySource: keeperSide?.keySource ?? null,
      db: chain?.dbPath ?? null,
      faucet: Boolean(keeperSide?.core.faucet),
      genesisHash: chain?.view.genesisHash ?? null,
      network: chain?.view.genesisHash ? solanaNetworkId(chain.view.genesisHash) : null,
      manifest: chain?.manifest ?? null,
      deployment: chain?.deployment ?? null,
      guardian: keeperSide?.core.guardian ? { address: keeperSide.core.guardian.address, automatic: keeperSide.core.guardian.state().automatic } : null,
    }),
  };
  return service;
}

/** What Settings → Cluster shows of a deployment. */
function deploymentView(deployment: Deployment, source: DeploymentSource): DeploymentView {
  return {
    clusterName: deployment.cluster.name,
    genesisHash: deployment.cluster.genesisHash,
    wagerProgram: deployment.programs.wager,
    oracleProgram: deployment.programs.oracle,
    oracleName: oracleName(deployment.programs.oracle),
    usdcMint: deployment.usdcMint,
    pool: deployment.pool,
    config: deployment.config,
    paytables: deployment.paytables,
    keeperApi: deployment.keeperApi ?? null,
    source,
  };
}

/** The console's words for a cluster without a deployment: which cluster, and both ways forward. */
function noDeploymentText(name: ClusterName, genesisHash: string): string {
  return `No Wager Keeper deployment is known for cluster ${name} (genesis hash ${genesisHash}). Load its deployment file (Settings → Cluster), or make one with \`wager-keeper deploy\`.`;
}

/** How long this keeper's waiting oracle requests have waited, from their request slot (or open slot). */
export function oracleWait(requested: readonly WagerRecord[], slot: number | null): OracleWaitView {
  if (slot === null || requested.length === 0) return { waiting: requested.length, oldestWaitSlots: null };
  const oldest = Math.min(...requested.map((record) => record.requestedSlot ?? record.openSlot ?? slot));
  return { waiting: requested.length, oldestWaitSlots: Math.max(0, slot - oldest) };
}

/** The console is opened at 127.0.0.1 even when /v1 listens on every address (it answers loopback peers only). */
function consoleBase(apiUrl: string): string {
  const url = new URL(apiUrl);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = '127.0.0.1';
  return url.origin;
}
