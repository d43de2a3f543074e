/**
 * The console contract, settings: what is saved (cluster, loop, API, fleet, alerts, heartbeat, earnings),
 * what flags fixed, saving, and testing an RPC.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */
import type { AlertThresholds } from '../alert-types';
import type { ClusterName } from '../cluster-identity';
import type { ClusterSetting } from './cluster';
import type { KeyView } from './keys';
import type { SweepSettings } from './sweep';

export interface ConsoleSettings {
  cluster: ClusterSetting;
  /** Micro-lamports per compute unit (0: none; auto on public clusters unless priorityFeeAuto says otherwise). */
  priorityFeeMicroLamports: number;
  /** "auto": price each crank from recent fees for the accounts it writes (issue 27); false: the fixed fee above. */
  priorityFeeAuto?: boolean;
  maxInFlight: number;
  /** The demo app opens a wager every `demoIntervalMs` (the embedded localnet; elsewhere see demoOnTestNetworks). */
  demoEnabled: boolean;
  demoIntervalMs: number;
  /** Run the demo app on clusters other than the embedded localnet too (never on mainnet-beta): asked for explicitly. */
  demoOnTestNetworks: boolean;
  /** Deployment files loaded in Settings, one per cluster (by genesis hash); paths on the machine that runs the keeper. */
  deploymentFiles: { genesisHash: string; path: string }[];
  /** The public /v1 API (applies at the next start of the app). */
  apiPort: number;
  apiHost: string;
  /** Extra browser origins allowed by CORS on /v1 (the console's own are always allowed). */
  corsOrigins: string[];
  /** The crank loop is paused (survives a restart). */
  paused: boolean;
  /** "Pause new wagers automatically when the oracle stalls": the guardian runs in this console's keeper (where it holds the guardian key). */
  guardianAutomatic: boolean;
  /** The guardian pauses new wagers once a randomness request has waited this many slots (the spec's target: 60). */
  guardianPauseAfterSlots: number;
  /** It resumes its own pause once the oracle has fulfilled again for this many slots with nothing waiting past the threshold. */
  guardianResumeAfterSlots: number;
  /** This keeper's shard of a fleet, "I/N" (docs/keeper.md, Fleets), or '' for none; `--shard` overrides it for a run. */
  shard: string;
  /** Slots another shard's wager waits past its due slot before this keeper takes it over. */
  shardTakeoverSlots: number;
  /** The other fleet members' keeper APIs (e.g. http://10.0.0.2:7300), listed on the Overview from their /v1/health. */
  fleetMembers: string[];
  /** The alert thresholds (Settings → Alerts; saved through saveAlertSettings, flags win for a run). */
  alertThresholds: AlertThresholds;
  /** Every alert also becomes a system notification of the desktop app. */
  alertDesktopNotifications: boolean;
  /**
   * The dead man's switch: a GET to the heartbeat URL every heartbeatEverySeconds while the keeper is ready
   * (`--heartbeat-url` wins). The URL is a secret kept in the keychain (or a 0600 file), never returned:
   * saved as `heartbeatUrl` in SettingsChanges, shown as whether there is one and its masked label.
   */
  heartbeatConfigured: boolean;
  /** The heartbeat URL masked (e.g. "https://hc-ping.com/***"), '' when none. */
  heartbeatLabel: string;
  heartbeatEverySeconds: number;
  /** Settings → Earnings: where earnings go and what the keeper keeps (saved through saveSweepSettings; --sweep-* flags win). */
  sweep: SweepSettings;
}

export interface SettingsView {
  settings: ConsoleSettings;
  key: KeyView;
  /** Settings a command-line flag fixed for this run (shown read-only, e.g. `apiPort` from --port). */
  fixedByFlags: SettingKey[];
}

/** What saveSettings takes: the settings, with the heartbeat URL write-only (a secret; '' removes it) instead of what follows from it. */
export type SettingsChanges = Partial<Omit<ConsoleSettings, 'heartbeatConfigured' | 'heartbeatLabel'>> & { heartbeatUrl?: string };

/** A setting's name as views and flags name it (the heartbeat URL's is write-only). */
export type SettingKey = keyof ConsoleSettings | 'heartbeatUrl';

export type ConnectionTest =
  | { ok: true; rpcUrl: string; version: string; slot: number; genesisHash: string; cluster: ClusterName; latencyMs: number; wagerKeeperLocalnet: boolean }
  | { ok: false; rpcUrl: string; error: string };

/** What saving settings did: `restarted` when the core was restarted (cluster, key or loop options changed). */
export interface SaveSettingsResult {
  view: SettingsView;
  restarted: boolean;
}

/** Settings's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface SettingsApi {
  settings(): Promise<SettingsView>;
  /** Saves settings; restarts the core when the cluster or the loop options change. */
  saveSettings(args: { changes: SettingsChanges }): Promise<SaveSettingsResult>;
  testConnection(args: { rpcUrl: string; wsUrl?: string | null }): Promise<ConnectionTest>;
}

/** Settings's method names, in the order the transports list them. */
export const SETTINGS_METHODS = ['settings', 'saveSettings', 'testConnection'] as const satisfies readonly (keyof SettingsApi)[];
