/**
 * The console's core, the same in both hosts (the Electron main process and headless `serve`/`keeper`):
 * it runs the chain side (the embedded localnet, or an RPC the operator picks), the keeper on it, the
 * public /v1 API (and, headless, the operator HTTP API with the built UI on the same listener), and
 * answers the console's contract (src-shared/contract/, composed in operator-api.ts). Switching cluster
 * restarts the chain side and the keeper without restarting the host; the /v1 listener stays up and
 * answers 503 meanwhile.
 *
 * This file composes the parts (docs/console.md, "The rooms"): runtime/keeper-control.ts (the core: start,
 * stop, switch, status, health), host-listeners.ts here, and one service per contract area from operator/
 * (status, activity, settings, keys, guardian, inspection, liquidity, oracle, faucet, fleet, alerts,
 * diagnostics, sweep).
 */
import { EventEmitter } from 'node:events';
import type { Deployment } from '../protocol/deployment';
import type { GuardianEvents } from '../keeper/guardian';
import type { KeeperEvents } from '../keeper/keeper-events';
import type { LocalnetManifest } from '../localnet/localnet';
import { createLogger } from '../logging';
import { GUARDIAN_KEYCHAIN_ACCOUNT } from '../secrets/guardian-key';
import { KEYCHAIN_ACCOUNT } from '../secrets/keeper-key';
import { solanaNetworkId } from '../chain/network-id';
import { createHeartbeat, type HeartbeatBeat } from '../alerts/heartbeat';
import { createHeartbeatUrlStore } from '../alerts/heartbeat-url-store';
import { openChannelSecrets } from '../alerts/channels/channel-secrets';
import { createAlertService } from '../operator/alerts-service';
import { alertChannelsForOperator, alertSecretsFolder } from '../operator/alerts-service';
import { createConsoleFaucet } from '../operator/faucet-service';
import { createDiagnosticsService } from '../operator/diagnostics-service';
import type { DiagnosticsSaved } from '../diagnostics/diagnostics-archive';
import { diagnosticsMetricsText } from '../metrics/diagnostics-metrics';
import { createGuardianService } from '../operator/guardian-service';
import { createHostListeners } from './host-listeners';
import { createInspectionService } from '../operator/inspection-service';
import { createFleetService } from '../operator/fleet-service';
import { createKeeperActivity } from '../operator/activity-service';
import { createKeeperControl } from '../runtime/keeper-control';
import { createKeeperEventRelay } from '../runtime/keeper-event-relay';
import { createKeeperKeyService } from '../operator/keys-service';
import { createLiquidityService } from '../operator/liquidity-service';
import { createLocalOracleService } from '../operator/oracle-service';
import type { KeySource } from '../../src-shared/contract/status';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { OperatorEvent } from '../../src-shared/contract/events';
import type { OperatorServiceOptions, ResolvedOperatorOptions } from '../runtime/operator-options';
import { createQueueRows } from '../runtime/queue-rows';
import { createSettingsService } from '../operator/settings-service';
import { createStatusService } from '../operator/status-service';
import { createSweepService } from '../operator/sweep-service';

export type { OperatorFlags, OperatorServiceOptions } from '../runtime/operator-options';
export { RECENTLY_FINISHED_MS } from '../operator/activity-service';
export { oracleWait } from '../runtime/keeper-control';

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
  /**
   * Back from the machine's sleep (the desktop app's powerMonitor 'resume'): a sweep at once, for wagers
   * opened while it slept, then a pass. Every pass treats a wager within URGENT_SLOTS of its expiry as urgent
   * (scheduler.ts: its backoff ignored, the priority fee raised, send-path.ts), so this pass is what raises
   * the fee of every wager near its expiry. Nothing to do while no keeper runs.
   */
  wake(): Promise<void>;
  describe(): ServiceDescription;
  /** The current keeper's events, re-emitted across cluster switches (metrics and tests listen here). */
  readonly keeperEvents: EventEmitter<KeeperEvents>;
  /** The current guardian's actions, re-emitted across cluster switches (metrics listen here). */
  readonly guardianEvents: EventEmitter<GuardianEvents>;
  /** Writes the diagnostics archive to `path` (the desktop host's save dialog and tray item). */
  writeDiagnostics(path: string): Promise<DiagnosticsSaved>;
  /**
   * "Restart to update" (the desktop's updater): no new crank is sent from now on, without saving a pause
   * (the next start cranks as the settings say). `inFlight()` answers the wagers whose crank is still in
   * flight (and pauses a keeper started meanwhile, by a cluster switch); `release()` cranks as the settings
   * say again (the restart was cancelled or failed).
   */
  holdCranks(): CrankHold;
}

/** See OperatorService.holdCranks. */
export interface CrankHold {
  inFlight(): number;
  release(): void;
}

export function createOperatorService(serviceOptions: OperatorServiceOptions): OperatorService {
  const { flags, keychainAccount, guardianKeychainAccount, logger, ...rest } = serviceOptions;
  const options: ResolvedOperatorOptions = {
    ...rest,
    flags: flags ?? {},
    keychainAccount: keychainAccount ?? KEYCHAIN_ACCOUNT,
    guardianKeychainAccount: guardianKeychainAccount ?? GUARDIAN_KEYCHAIN_ACCOUNT,
    log: logger ?? createLogger('keeper'),
  };
  const { log } = options;
  const listeners = new Set<(event: OperatorEvent) => void>();
  const keeperEvents = new EventEmitter<KeeperEvents>();
  const guardianEvents = new EventEmitter<GuardianEvents>();
  /** To every console listening; one failing listener does not keep the event from the others. */
  const emit = (event: OperatorEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log.warn({ error: (error as Error).message }, 'a console event listener failed');
      }
    }
  };
  const onEvent = (listener: (event: OperatorEvent) => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  const rows = createQueueRows();
  const relay = createKeeperEventRelay({ emit, keeperEvents, guardianEvents, rows });
  // The fleet watch is told where to send its peers' keys before the control exists (it starts with the service).
  const fleet = createFleetService(options, { peersChanged: (peers) => control.keeperSide?.core.keeper.setFleetPeers(peers) });
  const control = createKeeperControl(options, { emit, relay, rows, apiUrl: () => hostListeners.apiUrl, apiError: () => hostListeners.apiError, fleetPeers: () => fleet.peers(), heartbeat: () => heartbeat.view() });
  const keys = createKeeperKeyService(control, options);
  // The heartbeat URL is a secret kept beside the webhook URLs; --heartbeat-url wins for this run.
  const heartbeatUrls = createHeartbeatUrlStore({ secrets: openChannelSecrets(alertSecretsFolder(options)), settings: options.settings, ...(options.flags.heartbeatUrl !== undefined ? { flagUrl: options.flags.heartbeatUrl } : {}), log });
  const alerts = createAlertService(control, options, { emit, keeperEvents, fleet: () => fleet.api.fleet(), liquidity: () => api.liquidity({ owner: null }), channels: alertChannelsForOperator(options) });
  // Logs and "Save diagnostics…": metrics as /metrics serves them (or read once here when no --metrics-port).
  const diagnostics = createDiagnosticsService({
    api: { health: () => api.health(), status: () => api.status(), settings: () => api.settings(), alerts: () => api.alerts(), alertSettings: () => api.alertSettings(), fleet: () => api.fleet() },
    dataDir: options.dataDir,
    metricsText: () => diagnosticsMetricsText(hostListeners.metricsUrl, api),
  });
  // Settings → Earnings: "Send now" and the automatic mode beside the keeper (issue 28).
  const sweep = createSweepService(control, options, emit);
  const api: OperatorApi = {
    ...createStatusService(control),
    ...createKeeperActivity(control, rows),
    ...createSettingsService(control, options, { keyView: keys.keyView, emit, fleetMembersChanged: fleet.membersChanged, heartbeatUrls }),
    ...fleet.api,
    ...keys.api,
    ...createGuardianService(control, options, emit),
    ...createInspectionService(control, rows),
    ...createLiquidityService(control),
    ...createConsoleFaucet(control),
    ...createLocalOracleService(control, options),
    ...alerts.api,
    ...diagnostics.api,
    ...sweep.api,
  };
  // GET /v1/ready and the dead man's switch: the alert engine's readiness over the live health.
  const readiness = () => alerts.readiness();
  const hostListeners = createHostListeners(control, options, { api, onEvent, keeperEvents, guardianEvents, readiness });
  const heartbeat = createHeartbeat({
    config: () => {
      const url = heartbeatUrls.url();
      return url ? { url, everySeconds: control.settings().heartbeatEverySeconds } : null;
    },
    readiness,
    log,
    onBeat: (beat) => {
      // The console's status line shows the heartbeat: tell it when that changes, not at every ping.
      if (beat !== lastBeat) control.emitStatus();
      lastBeat = beat;
    },
  });
  let lastBeat: HeartbeatBeat | undefined;

  const service: OperatorService = {
    api,
    writeDiagnostics: diagnostics.writeDiagnostics,
    keeperEvents,
    guardianEvents,
    onEvent,
    async start() {
      const initialCluster = options.flags.cluster ?? (options.host === 'desktop' ? options.settings.store.cluster : { kind: 'embedded' as const });
      // Headless commands stop and exit 1 on either failure. The desktop app keeps what it can: a /v1 port
      // that cannot listen is in status.apiError (host-listeners.ts) and the keeper still starts on its
      // chain; a core that cannot start is in status.error.
      try {
        await hostListeners.start();
      } catch (error) {
        if (options.failFast) {
          await service.stop();
          throw error;
        }
        log.error({ error: (error as Error).message }, 'a listener could not start: the keeper starts without it');
      }
      try {
        await control.start(initialCluster);
      } catch (error) {
        if (options.failFast) {
          await service.stop();
          throw error;
        }
      }
      control.startProbe();
      alerts.start();
      heartbeat.start();
      sweep.start();
      fleet.membersChanged(); // the fleet watch runs from the start: the keeper learns its peers' keys
    },
    async stop() {
      heartbeat.stop();
      sweep.stop();
      alerts.stop();
      fleet.stop();
      await control.stop();
      await hostListeners.stop();
      listeners.clear();
    },
    holdCranks() {
      let held = true;
      const hold = () => {
        const keeper = control.keeperSide?.core.keeper;
        if (held && keeper && !keeper.isPaused()) keeper.setPaused(true);
        return keeper;
      };
      hold();
      log.info('restart to update: no new cranks are sent; waiting for those in flight');
      return {
        inFlight: () => hold()?.inFlight() ?? 0,
        release() {
          if (!held) return;
          held = false;
          control.keeperSide?.core.keeper.setPaused(control.settings().paused);
        },
      };
    },
    async wake() {
      const keeper = control.keeperSide?.core.keeper;
      if (!keeper) return;
      log.info('back from sleep: sweeping for new wagers and sending what is due now');
      // A failed sweep (the network not back yet) must not hold up the pass; the regular sweep retries.
      await keeper.sweep().catch((error: unknown) => log.warn({ error: (error as Error).message }, 'the sweep after sleep failed; the next one retries'));
      await keeper.tick();
    },
    describe: () => {
      const chain = control.chain;
      const keeperSide = control.keeperSide;
      return {
        apiUrl: hostListeners.apiUrl ?? '',
        consoleUrl: hostListeners.consoleUrl,
        corsOrigins: hostListeners.corsOrigins,
        metricsUrl: hostListeners.metricsUrl,
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
      };
    },
  };
  return service;
}
