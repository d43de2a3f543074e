/**
 * The heartbeat URL is a secret (issue 26): saved through Settings it goes to the secret store (here the
 * 0600 file: the keychain is turned off), the settings file and views hold only its masked label, the
 * heartbeat still pings it (against a loopback receiver), and no log line holds the ping token. A settings
 * file from before (1.0.0, URL in plain text) is migrated on first open. Real conf file, real pino logger.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openHeadlessSettings } from '../../runtime/console-settings';
import type { KeeperControl } from '../../runtime/keeper-control';
import { effectiveSettings, type OperatorFlags } from '../../runtime/operator-options';
import { createSettingsService } from '../../operator/settings-service';
import type { Readiness } from '../../../src-shared/alert-types';
import { startMonitorReceiver, type MonitorReceiver } from './monitor-receiver';
import { CHANNEL_SECRETS_FILE, openChannelSecrets } from '../channels/channel-secrets';
import { createHeartbeat, type Heartbeat, type HeartbeatBeat } from '../heartbeat';
import { createHeartbeatUrlStore, HEARTBEAT_SECRET_ID } from '../heartbeat-url-store';

const SECRET = '0f8a3c2e-1d4b-4e7a-9c1f-2b3d4e5f6a7b';

let receiver: MonitorReceiver;
let base: string;
let pings: string[];
const folders: string[] = [];
beforeAll(async () => {
  receiver = await startMonitorReceiver();
  ({ base, pings } = receiver);
});
afterAll(async () => {
  await receiver.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});
let heartbeat: Heartbeat | undefined;
afterEach(() => heartbeat?.stop());

const newFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'heartbeat-secret-'));
  folders.push(folder);
  return folder;
};

/** Settings as a headless keeper has them: the conf file in `folder`, the secrets beside it, a logger whose lines are kept. */
function settingsIn(folder: string, flags: OperatorFlags = {}) {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const settings = openHeadlessSettings(folder);
  const heartbeatUrls = createHeartbeatUrlStore({
    secrets: openChannelSecrets(folder, { keychain: false }),
    settings,
    ...(flags.heartbeatUrl !== undefined ? { flagUrl: flags.heartbeatUrl } : {}),
    log,
  });
  // Only what saveSettings touches when no keeper runs.
  const control = {
    settings: () => effectiveSettings(settings.store, flags),
    chain: undefined,
    keeperSide: undefined,
    syncDemo: async () => {},
    emitStatus: () => {},
  } as unknown as KeeperControl;
  const api = createSettingsService(
    control,
    { flags, settings },
    {
      keyView: async () => ({ inUse: null, keychain: { address: null, error: null }, current: 'local', accounts: [] }),
      emit: () => {},
      fleetMembersChanged: () => {},
      heartbeatUrls,
    },
  );
  return { api, heartbeatUrls, lines, log, settingsFile: join(folder, 'console.json') };
}

/** Starts the heartbeat on the stored URL every 50 ms; `beats(kind, n)` waits for n more beats of that kind. */
function beatOn(url: () => string | null, log: pino.Logger, state: { readiness: Readiness }) {
  const waiters: { beat: HeartbeatBeat; left: number; resolve: () => void }[] = [];
  heartbeat = createHeartbeat({
    config: () => {
      const current = url();
      return current ? { url: current, everySeconds: 0.05 } : null;
    },
    readiness: () => state.readiness,
    log,
    onBeat(beat) {
      for (const waiter of [...waiters])
        if (waiter.beat === beat && --waiter.left === 0) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
    },
  });
  heartbeat.start();
  return (beat: HeartbeatBeat, count: number) =>
    new Promise<void>((resolve) => waiters.push({ beat, left: count, resolve }));
}

describe('the heartbeat URL is a secret', () => {
  it('is saved to the secret store, shown masked, pinged, never logged, and removed by saving an empty one', async () => {
    const folder = newFolder();
    const { api, heartbeatUrls, lines, log, settingsFile } = settingsIn(folder);
    const url = `${base}/ping/${SECRET}`;

    const { view } = await api.saveSettings({ changes: { heartbeatUrl: url, heartbeatEverySeconds: 60 } });
    expect(view.settings).toMatchObject({
      heartbeatConfigured: true,
      heartbeatLabel: `${base}/ping/***`,
      heartbeatEverySeconds: 60,
    });
    expect(JSON.stringify(await api.settings())).not.toContain(SECRET);
    expect(readFileSync(settingsFile, 'utf8')).not.toContain(SECRET);
    const secretsFile = join(folder, CHANNEL_SECRETS_FILE);
    expect(readFileSync(secretsFile, 'utf8')).toContain(SECRET);
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600);

    // The heartbeat pings the stored URL; not ready and failing are logged with the masked label only.
    const state = { readiness: { ready: true, reasons: [] } as Readiness };
    const beats = beatOn(() => heartbeatUrls.url(), log, state);
    await beats('sent', 2);
    expect(pings).toContain(`GET /ping/${SECRET}`);
    state.readiness = { ready: false, reasons: ['rpc-failing: the RPC has failed for 42 s'] };
    await beats('notReady', 1);
    heartbeat!.stop();
    await api.saveSettings({ changes: { heartbeatUrl: `${base}/fail/${SECRET}` } });
    const failing = beatOn(() => heartbeatUrls.url(), log, { readiness: { ready: true, reasons: [] } });
    await failing('failed', 1);
    heartbeat!.stop();
    expect(
      lines.some((line) => line.includes('heartbeat ping failed') && line.includes(`${base}/fail/***`)),
    ).toBe(true);
    expect(lines.some((line) => line.includes('heartbeat: not ready'))).toBe(true);
    expect(lines.join('')).not.toContain(SECRET);

    // Another start (same folder) reads it back from the secret store.
    expect(settingsIn(folder).heartbeatUrls.url()).toBe(`${base}/fail/${SECRET}`);

    const cleared = await api.saveSettings({ changes: { heartbeatUrl: '' } });
    expect(cleared.view.settings).toMatchObject({ heartbeatConfigured: false, heartbeatLabel: '' });
    expect(heartbeatUrls.url()).toBeNull();
    expect(readFileSync(secretsFile, 'utf8')).not.toContain(SECRET);
    await expect(api.saveSettings({ changes: { heartbeatLabel: 'x' } as never })).rejects.toThrow(
      /save heartbeatUrl/,
    );
  });

  it('takes --heartbeat-url for the run, shown masked and read-only, never stored', async () => {
    const folder = newFolder();
    const flagUrl = `https://hc-ping.com/${SECRET}`;
    const { api, heartbeatUrls, settingsFile } = settingsIn(folder, { heartbeatUrl: flagUrl });
    expect(heartbeatUrls.url()).toBe(flagUrl);
    const view = await api.settings();
    expect(view.settings).toMatchObject({
      heartbeatConfigured: true,
      heartbeatLabel: 'https://hc-ping.com/***',
    });
    expect(view.fixedByFlags).toContain('heartbeatUrl');
    expect(JSON.stringify(view)).not.toContain(SECRET);
    await expect(api.saveSettings({ changes: { heartbeatUrl: `${base}/other` } })).rejects.toThrow(
      /command-line flag/,
    );
    expect(readFileSync(settingsFile, 'utf8')).not.toContain(SECRET);
  });

  it('moves a plain heartbeatUrl of an older settings file to the secret store on first open', () => {
    const folder = newFolder();
    const url = `https://hc-ping.com/${SECRET}`;
    const settingsFile = join(folder, 'console.json');
    writeFileSync(
      settingsFile,
      JSON.stringify({
        heartbeatUrl: url,
        heartbeatEverySeconds: 45,
        __internal__: { migrations: { version: '1.0.0' } },
      }),
    );
    // No D-Bus session: the migration keeps the URL in the 0600 file, as a headless machine would.
    const bus = process.env.DBUS_SESSION_BUS_ADDRESS;
    delete process.env.DBUS_SESSION_BUS_ADDRESS;
    try {
      const settings = openHeadlessSettings(folder);
      expect(settings.store).toMatchObject({
        heartbeatConfigured: true,
        heartbeatLabel: 'https://hc-ping.com/***',
        heartbeatEverySeconds: 45,
      });
    } finally {
      if (bus !== undefined) process.env.DBUS_SESSION_BUS_ADDRESS = bus;
    }
    expect(readFileSync(settingsFile, 'utf8')).not.toContain(SECRET);
    expect(openChannelSecrets(folder, { keychain: false }).find(HEARTBEAT_SECRET_ID)).toBe(url);
    expect(settingsIn(folder).heartbeatUrls.url()).toBe(url);
  });
});
