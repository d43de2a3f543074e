/**
 * Alerts in the operator service (issue 26): the engine fed from what the core knows, its history, mutes,
 * thresholds (Settings → Alerts, flags win) and the channels. Placeholder until the engine lands: the
 * methods answer the shapes of the contract with nothing active.
 */
import {
  DEFAULT_ALERT_THRESHOLDS,
  type AlertChannelKind,
  type AlertChannelStatus,
  type AlertMessage,
} from '../alerts/alert-types';
import type { KeeperControl } from './keeper-control';
import type { OperatorApi, OperatorEvent } from './operator-interface';
import type { ResolvedOperatorOptions } from './operator-options';

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

export type AlertApi = Pick<
  OperatorApi,
  | 'alerts'
  | 'muteAlert'
  | 'alertSettings'
  | 'saveAlertSettings'
  | 'addAlertChannel'
  | 'removeAlertChannel'
  | 'sendTestAlert'
>;

export interface AlertService {
  api: AlertApi;
  start(): void;
  stop(): void;
}

export function createAlertService(
  _control: KeeperControl,
  _options: Pick<ResolvedOperatorOptions, 'flags' | 'settings' | 'dataDir' | 'log'>,
  service: { emit(event: OperatorEvent): void; channels?: AlertChannels },
): AlertService {
  const channels = service.channels ?? emptyAlertChannels();
  const settingsView = async () => ({
    thresholds: DEFAULT_ALERT_THRESHOLDS,
    thresholdFlags: [],
    desktopNotifications: true,
    channels: channels.statuses(),
  });
  const api: AlertApi = {
    alerts: async () => ({ active: [], history: [], mutes: [], channels: channels.statuses() }),
    muteAlert: async () => ({ active: [], history: [], mutes: [], channels: channels.statuses() }),
    alertSettings: settingsView,
    saveAlertSettings: settingsView,
    addAlertChannel: async (args) => {
      await channels.add(args);
      return settingsView();
    },
    removeAlertChannel: async (args) => {
      await channels.remove(args);
      return settingsView();
    },
    sendTestAlert: async () => ({
      results: await channels.sendTest({
        alert: 'balance-low',
        state: 'firing',
        severity: 'warning',
        summary: 'test',
        keeper: null,
        cluster: null,
        at: new Date().toISOString(),
      }),
    }),
  };
  return { api, start: () => undefined, stop: () => undefined };
}
