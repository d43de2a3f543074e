/**
 * Keeper control: the core the console runs (a chain side and the keeper on it), started, restarted when
 * the cluster, the deployment or the loop's options change, and stopped; one change at a time. Answers
 * the status and health the console shows (the RPC probed once a second), pausing the crank loop and
 * running on a deployment file (the status service, operator/status-service.ts, answers the console).
 * The other services reach the running keeper through it.
 */
import { createSolanaRpc } from '@solana/kit';
import type { HeartbeatView } from '../../src-shared/alert-types';
import { KeeperUnavailableError } from '../api/chain-read-error';
import type { ChainConnection } from '../chain/rpc-connection';
import { endpointLabel } from '../chain/rpc-endpoints';
import { scrubSecrets } from '../../src-shared/secret-scrub';
import type { Deployment } from '../protocol/deployment';
import { deploymentSummary } from '../protocol/deployment';
import type { DeploymentSource } from '../deployment/deployment-finder';
import type { Keeper } from '../keeper/keeper';
import { EmbeddedLocalnetUnavailableError } from '../localnet/embedded-availability';
import { lastErrorInWords } from '../protocol/program-error-sentences';
import type { WagerRecord } from '../store/wager-records';
import { deploymentView, startChainSide, type ChainSide } from './chain-side';
import { unavailableDemo, demoPlacement } from './demo-app';
import type { KeeperEventRelay } from './keeper-event-relay';
import { startKeeperSide, syncDemo, type KeeperSideHooks, type KeeperSide } from './keeper-side';
import { BASE_FEE_LAMPORTS, LOW_BALANCE_LAMPORTS, type HealthView, type OracleWaitView, type StatusView } from '../../src-shared/contract/status';
import type { ClusterSetting } from '../../src-shared/contract/cluster';
import type { ConsoleSettings } from '../../src-shared/contract/settings';
import type { OperatorEvent } from '../../src-shared/contract/events';
import { effectiveSettings, type ResolvedOperatorOptions } from './operator-options';
import type { QueueRows } from './queue-rows';

const HEALTH_PROBE_MS = 1_000;

export interface KeeperControl {
  /** The chain side running now (undefined while none: stopped, or between switches). */
  readonly chain: ChainSide | undefined;
  /** The keeper running now (undefined while it is not: starting, failed, waiting for a deployment). */
  readonly keeperSide: KeeperSide | undefined;
  /** The settings in force: saved, with this run's flags on top. */
  settings(): ConsoleSettings;
  status(): StatusView;
  emitStatus(): void;
  /** Starts the first core on `setting` (the host's first start). */
  start(setting: ClusterSetting): Promise<void>;
  /** Starts probing the RPC once a second (the status line and the queue's countdowns). */
  startProbe(): void;
  stop(): Promise<void>;
  /** Restarts the chain side and the keeper on another cluster. */
  switchCluster(setting: ClusterSetting): Promise<void>;
  /** Restarts the keeper on the same chain side (its key, guardian key or loop options changed). */
  restartKeeper(): Promise<void>;
  /** Starts or ends the demo app as the settings now allow. */
  syncDemo(): Promise<void>;
  /** The deployment the keeper runs against (the operator's actions need one). */
  requireDeployment(): Deployment;
  /** The running keeper, or a KeeperUnavailableError saying why there is none. */
  requireKeeper(): Keeper;
  /** Why there is no keeper to act through: no deployment known here (say so), or it is not running. */
  notRunning(what: string): KeeperUnavailableError;
  /** The keeper's health: balance, last pass, queue, the RPC's last probe, runway, oracle wait, overdue requests. */
  health(): Promise<HealthView>;
  /** Pauses or resumes the crank loop (in-flight sends finish); saved. */
  setPaused(paused: boolean): void;
  /** Runs the keeper against `deployment` (read from `file`, already checked against `side`'s genesis hash): remembered for this cluster, the core restarted. */
  useDeployment(side: ChainSide, deployment: Deployment, file: string): Promise<void>;
}

export function createKeeperControl(
  options: ResolvedOperatorOptions,
  service: {
    emit(event: OperatorEvent): void;
    relay: KeeperEventRelay;
    rows: QueueRows;
    apiUrl(): string | null;
    /** Why the /v1 API is not listening (null: it listens, or never asked to). */
    apiError(): string | null;
    /** The fleet members' keys known now (fleet-service.ts): each keeper started here is told them. */
    fleetPeers(): string[];
    /** The dead man's switch as the status shows it (null: none configured). */
    heartbeat?(): HeartbeatView | null;
  },
): KeeperControl {
  const { log, flags } = options;
  const { emit, relay, rows } = service;
  let phase: StatusView['phase'] = 'starting';
  let coreError: string | null = null;
  /** The core failed because this machine cannot run the embedded localnet: no RPC is at fault, none is retried. */
  let embeddedUnavailable = false;
  let chain: ChainSide | undefined;
  let keeperSide: KeeperSide | undefined;
  let startedAt = Date.now();
  /** One core change at a time (switches queue behind each other). */
  let changing: Promise<unknown> = Promise.resolve();
  let probe: { slot: number | null; latencyMs: number | null; checkedAt: number } = { slot: null, latencyMs: null, checkedAt: 0 };
  let probeTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  const settings = (): ConsoleSettings => effectiveSettings(options.settings.store, flags);

  const status = (): StatusView => {
    const current = settings();
    const keeper = keeperSide?.core.keeper;
    return {
      phase,
      error: coreError,
      host: options.host,
      cluster: chain?.view ?? null,
      keeper: keeper && keeperSide ? { address: keeper.address, keySource: keeperSide.keySource, shard: keeper.fleet().shard ?? null } : null,
      paused: current.paused,
      apiUrl: service.apiUrl(),
      apiError: service.apiError(),
      faucet: Boolean(keeperSide?.core.faucet),
      demo: keeperSide?.demo?.view() ?? unavailableDemo(current.demoIntervalMs, demoUnavailableReason(current)),
      startedAt,
      heartbeat: service.heartbeat?.() ?? null,
      ...(keeper ? { priorityFee: keeper.priorityFee() } : {}),
      ...(keeperSide ? { rpc: rpcView(keeperSide.core.connection) } : {}),
    };
  };
  const emitStatus = () => emit({ type: 'status', status: status() });

  /** Why the demo app does not run now (the status shows it in place of the demo's figures). */
  const demoUnavailableReason = (current: ConsoleSettings): string => {
    if (!chain) return 'no cluster is running';
    if (!chain.deployment) return 'no deployment is known for this cluster';
    const placement = demoPlacement(chain.view, current.demoOnTestNetworks);
    return placement.allowed ? 'the keeper is not running' : placement.reason;
  };

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
      // Nor is a localnet this machine cannot run (status.error says so and names Settings → Cluster).
      rpcError: record?.rpcError ?? (keeper || phase === 'noDeployment' || embeddedUnavailable ? null : coreError),
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
      // The last slot read stays, with the time it was read: a failed read must not look like a fresh one.
      probe = { slot: probe.slot, latencyMs: null, checkedAt: probe.checkedAt };
    }
    if (!stopped) emit({ type: 'health', health: await health() });
  };

  const keeperHooks: KeeperSideHooks = {
    settings,
    attach(core, deployment) {
      rows.learnPaytables(deployment.paytables);
      core.keeper.setFleetPeers(service.fleetPeers());
      return relay.attach(core);
    },
    onDemoChange: emitStatus,
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
    embeddedUnavailable = false;
    emitStatus();
    try {
      await stopCore(setting ? 'all' : 'keeper');
      if (setting) chain = await startChainSide(options, setting, initial);
      if (!chain) throw new Error('no cluster chosen');
      if (chain.deployment) {
        keeperSide = await startKeeperSide(options, chain, chain.deployment, initial, keeperHooks);
        keeperSide.core.connection.onEndpointSwitch(() => emitStatus()); // the status line says when reads failed over
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
      embeddedUnavailable = error instanceof EmbeddedLocalnetUnavailableError;
      if (embeddedUnavailable) coreError = message; // says why and names Settings → Cluster
      else {
        // Shown in status and health (and so in alerts): the endpoint by its masked label, the message scrubbed.
        const why = scrubSecrets(message);
        coreError = setting?.kind === 'rpc' ? `the keeper could not start on ${endpointLabel(setting.rpcUrl)}: ${why}` : `the keeper could not start: ${why}`;
        coreError += '. Choose another cluster or fix the RPC URL in Settings, then switch again.';
      }
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

  const requireDeployment = (): Deployment => {
    if (!chain?.deployment) throw new KeeperUnavailableError(chain?.view.noDeployment ?? 'the keeper is not running: see Settings');
    return chain.deployment;
  };

  return {
    get chain() {
      return chain;
    },
    get keeperSide() {
      return keeperSide;
    },
    settings,
    status,
    emitStatus,
    start: (setting) => change(() => runCore(setting, true)),
    startProbe() {
      probeTimer = setInterval(() => void probeRpc(), HEALTH_PROBE_MS);
      probeTimer.unref?.();
    },
    async stop() {
      stopped = true;
      clearInterval(probeTimer);
      relay.stop();
      await changing;
      await stopCore('all');
    },
    switchCluster: (setting) => change(() => runCore(setting, false)),
    restartKeeper: () => change(() => runCore(null, false)),
    async syncDemo() {
      if (keeperSide && chain?.deployment) await syncDemo(keeperSide, chain, chain.deployment, keeperHooks);
    },
    requireDeployment,
    requireKeeper() {
      if (!keeperSide)
        throw new KeeperUnavailableError(phase === 'failed' || phase === 'noDeployment' ? (coreError ?? 'the keeper is not running') : 'the keeper is restarting');
      return keeperSide.core.keeper;
    },
    notRunning: (what) => new KeeperUnavailableError(phase === 'noDeployment' && chain?.view.noDeployment ? chain.view.noDeployment : `the keeper is not running: ${what}`),
    health,
    setPaused(paused) {
      options.settings.set({ paused });
      keeperSide?.core.keeper.setPaused(paused);
      emitStatus();
    },
    async useDeployment(side, deployment, file) {
      const genesisHash = deployment.cluster.genesisHash;
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
    },
  };
}

/** How long this keeper's waiting oracle requests have waited, from their request slot (or open slot). */
export function oracleWait(requested: readonly WagerRecord[], slot: number | null): OracleWaitView {
  if (slot === null || requested.length === 0) return { waiting: requested.length, oldestWaitSlots: null };
  const oldest = Math.min(...requested.map((record) => record.requestedSlot ?? record.openSlot ?? slot));
  return { waiting: requested.length, oldestWaitSlots: Math.max(0, slot - oldest) };
}

/** StatusView.rpc: each endpoint's health and whether reads left the preferred one (issue 27). */
function rpcView(connection: ChainConnection): NonNullable<StatusView['rpc']> {
  const since = connection.failedOverSince();
  return { endpoints: connection.endpoints(), failedOver: since !== null, since: since?.toISOString() ?? null };
}
