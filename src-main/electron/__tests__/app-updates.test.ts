/**
 * The desktop updates (app-updates.ts) with electron-updater's real classes (AppImageUpdater, DebUpdater)
 * against a loopback feed: a generic feed serving latest-linux.yml and an AppImage, set as the operator's
 * mirror over the app-update.yml a release carries (GitHub). electron-updater's `require('electron')` gets
 * the electron stand-in (a resolve hook, as e2e/desktop/register-electron.mjs does for the built main), so
 * its downloads go through the stand-in's net.request and its app through the stand-in's app: the same
 * path as in a packaged app. Each test has its own temp resources, cache, appData and APPIMAGE file.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { registerHooks } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import electronUpdater from 'electron-updater';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IPC_UPDATE_GET_STATUS, IPC_UPDATE_STATUS_EVENT } from '../../../src-shared/contract/bridge';
import type { OperatorApi } from '../../../src-shared/contract/operator-api';
import type { UpdatePreferences, UpdateStatusView } from '../../../src-shared/contract/updates';
import { createAppUpdates, type AppUpdates } from '../app-updates';
import { runDesktopApp, type DesktopService } from '../desktop-app';
import { memoryPreferences } from '../desktop-preferences';
import { NOT_PACKAGED_REASON } from '../update-policy';
import { createElectronStandIn, type ElectronStandIn } from './electron-stand-in';
import { builtAppFolder } from './built-app-folder';

const { AppImageUpdater, DebUpdater } = electronUpdater;
const HERE = fileURLToPath(new URL('.', import.meta.url));
const ELECTRON_FOR_UPDATER = pathToFileURL(join(HERE, 'fixtures', 'electron-for-updater.cjs')).href;
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: ELECTRON_FOR_UPDATER, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});
declare global {
  var __wagerKeeperUpdaterElectron: unknown;
}

const ARTIFACT = 'Wager-Keeper-0.2.0.AppImage';
/** The "new version": a script that says it was started (electron-updater starts the new AppImage after installing it). */
const NEW_APP = '#!/bin/sh\necho started > "$WK_UPDATE_STARTED"\n';

interface Feed {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** A generic feed on 127.0.0.1: latest-linux.yml naming 0.2.0 with the sha512 of NEW_APP, and the file (tampered: other bytes). */
async function startFeed({ tampered = false } = {}): Promise<Feed> {
  const sha512 = createHash('sha512').update(NEW_APP).digest('base64');
  const latest = `version: 0.2.0\nfiles:\n  - url: ${ARTIFACT}\n    sha512: ${sha512}\n    size: ${Buffer.byteLength(NEW_APP)}\npath: ${ARTIFACT}\nsha512: ${sha512}\nreleaseDate: '2026-11-28T00:00:00.000Z'\n`;
  const served = tampered ? NEW_APP.replace('started', 'tampered') : NEW_APP;
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url!, 'http://feed').pathname;
    requests.push(path);
    // No ranges: the differential download falls back to the whole file, as against a plain file server.
    if (request.headers.range) return void response.writeHead(416).end();
    if (path === '/latest-linux.yml') return void response.writeHead(200, { 'content-type': 'text/yaml' }).end(latest);
    if (path === `/${ARTIFACT}`) return void response.writeHead(200, { 'content-length': Buffer.byteLength(served) }).end(served);
    response.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.useRealTimers();
});

interface Setup {
  updates: AppUpdates;
  electron: ElectronStandIn;
  appImage: string;
  cache: string;
  stored: UpdatePreferences;
  statusWhen(wanted: (status: UpdateStatusView) => boolean): Promise<UpdateStatusView>;
}

interface Environment {
  root: string;
  electron: ElectronStandIn;
  appImage: string;
  cache: string;
}

/** A packaged app's surroundings: resources/app-update.yml (GitHub, as a release has), APPIMAGE, the cache, the stand-in. */
async function environment(options: { packaged?: boolean; packageType?: string }): Promise<Environment> {
  const root = mkdtempSync(join(tmpdir(), 'wk-updates-'));
  // resources/ as electron-builder packs it: app-update.yml from electron-builder.yml's publish.
  const resources = join(root, 'resources');
  mkdirSync(resources);
  writeFileSync(join(resources, 'app-update.yml'), 'owner: wager-keeper\nrepo: wager-keeper\nprovider: github\nreleaseType: release\nupdaterCacheDirName: wager-keeper-updater\n');
  if (options.packageType) writeFileSync(join(resources, 'package-type'), `${options.packageType}\n`);
  const saved = { resourcesPath: (process as { resourcesPath?: string }).resourcesPath, env: { ...process.env } };
  Object.assign(process, { resourcesPath: resources });
  const cache = join(root, 'cache');
  process.env.XDG_CACHE_HOME = cache;
  process.env.WK_UPDATE_STARTED = join(root, 'started');
  const appImage = join(root, 'Wager Keeper.AppImage');
  writeFileSync(appImage, 'the running version');
  if (options.packageType) delete process.env.APPIMAGE;
  else process.env.APPIMAGE = appImage;
  cleanups.push(() => {
    Object.assign(process, { resourcesPath: saved.resourcesPath });
    for (const key of ['XDG_CACHE_HOME', 'WK_UPDATE_STARTED', 'APPIMAGE']) {
      if (saved.env[key] === undefined) Reflect.deleteProperty(process.env, key);
      else process.env[key] = saved.env[key];
    }
  });

  const electron = createElectronStandIn({ appData: join(root, 'appData'), isPackaged: options.packaged ?? true, version: '0.1.0' });
  globalThis.__wagerKeeperUpdaterElectron = electron.electron;
  return { root, electron, appImage, cache };
}

async function setup(options: {
  feed: Feed;
  checkForUpdates?: boolean;
  packaged?: boolean;
  packageType?: string;
  inFlight?: () => number;
  intervalMs?: number;
}): Promise<Setup> {
  const { electron, appImage, cache } = await environment(options);
  await electron.electron.app.whenReady();
  const stored: UpdatePreferences = { checkForUpdates: options.checkForUpdates ?? true, updateFeedUrl: options.feed.url };
  const listeners = new Set<(status: UpdateStatusView) => void>();
  const inFlight = options.inFlight ?? (() => 0);
  const updates = createAppUpdates({
    electron: electron.electron as never,
    platform: 'linux',
    preferences: { current: () => stored, setUpdatePreferences: (changes) => Object.assign(stored, changes) },
    service: { holdCranks: () => ({ inFlight, release() {} }) },
    log: { info() {}, warn() {}, error() {} },
    onStatus: (status) => listeners.forEach((listener) => listener(status)),
    createUpdater: async () => (options.packageType === 'deb' ? new DebUpdater() : new AppImageUpdater()),
    ...(options.intervalMs ? { intervalMs: options.intervalMs } : {}),
  });
  cleanups.push(() => updates.stop());
  const statusWhen = (wanted: (status: UpdateStatusView) => boolean) =>
    new Promise<UpdateStatusView>((resolve, reject) => {
      if (wanted(updates.status())) return resolve(updates.status());
      const timer = setTimeout(() => reject(new Error(`no such update status; last: ${JSON.stringify(updates.status())}`)), 15_000);
      const listener = (status: UpdateStatusView) => {
        if (!wanted(status)) return;
        clearTimeout(timer);
        listeners.delete(listener);
        resolve(status);
      };
      listeners.add(listener);
    });
  return { updates, electron, appImage, cache, stored, statusWhen };
}

async function feed(options?: { tampered?: boolean }) {
  const started = await startFeed(options);
  cleanups.push(() => started.close());
  return started;
}

describe('desktop updates against a loopback feed (electron-updater under the electron stand-in)', () => {
  it('finds a newer version on the mirror feed, downloads it in the background through Electron’s net and verifies its sha512', async () => {
    const mirror = await feed();
    const { updates, electron, cache } = await setup({ feed: mirror });
    await updates.start();
    const status = updates.status();
    expect(status).toMatchObject({ state: 'downloaded', version: '0.2.0', currentVersion: '0.1.0', builtInFeed: 'GitHub releases of wager-keeper/wager-keeper' });
    expect(status.message).toMatch(/Version 0\.2\.0 is downloaded and verified\. Restart to update/);
    expect(status.verification).toMatch(/sha512 must match the one latest-linux\.yml on the feed lists/);
    // The mirror (a generic feed) answered, not GitHub; through net.request in electron-updater's own session.
    expect(mirror.requests).toContain('/latest-linux.yml');
    expect(mirror.requests).toContain(`/${ARTIFACT}`);
    expect(electron.netRequests.length).toBeGreaterThan(0);
    expect(electron.netRequests.every((request) => request.url.startsWith(mirror.url) && request.partition === 'electron-updater')).toBe(true);
    // What was kept is the file the feed's sha512 names.
    const kept = join(cache, 'wager-keeper-updater', 'pending', ARTIFACT);
    expect(createHash('sha512').update(readFileSync(kept)).digest('hex')).toBe(createHash('sha512').update(NEW_APP).digest('hex'));
  });

  it('refuses a tampered download with a message that says so, keeps nothing and installs nothing', async () => {
    const mirror = await feed({ tampered: true });
    const { updates, appImage, cache } = await setup({ feed: mirror });
    await updates.start();
    const status = updates.status();
    expect(status.state).toBe('failed');
    expect(status.message).toMatch(/^The download of version 0\.2\.0 did not match the sha512 checksum its release feed lists, so it was discarded and nothing was installed\./);
    expect(status.message).toContain(mirror.url);
    expect(mirror.requests).toContain(`/${ARTIFACT}`);
    const pending = join(cache, 'wager-keeper-updater', 'pending');
    expect(existsSync(pending) ? readdirSync(pending).filter((name) => name.endsWith('.AppImage')) : []).toEqual([]);
    expect(readFileSync(appImage, 'utf8')).toBe('the running version');
    await expect(updates.restartToUpdate()).rejects.toThrow(/no update is downloaded yet/);
  });

  it('"Restart to update" holds the keeper until no crank is in flight, then quits and installs (the new AppImage swapped in and started)', async () => {
    const mirror = await feed();
    let inFlight = 2;
    const { updates, electron, appImage, statusWhen } = await setup({ feed: mirror, inFlight: () => inFlight });
    await updates.start();
    expect(updates.status().state).toBe('downloaded');
    let inFlightAtQuit: number | null = null;
    electron.electron.app.on('before-quit', () => (inFlightAtQuit ??= inFlight));
    const beforeQuitForUpdate = vi.fn();
    electron.electron.autoUpdater.on('before-quit-for-update', beforeQuitForUpdate);

    const restarting = updates.restartToUpdate();
    await statusWhen((status) => status.state === 'draining' && status.inFlight === 2);
    inFlight = 1;
    await statusWhen((status) => status.inFlight === 1 && /waiting for 1 crank in flight/.test(status.message));
    // Nothing quit or installed while a wager's crank is in flight.
    expect(electron.electron.app.quitCount).toBe(0);
    expect(inFlightAtQuit).toBeNull();
    expect(readFileSync(appImage, 'utf8')).toBe('the running version');

    inFlight = 0;
    await restarting;
    expect(updates.status().state).toBe('installing');
    expect(inFlightAtQuit).toBe(0);
    // Installed on will-quit: this .AppImage replaced by the verified file, the lock released, the new one started.
    expect(readFileSync(appImage, 'utf8')).toBe(NEW_APP);
    expect(electron.electron.app.singleInstanceLockReleased).toBe(true);
    await vi.waitFor(() => expect(existsSync(process.env.WK_UPDATE_STARTED!)).toBe(true), { timeout: 10_000, interval: 50 });
    await vi.waitFor(() => expect(beforeQuitForUpdate).toHaveBeenCalled());
    expect(electron.electron.app.quitCount).toBeGreaterThan(0);
  });

  it('with checking off no request reaches the feed, at start or when the 12-hour timer would fire; on again it checks at once', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const mirror = await feed();
    const intervalMs = 12 * 60 * 60 * 1000;
    const { updates, electron, stored } = await setup({ feed: mirror, checkForUpdates: false, intervalMs });
    await updates.start();
    expect(updates.status()).toMatchObject({ state: 'off', checkForUpdates: false });
    expect(updates.status().message).toMatch(/Checking for updates is off/);
    vi.advanceTimersByTime(3 * intervalMs);
    await updates.settled();
    expect(mirror.requests).toEqual([]);
    expect(electron.netRequests).toEqual([]);
    await expect(updates.checkNow()).rejects.toThrow(/checking for updates is off/);

    // On: a check at once (the feed is there), then every 12 hours.
    await updates.setPreferences({ checkForUpdates: true });
    expect(stored.checkForUpdates).toBe(true);
    expect(mirror.requests).toContain('/latest-linux.yml');

    // Off again: the timer is gone.
    await updates.setPreferences({ checkForUpdates: false });
    const seen = mirror.requests.length;
    vi.advanceTimersByTime(3 * intervalMs);
    await updates.settled();
    expect(mirror.requests.length).toBe(seen);
    expect(updates.status().state).toBe('off');
  });

  it('a deb gets a notice with the release page, nothing downloaded; an unpackaged app never checks and says why', async () => {
    const mirror = await feed();
    const deb = await setup({ feed: mirror, packageType: 'deb' });
    await deb.updates.start();
    expect(deb.updates.status()).toMatchObject({ state: 'notice', version: '0.2.0', releaseUrl: mirror.url });
    expect(deb.updates.status().howUpdatesArrive).toMatch(/Linux deb: updated by the package manager/);
    expect(mirror.requests).toEqual(['/latest-linux.yml']);

    const other = await feed();
    const unpackaged = await setup({ feed: other, packaged: false });
    await unpackaged.updates.start();
    expect(unpackaged.updates.status()).toMatchObject({ state: 'unavailable', message: NOT_PACKAGED_REASON });
    expect(other.requests).toEqual([]);
    await expect(unpackaged.updates.checkNow()).rejects.toThrow(/runs from the source tree/);
  });

  it('refuses a mirror served over plain http from another machine', async () => {
    const mirror = await feed();
    const { updates, stored } = await setup({ feed: mirror, checkForUpdates: false });
    await updates.start();
    await expect(updates.setPreferences({ updateFeedUrl: 'http://mirror.example/releases/' })).rejects.toThrow(/must be served over https/);
    expect(stored.updateFeedUrl).toBe(mirror.url);
    await updates.setPreferences({ updateFeedUrl: 'https://mirror.example/releases/' });
    expect(stored.updateFeedUrl).toBe('https://mirror.example/releases/');
  });

  it('in the desktop app: the tray offers Restart to update, which waits for the cranks in flight, stops the core, and only then installs', async () => {
    const mirror = await feed();
    const { root, electron: standIn, appImage } = await environment({});
    // The built app's folder as runDesktopApp reads it (out/ with the page and preload, resources/icons).
    const { out } = builtAppFolder(join(root, 'app'));

    let inFlight = 0;
    const order: string[] = [];
    const service: DesktopService = {
      api: new Proxy({}, { get: () => async () => ({}) }) as OperatorApi,
      onEvent: () => () => {},
      start: async () => {},
      stop: async () => {
        order.push(`stop with ${inFlight} in flight, the AppImage ${readFileSync(appImage, 'utf8') === NEW_APP ? 'new' : 'old'}`);
        await new Promise((resolve) => setImmediate(resolve));
        order.push('stopped');
      },
      wake: async () => {},
      holdCranks: () => (order.push('hold'), { inFlight: () => inFlight, release: () => void order.push('release') }),
    };
    const preferences = memoryPreferences({ updateFeedUrl: mirror.url });
    await runDesktopApp(standIn.electron as never, {
      createService: () => service,
      createPreferences: () => preferences,
      outDirectory: out,
      platform: 'linux',
      argv: [],
      launch: { command: '/opt/Wager Keeper/wager-keeper', args: [] },
      trayHost: standIn.trayHost,
      log: { info() {}, warn() {}, error() {} },
      updates: { createUpdater: async () => new AppImageUpdater() },
    });
    standIn.electron.app.on('will-quit', () => order.push(`will-quit, the AppImage ${readFileSync(appImage, 'utf8') === NEW_APP ? 'new' : 'old'}`));
    const trayLabels = () => standIn.trays[0]!.contextMenu!.items.map((item) => item.label ?? '');
    await vi.waitFor(() => expect(trayLabels()).toContain('Restart to update (0.2.0)'), { timeout: 10_000, interval: 20 });
    // The page asks the status over its channel and is told each change.
    expect(await standIn.invoke(IPC_UPDATE_GET_STATUS)).toMatchObject({ ok: true, value: { state: 'downloaded', version: '0.2.0' } });
    const window = standIn.windows[0]!;
    expect(window.webContents.sent.some((sent) => sent.channel === IPC_UPDATE_STATUS_EVENT && (sent.payload as UpdateStatusView).state === 'downloaded')).toBe(true);

    inFlight = 1;
    standIn.clickMenuItem(standIn.trays[0]!.contextMenu, 'Restart to update (0.2.0)');
    await vi.waitFor(() => expect(trayLabels()).toContain('Updating: waiting for 1 crank in flight…'), { timeout: 5_000, interval: 20 });
    expect(order).toEqual(['hold']);
    expect(readFileSync(appImage, 'utf8')).toBe('the running version');

    inFlight = 0;
    await vi.waitFor(() => expect(readFileSync(appImage, 'utf8')).toBe(NEW_APP), { timeout: 10_000, interval: 20 });
    // Held, drained to zero, the core stopped (the old file still in place), then installed on will-quit.
    expect(order).toEqual(['hold', 'stop with 0 in flight, the AppImage old', 'stopped', 'will-quit, the AppImage new']);
    await vi.waitFor(() => expect(existsSync(process.env.WK_UPDATE_STARTED!)).toBe(true), { timeout: 10_000, interval: 50 });
  });
});
