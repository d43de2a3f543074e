/**
 * The console's saved settings: one JSON schema, defaults and migrations shared by electron-store (the
 * desktop app) and conf (headless `serve`/`keeper`). electron-store wraps conf and imports `electron` at
 * load, which fails outside Electron (measured), so headless uses conf directly: same schema, same
 * migrations, same file format. Both are pinned (electron-store 12.0.0 wraps conf 16.0.0).
 */
import Conf from 'conf';
import { join } from 'node:path';
import { DEFAULT_ALERT_THRESHOLDS } from '../../src-shared/alert-types';
import { DEFAULT_SWEEP_SETTINGS } from '../../src-shared/settings/sweep';
import { HEARTBEAT_EVERY_SECONDS } from '../../src-shared/settings/alert-thresholds';
import { GUARDIAN_PAUSE_MAX_SLOTS, SHARD_TAKEOVER_MAX_SLOTS, T_SETTLE_SLOTS } from '../../src-shared/wager-timing';
import { hasProtocol, MAX_EXTRA_ENDPOINTS, RPC_URL_PROTOCOLS, trimEndpointUrl, WS_URL_PROTOCOLS } from '../../src-shared/settings/rpc-endpoints';
import { checkHeartbeatUrl, DEFAULT_HEARTBEAT_EVERY_SECONDS } from '../alerts/heartbeat';
import { moveHeartbeatUrlToSecrets } from '../alerts/heartbeat-url-store';
import { DEFAULT_SHARD_TAKEOVER_SLOTS, parseShard } from '../keeper/shard';
import { ensurePrivateFolder, narrowToPrivate, PRIVATE_FILE_MODE } from '../secrets/private-files';
import { fleetHealthUrl } from '../fleet/fleet-watch';
import type { ClusterSetting } from '../../src-shared/contract/cluster';
import type { ConsoleSettings, SettingKey, SettingsChanges } from '../../src-shared/contract/settings';

/** What both stores offer that the console uses (electron-store and conf instances satisfy it). */
export interface SettingsBackend {
  readonly store: ConsoleSettings;
  set(object: Partial<ConsoleSettings>): void;
}

/** The settings file's version (conf runs the migrations up to it). */
export const CONSOLE_SETTINGS_VERSION = '1.1.0';

export const DEFAULT_DEMO_INTERVAL_MS = 5_000;

/** Settings → Earnings before a person sets it: from the sweep settings' table (src-shared/settings/sweep.ts). */
export { DEFAULT_SWEEP_SETTINGS };

/** The cap on fallback read and send endpoints: Settings → RPC's table (src-shared/settings/rpc-endpoints.ts). */
export { MAX_EXTRA_ENDPOINTS };

export const CONSOLE_SETTINGS_DEFAULTS: ConsoleSettings = {
  cluster: { kind: 'embedded' },
  priorityFeeMicroLamports: 0,
  maxInFlight: 128,
  demoEnabled: true,
  demoIntervalMs: DEFAULT_DEMO_INTERVAL_MS,
  demoOnTestNetworks: false,
  deploymentFiles: [],
  apiPort: 7300,
  apiHost: '127.0.0.1',
  corsOrigins: [],
  paused: false,
  guardianAutomatic: false,
  guardianPauseAfterSlots: 60,
  guardianResumeAfterSlots: 20,
  shard: '',
  shardTakeoverSlots: DEFAULT_SHARD_TAKEOVER_SLOTS,
  fleetMembers: [],
  alertThresholds: DEFAULT_ALERT_THRESHOLDS,
  alertDesktopNotifications: true,
  heartbeatConfigured: false,
  heartbeatLabel: '',
  heartbeatEverySeconds: DEFAULT_HEARTBEAT_EVERY_SECONDS,
  sweep: DEFAULT_SWEEP_SETTINGS,
};

/** JSON schema (conf validates every write against it with ajv). */
export const CONSOLE_SETTINGS_SCHEMA = {
  cluster: {
    type: 'object',
    oneOf: [
      { properties: { kind: { const: 'embedded' } }, required: ['kind'], additionalProperties: false },
      {
        properties: {
          kind: { const: 'rpc' },
          rpcUrl: { type: 'string', pattern: '^https?://' },
          wsUrl: { anyOf: [{ type: 'string', pattern: '^wss?://' }, { type: 'null' }] },
          fallbackRpcUrls: { type: 'array', maxItems: MAX_EXTRA_ENDPOINTS, items: { type: 'string', pattern: '^https?://' } },
          sendRpcUrls: { type: 'array', maxItems: MAX_EXTRA_ENDPOINTS, items: { type: 'string', pattern: '^https?://' } },
        },
        required: ['kind', 'rpcUrl', 'wsUrl'],
        additionalProperties: false,
      },
    ],
    default: CONSOLE_SETTINGS_DEFAULTS.cluster,
  },
  priorityFeeMicroLamports: { type: 'integer', minimum: 0, maximum: 100_000_000, default: 0 },
  priorityFeeAuto: { type: 'boolean' },
  maxInFlight: { type: 'integer', minimum: 1, maximum: 4096, default: 128 },
  demoEnabled: { type: 'boolean', default: true },
  demoIntervalMs: { type: 'integer', minimum: 500, maximum: 3_600_000, default: DEFAULT_DEMO_INTERVAL_MS },
  demoOnTestNetworks: { type: 'boolean', default: false },
  // Keyed by genesis hash (base58), so a file loaded for one cluster is never used on another.
  deploymentFiles: {
    type: 'array',
    items: {
      type: 'object',
      properties: { genesisHash: { type: 'string', pattern: '^[1-9A-HJ-NP-Za-km-z]{32,44}$' }, path: { type: 'string', minLength: 1 } },
      required: ['genesisHash', 'path'],
      additionalProperties: false,
    },
    default: [],
  },
  apiPort: { type: 'integer', minimum: 0, maximum: 65_535, default: 7300 },
  apiHost: { type: 'string', minLength: 1, default: '127.0.0.1' },
  corsOrigins: { type: 'array', items: { type: 'string', pattern: '^https?://[^/]+$' }, default: [] },
  paused: { type: 'boolean', default: false },
  guardianAutomatic: { type: 'boolean', default: false },
  // T_SETTLE is 150 slots: a pause after that would come when every waiting wager has expired.
  guardianPauseAfterSlots: { type: 'integer', minimum: 1, maximum: GUARDIAN_PAUSE_MAX_SLOTS, default: 60 },
  guardianResumeAfterSlots: { type: 'integer', minimum: 1, maximum: 10_000, default: 20 },
  shard: { type: 'string', pattern: '^(\\d+/\\d+)?$', default: '' },
  // A dead member's wager waits it twice (request, then settle), both inside T_SETTLE = 150.
  shardTakeoverSlots: { type: 'integer', minimum: 1, maximum: SHARD_TAKEOVER_MAX_SLOTS, default: DEFAULT_SHARD_TAKEOVER_SLOTS },
  fleetMembers: { type: 'array', items: { type: 'string', pattern: '^https?://' }, default: [] },
  // Checked field by field by checkAlertThresholds (src-shared/settings/alert-thresholds.ts); a threshold added later is filled from the defaults on read.
  alertThresholds: { type: 'object', additionalProperties: { type: 'number', minimum: 0 }, default: DEFAULT_ALERT_THRESHOLDS },
  alertDesktopNotifications: { type: 'boolean', default: true },
  // The heartbeat URL itself is a secret, kept beside the file like the webhook URLs (heartbeat-url-store.ts).
  heartbeatConfigured: { type: 'boolean', default: false },
  heartbeatLabel: { type: 'string', default: '' },
  heartbeatEverySeconds: { type: 'integer', minimum: HEARTBEAT_EVERY_SECONDS.min, maximum: HEARTBEAT_EVERY_SECONDS.max, default: DEFAULT_HEARTBEAT_EVERY_SECONDS },
  // Checked field by field by sweep-service.ts (saveSweepSettings); lamports as decimal strings.
  sweep: {
    type: 'object',
    properties: {
      destination: { type: 'string' },
      keepLamports: { anyOf: [{ type: 'string', pattern: '^\\d+$' }, { type: 'null' }] },
      automatic: { type: 'boolean' },
      thresholdLamports: { type: 'string', pattern: '^\\d+$' },
      everySeconds: { type: 'integer', minimum: 1 },
    },
    default: DEFAULT_SWEEP_SETTINGS,
  },
} as const;

/** Migrations by version (1.0.0 is the first schema). Append; never edit one that shipped. */
export const CONSOLE_SETTINGS_MIGRATIONS: Record<string, (store: Conf<ConsoleSettings>) => void> = {
  // 1.0.0 kept heartbeatUrl in plain text: it moves to the secret store, the file keeps a masked label.
  '1.1.0': (store) => moveHeartbeatUrlToSecrets(store as unknown as Parameters<typeof moveHeartbeatUrlToSecrets>[0]),
};

/** The headless settings file: $XDG_CONFIG_HOME/wager-keeper/console.json (~/.config/wager-keeper/console.json). */
export function headlessSettingsDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME ?? join(env.HOME ?? '.', '.config'), 'wager-keeper');
}

/**
 * Readies a settings folder before its files are opened (issue 33): the folder 0700, each named file
 * 0600 (one written by an older version at 0644 is narrowed). The files keep RPC URLs, which often carry
 * a provider's key. conf (and electron-store) then write them atomically at `configFileMode` 0600.
 */
export function preparePrivateSettings(directory: string, files: readonly string[]): void {
  ensurePrivateFolder(directory);
  for (const file of files) narrowToPrivate(join(directory, file));
}

/** The mode conf and electron-store give the settings files (their temporary file too): this user only. */
export const SETTINGS_FILE_MODE = PRIVATE_FILE_MODE;

/** conf for headless hosts; the desktop app builds an electron-store with the same options. */
export function openHeadlessSettings(directory = headlessSettingsDirectory()): SettingsBackend {
  preparePrivateSettings(directory, ['console.json', 'alert-channels.json']);
  return new Conf<ConsoleSettings>({
    configFileMode: SETTINGS_FILE_MODE,
    cwd: directory,
    configName: 'console',
    projectName: 'wager-keeper',
    projectVersion: CONSOLE_SETTINGS_VERSION,
    // conf's types want its own schema type; ours is the same JSON schema written as a const.
    schema: CONSOLE_SETTINGS_SCHEMA as unknown as ConstructorParameters<typeof Conf<ConsoleSettings>>[0] extends infer O
      ? O extends { schema?: infer S }
        ? S
        : never
      : never,
    migrations: CONSOLE_SETTINGS_MIGRATIONS,
    defaults: CONSOLE_SETTINGS_DEFAULTS,
  });
}

/**
 * Checks a change the UI asks for before it is saved, naming the field and what it must be (conf's own
 * ajv message is terse). Returns the changes as they will be saved.
 */
export function validateSettingsChanges(changes: SettingsChanges): SettingsChanges {
  const checked: SettingsChanges = {};
  const integer = (name: keyof ConsoleSettings, value: unknown, min: number, max: number, what: string) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      throw new Error(`${name} must be ${what} (an integer from ${min} to ${max}), got ${JSON.stringify(value)}`);
    return value;
  };
  for (const [key, value] of Object.entries(changes) as [SettingKey, unknown][]) {
    switch (key) {
      case 'cluster':
        checked.cluster = validateCluster(value);
        break;
      case 'priorityFeeMicroLamports':
        checked.priorityFeeMicroLamports = integer(key, value, 0, 100_000_000, 'micro-lamports per compute unit');
        break;
      case 'maxInFlight':
        checked.maxInFlight = integer(key, value, 1, 4096, 'how many cranks may be in flight at once');
        break;
      case 'demoIntervalMs':
        checked.demoIntervalMs = integer(key, value, 500, 3_600_000, 'milliseconds between demo wagers');
        break;
      case 'apiPort':
        checked.apiPort = integer(key, value, 0, 65_535, 'a TCP port (0: any free port)');
        break;
      case 'guardianPauseAfterSlots':
        checked.guardianPauseAfterSlots = integer(key, value, 1, GUARDIAN_PAUSE_MAX_SLOTS, `slots a randomness request may wait before the guardian pauses new wagers (wagers expire at ${T_SETTLE_SLOTS})`);
        break;
      case 'guardianResumeAfterSlots':
        checked.guardianResumeAfterSlots = integer(key, value, 1, 10_000, 'slots of fulfilments before the guardian resumes new wagers');
        break;
      case 'shardTakeoverSlots':
        checked.shardTakeoverSlots = integer(key, value, 1, SHARD_TAKEOVER_MAX_SLOTS, `slots another shard's wager waits before this keeper takes it over (twice that must fit in T_SETTLE = ${T_SETTLE_SLOTS})`);
        break;
      case 'shard':
        if (typeof value !== 'string') throw new Error('shard must be "I/N" (this keeper\'s index and the fleet\'s size), or empty for none');
        if (value.trim() !== '') parseShard(value.trim().replace(/^--shard /, ''));
        checked.shard = value.trim();
        break;
      case 'fleetMembers':
        if (!Array.isArray(value) || value.some((url) => typeof url !== 'string')) throw new Error('fleetMembers must be a list of keeper API URLs');
        // Each checked here (fleetHealthUrl throws a sentence naming the bad one).
        for (const url of value as string[]) fleetHealthUrl(url);
        checked.fleetMembers = [...new Set((value as string[]).map((url) => url.trim().replace(/\/+$/, '')))];
        break;
      case 'demoEnabled':
      case 'demoOnTestNetworks':
      case 'guardianAutomatic':
      case 'priorityFeeAuto':
      case 'paused':
        if (typeof value !== 'boolean') throw new Error(`${key} must be true or false`);
        checked[key] = value;
        break;
      case 'apiHost':
        if (typeof value !== 'string' || value.trim() === '') throw new Error('apiHost must be an address of this machine, like 127.0.0.1');
        checked.apiHost = value.trim();
        break;
      case 'corsOrigins':
        if (!Array.isArray(value) || value.some((origin) => typeof origin !== 'string' || !/^https?:\/\/[^/]+$/.test(origin)))
          throw new Error('corsOrigins must be origins like https://app.example.com (scheme and host, no path)');
        checked.corsOrigins = value as string[];
        break;
      case 'heartbeatEverySeconds':
        checked.heartbeatEverySeconds = integer(key, value, HEARTBEAT_EVERY_SECONDS.min, HEARTBEAT_EVERY_SECONDS.max, 'seconds between heartbeat pings');
        break;
      case 'heartbeatUrl':
        if (typeof value !== 'string') throw new Error('heartbeatUrl must be an http:// or https:// URL, or empty for none');
        checked.heartbeatUrl = value.trim() === '' ? '' : checkHeartbeatUrl(value.trim());
        break;
      case 'heartbeatConfigured':
      case 'heartbeatLabel':
        throw new Error(`${key} follows from the heartbeat URL: save heartbeatUrl (the URL, or '' for none) instead`);
      case 'alertThresholds':
      case 'alertDesktopNotifications':
        throw new Error(`${key} is saved through saveAlertSettings (Settings → Alerts)`);
      case 'sweep':
        throw new Error('sweep is saved through saveSweepSettings (Settings → Earnings)');
      case 'deploymentFiles':
        // Written by loadDeployment (which checks each file against its cluster), not typed in a form.
        if (!Array.isArray(value) || value.some((entry: { genesisHash?: unknown; path?: unknown }) => typeof entry?.genesisHash !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(entry.genesisHash) || typeof entry.path !== 'string' || entry.path === ''))
          throw new Error('deploymentFiles must be a list of {genesisHash, path}');
        checked.deploymentFiles = (value as { genesisHash: string; path: string }[]).map(({ genesisHash, path }) => ({ genesisHash, path }));
        break;
      default:
        throw new Error(`unknown setting '${String(key)}'`);
    }
  }
  return checked;
}

function validateCluster(value: unknown): ClusterSetting {
  const cluster = value as Partial<ClusterSetting> | null;
  if (cluster?.kind === 'embedded') return { kind: 'embedded' };
  if (cluster?.kind !== 'rpc') throw new Error("cluster must be { kind: 'embedded' } or { kind: 'rpc', rpcUrl, wsUrl }");
  const { rpcUrl, wsUrl } = cluster as { rpcUrl?: unknown; wsUrl?: unknown };
  if (typeof rpcUrl !== 'string' || !hasProtocol(rpcUrl, RPC_URL_PROTOCOLS))
    throw new Error(`the RPC URL must be an http:// or https:// URL, like https://api.devnet.solana.com; got ${JSON.stringify(rpcUrl)}`);
  if (wsUrl !== null && wsUrl !== undefined && wsUrl !== '' && (typeof wsUrl !== 'string' || !hasProtocol(wsUrl, WS_URL_PROTOCOLS)))
    throw new Error(`the WebSocket URL must be a ws:// or wss:// URL (or empty: the RPC's host with port + 1); got ${JSON.stringify(wsUrl)}`);
  const primary = rpcUrl.trim();
  const fallbackRpcUrls = endpointList(cluster, 'fallbackRpcUrls', 'fallback read endpoint').filter((url) => url !== primary);
  const sendRpcUrls = endpointList(cluster, 'sendRpcUrls', 'send endpoint');
  return {
    kind: 'rpc',
    rpcUrl: primary,
    wsUrl: typeof wsUrl === 'string' && wsUrl !== '' ? wsUrl.trim() : null,
    // Empty lists are left out, so a cluster without extra endpoints compares equal to one saved before they existed.
    ...(fallbackRpcUrls.length > 0 ? { fallbackRpcUrls } : {}),
    ...(sendRpcUrls.length > 0 ? { sendRpcUrls } : {}),
  };
}

/** A cluster's extra endpoint list, checked URL by URL (trimmed, without a trailing slash, duplicates dropped). */
function endpointList(cluster: object, key: 'fallbackRpcUrls' | 'sendRpcUrls', what: string): string[] {
  const value = (cluster as Record<string, unknown>)[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error(`${key} must be a list of http:// or https:// URLs`);
  const urls = value.map((url: unknown) => {
    if (typeof url !== 'string' || !hasProtocol(url, RPC_URL_PROTOCOLS))
      throw new Error(`a ${what} must be an http:// or https:// URL, like https://rpc.example.com; got ${JSON.stringify(url)}`);
    return trimEndpointUrl(url);
  });
  const unique = [...new Set(urls)];
  if (unique.length > MAX_EXTRA_ENDPOINTS) throw new Error(`at most ${MAX_EXTRA_ENDPOINTS} ${what}s can be saved (got ${unique.length}): remove some first`);
  return unique;
}
