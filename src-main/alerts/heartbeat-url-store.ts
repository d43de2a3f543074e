/**
 * Where the heartbeat URL is kept (issue 26). The URL is a secret (a healthchecks.io ping id, an Uptime
 * Kuma push token), so it is kept like the webhook channels' URLs: in the OS keychain, else the 0600 file
 * beside the settings (channel-secrets.ts, id "heartbeat"). The settings keep only `heartbeatConfigured`
 * and the masked `heartbeatLabel`. `--heartbeat-url` wins for its run and is never stored.
 */
import { dirname } from 'node:path';
import type { ChannelSecrets } from './channels/channel-secrets';
import { openChannelSecrets } from './channels/channel-secrets';
import { maskUrl } from '../../src-shared/mask-url';

/** The secret store's id of the heartbeat URL (channel ids are "FORMAT-HASH", so they never take it). */
export const HEARTBEAT_SECRET_ID = 'heartbeat';

/** What the settings keep of the heartbeat URL: nothing secret. */
export interface HeartbeatSettingsRecord {
  heartbeatConfigured: boolean;
  heartbeatLabel: string;
}

export interface HeartbeatUrlStore {
  /** The URL to ping: the flag's for this run, else the stored one; null when none (or it cannot be read: logged once). */
  url(): string | null;
  /** Stores an already checked URL and records its masked label in the settings; '' removes it. */
  save(url: string): void;
}

export interface HeartbeatUrlStoreOptions {
  secrets: ChannelSecrets;
  settings: { readonly store: HeartbeatSettingsRecord; set(record: HeartbeatSettingsRecord): void };
  /** --heartbeat-url for this run. */
  flagUrl?: string;
  log: { warn(object: object, message: string): void };
}

export function createHeartbeatUrlStore(options: HeartbeatUrlStoreOptions): HeartbeatUrlStore {
  const { secrets, settings, log } = options;
  // Read once and kept in memory: the heartbeat asks before every beat, and a keychain read each time is a D-Bus call.
  let cached: string | null | undefined;
  let warned = false;

  const stored = (): string | null => {
    if (!settings.store.heartbeatConfigured) return null;
    if (cached !== undefined) return cached;
    let problem: string;
    try {
      const url = secrets.find(HEARTBEAT_SECRET_ID);
      if (url !== null) return (cached = url);
      problem = 'it is in neither the OS keychain nor alert-channel-secrets.json';
    } catch (error) {
      problem = `the OS keychain cannot be read (${(error as Error).message})`;
    }
    if (!warned)
      log.warn(
        { heartbeat: settings.store.heartbeatLabel, problem },
        'heartbeat: the saved URL cannot be read, so no pings are sent; enter it again in Settings → Alerts',
      );
    warned = true;
    return null;
  };

  return {
    url: () => options.flagUrl ?? stored(),
    save(url) {
      secrets.forget(HEARTBEAT_SECRET_ID);
      cached = undefined;
      warned = false;
      if (url === '') {
        settings.set({ heartbeatConfigured: false, heartbeatLabel: '' });
        return;
      }
      secrets.store(HEARTBEAT_SECRET_ID, url);
      cached = url;
      settings.set({ heartbeatConfigured: true, heartbeatLabel: maskUrl(url) });
    },
  };
}

/** A settings store as conf's migrations get it (conf and electron-store alike). */
interface MigratingStore {
  readonly path: string;
  get(key: string): unknown;
  set(object: object): void;
  delete(key: string): void;
}

/**
 * Settings migration 1.1.0: a file from before kept the heartbeat URL in plain text (`heartbeatUrl`). The
 * URL moves to the secret store beside the file, and the file keeps only that one is configured and its
 * masked label.
 */
export function moveHeartbeatUrlToSecrets(store: MigratingStore): void {
  const legacy = store.get('heartbeatUrl');
  if (typeof legacy === 'string' && legacy.trim() !== '') {
    const secrets = openChannelSecrets(dirname(store.path));
    secrets.forget(HEARTBEAT_SECRET_ID);
    secrets.store(HEARTBEAT_SECRET_ID, legacy.trim());
    store.set({ heartbeatConfigured: true, heartbeatLabel: maskUrl(legacy.trim()) });
  }
  store.delete('heartbeatUrl');
}
