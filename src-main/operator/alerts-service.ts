/**
 * Alerts in the operator service (issue 26): the engine (alert-engine.ts) fed once a second with a
 * snapshot of what the core knows (health, the keeper's records and crank steps, the guardian's pause,
 * the fleet watch, the liquidity pool), its history and mutes in alerts.db (alert-history.ts), thresholds
 * (Settings → Alerts; flags win for a run), readiness for monitors, and the channels (the channels
 * helper's AlertChannels; none by default). Every message also goes to the console as an `alert` event
 * (the desktop host turns it into a system notification unless it was muted).
 */
import type { EventEmitter } from 'node:events';
import { dirname } from 'node:path';
import { address, createSolanaRpc } from '@solana/kit';
import { fetchConfig } from '../keeper/chain-view';
import { createAlertChannelService, type AlertChannelService } from '../alerts/alert-channels';
import { readConditions, type AlertSnapshot } from '../alerts/alert-conditions';
import { createAlertEngine, type AlertEngine } from '../alerts/alert-engine';
import { alertHistoryPath, openAlertHistory, type AlertHistory } from '../alerts/alert-history';
import { ALERT_NAMES, DEFAULT_ALERT_THRESHOLDS, type AlertChannelKind, type AlertChannelStatus, type AlertMessage, type AlertThresholds, type Readiness } from '../../src-shared/alert-types';
import { readinessOf } from '../alerts/readiness';
import type { KeeperEvents } from '../keeper/keeper-events';
import type { KeeperControl } from '../runtime/keeper-control';
import type { AlertSettingsView, AlertsView } from '../../src-shared/contract/alerts';
import type { FleetMemberView } from '../../src-shared/contract/fleet';
import type { LiquidityView } from '../../src-shared/contract/liquidity';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { OperatorEvent } from '../../src-shared/contract/events';
import type { ResolvedOperatorOptions } from '../runtime/operator-options';
import { HOUR_MS } from '../../src-shared/units';
import { checkAlertThresholds, criticalAboveWarning } from '../../src-shared/settings/alert-thresholds';

/** What the alert service needs of the channels (the channels helper's dispatcher and saved channel list). */
export interface AlertChannels {
  add(args: { url: string; format?: AlertChannelKind }): Promise<void>;
  remove(args: { id: string }): Promise<void>;
  sendTest(message: AlertMessage): Promise<AlertChannelStatus[]>;
  statuses(): AlertChannelStatus[];
  /** Must not block or throw: delivery is asynchronous. */
  deliver(message: AlertMessage): void;
}

/** No channels: every alert is still recorded and sent to the console (and its desktop notification). */
export function emptyAlertChannels(): AlertChannels {
  return {
    add: async () => {
      throw new Error('webhook channels are not available in this build; alerts still show in the console');
    },
    remove: async ({ id }) => {
      throw new Error(`there is no alert channel '${id}'; Settings → Alerts lists the channels`);
    },
    sendTest: async () => [],
    statuses: () => [],
    deliver: () => undefined,
  };
}

export type AlertApi = Pick<OperatorApi, 'alerts' | 'muteAlert' | 'alertSettings' | 'saveAlertSettings' | 'addAlertChannel' | 'removeAlertChannel' | 'sendTestAlert'>;

export interface AlertService {
  api: AlertApi;
  /** Whether the keeper is fit to serve now (GET /v1/ready, the heartbeat): readinessOf over the live health. */
  readiness(): Readiness;
  /** Starts evaluating once a second. */
  start(): void;
  stop(): void;
}

export interface AlertServiceOptions {
  emit(event: OperatorEvent): void;
  keeperEvents: EventEmitter<KeeperEvents>;
  fleet(): Promise<FleetMemberView[]>;
  /** The pool and its requests (all owners), read every 30 s for the LP notices. */
  liquidity(): Promise<LiquidityView>;
  channels?: AlertChannels;
  /** Tests: the clock and how often to evaluate. */
  clock?: () => number;
  everyMs?: number;
}

const HISTORY_SHOWN = 200;
const GUARDIAN_EVERY_MS = 10_000;
const LIQUIDITY_EVERY_MS = 30_000;

export function createAlertService(control: KeeperControl, options: Pick<ResolvedOperatorOptions, 'flags' | 'settings' | 'dataDir' | 'log'>, service: AlertServiceOptions): AlertService {
  const { log } = options;
  const channels = service.channels ?? emptyAlertChannels();
  const clock = service.clock ?? Date.now;
  // Beside the console's data, not per cluster: the history survives cluster switches.
  const historyPath = alertHistoryPath(options.flags.dbPath ? dirname(options.flags.dbPath) : options.dataDir);
  let history: AlertHistory | null = null;
  const openHistory = () => (history ??= openAlertHistory(historyPath));

  const thresholdFlags = () => Object.keys(options.flags.alertThresholds ?? {}) as (keyof AlertThresholds)[];
  const thresholds = (): AlertThresholds => ({ ...DEFAULT_ALERT_THRESHOLDS, ...options.settings.store.alertThresholds, ...options.flags.alertThresholds });
  const desktopNotifications = () => options.settings.store.alertDesktopNotifications ?? true;

  // What the keeper did lately: crank outcomes with their times (an hour kept).
  let steps: { at: number; failed: boolean }[] = [];
  const onStep = (step: { outcome: string }) => {
    if (step.outcome === 'landed' || step.outcome === 'failed') steps.push({ at: clock(), failed: step.outcome === 'failed' });
  };
  // Read less often (each costs the RPC a call or a simulation): the guardian's pause, the pool. The fleet
  // is read every evaluation: the fleet watch polls on its own and answers from memory.
  let newWagersPaused: boolean | null = null;
  let fleet: FleetMemberView[] = [];
  let liquidity: AlertSnapshot['liquidity'] = null;
  let lastEpoch: number | null = null;
  let slowReadsAt = 0;
  let liquidityReadAt = 0;
  let snapshot: AlertSnapshot | null = null;

  const identity = () => {
    const keeper = control.keeperSide?.core.keeper.address ?? null;
    return { keeper: keeper === null ? null : String(keeper), cluster: control.chain?.view.name ?? null };
  };

  let engine: AlertEngine | null = null;
  const engineNow = (): AlertEngine =>
    (engine ??= createAlertEngine({
      clock,
      thresholds,
      identity,
      mutes: openHistory().mutes(),
      record: (message, muted) => {
        try {
          openHistory().record(message, muted);
        } catch (error) {
          log.warn({ error: (error as Error).message, path: historyPath }, 'an alert could not be written to the history');
        }
        // The engine delivers only unmuted messages (deliver below emits those); the console must still
        // refetch for a muted one, whose history row and active entry changed. No notification for it.
        if (muted) service.emit({ type: 'alert', message, muted: true });
      },
      deliver: (message) => {
        log.warn({ alert: message.alert, state: message.state, severity: message.severity }, message.summary);
        try {
          channels.deliver(message);
        } catch (error) {
          log.warn({ error: (error as Error).message }, 'an alert channel refused a message');
        }
        service.emit({ type: 'alert', message });
      },
    }));

  const readSlow = async (now: number) => {
    if (now - slowReadsAt >= GUARDIAN_EVERY_MS) {
      slowReadsAt = now;
      newWagersPaused = control.chain?.deployment ? await readPaused().catch(() => newWagersPaused) : null;
    }
    if (now - liquidityReadAt >= LIQUIDITY_EVERY_MS && control.keeperSide) {
      liquidityReadAt = now;
      liquidity = await readLiquidity(now).catch(() => liquidity);
    }
  };
  const readPaused = async () => {
    const deployment = control.requireDeployment();
    const side = control.keeperSide;
    const rpc = side?.core.connection.rpc ?? createSolanaRpc(control.chain!.rpcUrl);
    return (await fetchConfig(rpc, address(deployment.config), address(deployment.programs.wager))).paused !== 0;
  };
  const readLiquidity = async (now: number): Promise<AlertSnapshot['liquidity']> => {
    const view = await service.liquidity();
    const pool = { epoch: view.epoch.epoch, claimsReady: view.requests.filter((request) => request.status === 'struck: claimable').length };
    // The live epoch moved on: the one before it was struck.
    const struck = lastEpoch !== null && pool.epoch > lastEpoch;
    const previous = liquidity;
    lastEpoch = pool.epoch;
    return {
      epochStruckAtMs: struck ? now : (previous?.epochStruckAtMs ?? null),
      struckEpoch: struck ? pool.epoch - 1 : (previous?.struckEpoch ?? null),
      claimsReady: pool.claimsReady,
    };
  };

  const takeSnapshot = async (): Promise<AlertSnapshot> => {
    const now = clock();
    steps = steps.filter((step) => now - step.at < HOUR_MS);
    const keeper = control.keeperSide?.core.keeper;
    const health = keeper ? await control.health() : null;
    fleet = await service.fleet().catch(() => fleet);
    await readSlow(now);
    const slot = health?.slot ?? null;
    const unrequested =
      keeper && slot !== null
        ? keeper.records
            .byState(['queued'])
            .flatMap((record) => (record.expirySlot === null ? [] : [{ wager: String(record.address), slotsLeft: record.expirySlot - slot }]))
        : [];
    return {
      now,
      health,
      startedAt: control.status().startedAt,
      cranksPerHour: steps.filter((step) => !step.failed).length,
      crankFailuresLast10Min: steps.filter((step) => step.failed && now - step.at < 10 * 60_000).length,
      unrequested,
      newWagersPaused,
      fleet,
      liquidity,
    };
  };

  let timer: NodeJS.Timeout | null = null;
  let evaluating = false;
  /** One evaluation; a failing read is logged and the next second tries again. */
  const evaluate = async () => {
    if (evaluating) return;
    evaluating = true;
    try {
      snapshot = await takeSnapshot();
      engineNow().evaluate(readConditions(snapshot, thresholds()));
    } catch (error) {
      log.warn({ error: (error as Error).message }, 'the alert conditions could not be read; the next check retries');
    } finally {
      evaluating = false;
    }
  };

  const testMessage = (): AlertMessage => ({
    alert: 'balance-low',
    state: 'firing',
    severity: 'warning',
    summary: 'This is a test alert from Wager Keeper (Settings → Alerts → Send a test alert): nothing is wrong; if you read this, the channel works.',
    ...identity(),
    at: new Date(clock()).toISOString(),
  });

  const alertsView = async (): Promise<AlertsView> => {
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      active: engineNow()
        .active()
        .map((active) => ({ ...active, since: iso(active.since), lastSentAt: iso(active.lastSentAt), mutedUntil: active.mutedUntil === null ? null : iso(active.mutedUntil) })),
      history: openHistory().recent(HISTORY_SHOWN),
      mutes: engineNow()
        .mutes()
        .map(({ alert, until }) => ({ alert, until: iso(until) })),
      channels: channels.statuses(),
    };
  };
  const settingsView = async (): Promise<AlertSettingsView> => ({ thresholds: thresholds(), thresholdFlags: thresholdFlags(), desktopNotifications: desktopNotifications(), channels: channels.statuses() });

  const api: AlertApi = {
    alerts: alertsView,
    async muteAlert({ alert, minutes }) {
      if (!ALERT_NAMES.includes(alert)) throw new Error(`'${String(alert)}' is not an alert; the alerts are ${ALERT_NAMES.join(', ')}`);
      if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes < 0 || minutes > 7 * 24 * 60)
        throw new Error(`minutes must be how long to mute ${alert} (0 to unmute, at most a week: 10080), got ${JSON.stringify(minutes)}`);
      const until = minutes === 0 ? null : clock() + minutes * 60_000;
      openHistory().setMute(alert, until);
      engineNow().mute(alert, until);
      log.info({ alert, minutes }, minutes === 0 ? 'alert unmuted' : 'alert muted');
      return alertsView();
    },
    alertSettings: settingsView,
    async saveAlertSettings({ thresholds: changes, desktopNotifications: notify }) {
      const checked = checkAlertThresholds(changes ?? {});
      for (const key of thresholdFlags()) if (key in checked) throw new Error(`${key} is set by a command-line flag for this run; restart without the flag to change it here`);
      if (notify !== undefined && typeof notify !== 'boolean') throw new Error('desktopNotifications must be true or false');
      const merged = { ...DEFAULT_ALERT_THRESHOLDS, ...options.settings.store.alertThresholds, ...checked };
      if (criticalAboveWarning(merged))
        throw new Error(`the critical balance (${merged.balanceCriticalSol} SOL) must not be above the warning balance (${merged.balanceWarningSol} SOL): lower the critical level or raise the warning level`);
      options.settings.set({ alertThresholds: merged, ...(notify !== undefined ? { alertDesktopNotifications: notify } : {}) });
      return settingsView();
    },
    async addAlertChannel(args) {
      await channels.add(args);
      return settingsView();
    },
    async removeAlertChannel(args) {
      await channels.remove(args);
      return settingsView();
    },
    sendTestAlert: async () => ({ results: await channels.sendTest(testMessage()) }),
  };

  return {
    api,
    readiness: () => (snapshot ? readinessOf({ snapshot: { ...snapshot, now: clock() }, thresholds: thresholds() }) : { ready: false, reasons: ['starting: the keeper has not been checked yet; ask again in a second'] }),
    start() {
      if (timer) return;
      service.keeperEvents.on('step', onStep);
      timer = setInterval(() => void evaluate(), service.everyMs ?? 1_000);
      timer.unref();
      void evaluate();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
      service.keeperEvents.off('step', onStep);
      history?.close();
      history = null;
      engine = null;
    },
  };
}

/**
 * The channel service of an operator service: its folder is the settings file's (electron-store and conf
 * both expose `path`), else the data folder; --alert-webhook comes from the flags.
 */
export function alertChannelsForOperator(
  options: Pick<ResolvedOperatorOptions, 'flags' | 'settings' | 'dataDir' | 'log'>,
): AlertChannelService {
  return createAlertChannelService({
    directory: alertSecretsFolder(options),
    ...(options.flags.alertWebhooks ? { flagWebhooks: options.flags.alertWebhooks } : {}),
    log: options.log,
  });
}

/** The folder of the alert secrets file (and saved channels): the settings file's, else the data folder. */
export function alertSecretsFolder(options: Pick<ResolvedOperatorOptions, 'settings' | 'dataDir'>): string {
  const settingsFile = (options.settings as { path?: unknown }).path;
  return typeof settingsFile === 'string' ? dirname(settingsFile) : options.dataDir;
}
