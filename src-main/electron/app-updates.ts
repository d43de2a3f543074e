/**
 * The desktop app's updates (electron-updater 6.8): checks the release feed at start and every 12 hours,
 * downloads in the background where this install can update in place, and offers "Restart to update"; where
 * it cannot (a deb, an unsigned macOS app: update-policy.ts) it says a new version is out and links to it.
 *
 * Verification is electron-updater's: every download is hashed while it is written and compared with the
 * sha512 the feed's latest*.yml lists (builder-util-runtime DigestTransform, "sha512 checksum mismatch" /
 * ERR_CHECKSUM_MISMATCH), and a mismatching file is deleted (AppUpdater.executeDownload). On Windows
 * NsisUpdater then checks the installer's Authenticode signature against app-update.yml's publisherName.
 *
 * "Restart to update" never restarts under a wager in flight: it holds the keeper (no new crank is sent,
 * OperatorService.holdCranks) and waits until no wager has a crank in flight. Then:
 * - Windows and Linux: it quits the app the usual way (before-quit stops the core gracefully,
 *   desktop-app.ts) and installs on 'will-quit', once the core has stopped:
 *   BaseUpdater.quitAndInstall(isSilent, isForceRunAfter) starts the NSIS installer (`--updated /S
 *   --force-run`, which would otherwise close a still-running app) or swaps the .AppImage and starts the
 *   new one. The single-instance lock is released first, so the new instance is not refused as a second.
 * - macOS: MacUpdater.quitAndInstall first lets Squirrel.Mac fetch the verified zip from electron-updater's
 *   loopback proxy (asynchronous: too late in will-quit), then calls Electron's autoUpdater.quitAndInstall,
 *   which closes the windows and quits (before-quit stops the core); Squirrel's ShipIt installs once the
 *   process has exited and starts the new version.
 * `autoInstallOnAppQuit` is off: an update installs only when the operator chooses it.
 */
import type { AppUpdater, ProgressInfo, UpdateInfo } from 'electron-updater';
import type { UpdatePreferences, UpdateStatusView } from '../../src-shared/contract/updates';
import type { DesktopLog, DesktopService, Electron } from './electron-api';
import { readInstallFacts } from './update-install-facts';
import {
  builtInFeedInWords,
  checkFeedUrl,
  releasePageUrl,
  UPDATE_CHECK_INTERVAL_MS,
  updateFailureInWords,
  updateMode,
  type InstallFacts,
  type UpdateMode,
} from './update-policy';

/** How often "Restart to update" looks at the wagers in flight while it waits. */
const DRAIN_POLL_MS = 250;

export interface AppUpdatesOptions {
  electron: Pick<Electron, 'app'>;
  platform: NodeJS.Platform;
  preferences: {
    current(): UpdatePreferences;
    setUpdatePreferences(changes: Partial<UpdatePreferences>): void;
  };
  service: Pick<DesktopService, 'holdCranks'>;
  log: DesktopLog;
  /** Each change of the status (the window's banner, the tray). */
  onStatus(status: UpdateStatusView): void;
  /** Default: update-install-facts.ts. */
  installFacts?: () => Promise<InstallFacts>;
  /** Default: electron-updater's autoUpdater (NsisUpdater, MacUpdater, AppImageUpdater or DebUpdater by platform). */
  createUpdater?: () => Promise<AppUpdater>;
  /** Default 12 hours. */
  intervalMs?: number;
}

export interface AppUpdates {
  status(): UpdateStatusView;
  /** Reads what this install is, then checks at once (unless checking is off) and every 12 hours. */
  start(): Promise<void>;
  checkNow(): Promise<UpdateStatusView>;
  restartToUpdate(): Promise<UpdateStatusView>;
  cancelRestart(): UpdateStatusView;
  setPreferences(changes: Partial<UpdatePreferences>): Promise<UpdateStatusView>;
  /** The newer version's release page (notice), or null. */
  releaseUrl(): string | null;
  /** Settles when the check (and download) under way settles. */
  settled(): Promise<void>;
  /** No more checks (the app is quitting). */
  stop(): void;
}

async function defaultUpdater(): Promise<AppUpdater> {
  // electron-updater is CommonJS with a lazy `autoUpdater` getter: its documented ESM form is the default
  // import (electron.build/auto-update, "ESM"). Loaded only in a packaged app.
  const { default: electronUpdater } = await import('electron-updater');
  return electronUpdater.autoUpdater;
}

export function createAppUpdates(options: AppUpdatesOptions): AppUpdates {
  const { electron, log, preferences } = options;
  const { app } = electron;
  const intervalMs = options.intervalMs ?? UPDATE_CHECK_INTERVAL_MS;
  let facts: InstallFacts | null = null;
  let mode: UpdateMode = { kind: 'none', reason: 'The app is starting: updates are looked at once it has.' };
  let updater: AppUpdater | null = null;
  let feedApplied: string | null = null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let checking = false;
  let drain: { cancelled: boolean; hold: { inFlight(): number; release(): void } } | null = null;
  let installOnQuit = false;
  let stopped = false;

  let view: UpdateStatusView = {
    state: 'unavailable',
    currentVersion: app.getVersion(),
    version: null,
    message: mode.kind === 'none' ? mode.reason : '',
    howUpdatesArrive: '',
    verification: '',
    releaseUrl: null,
    percent: null,
    inFlight: null,
    checkedAt: null,
    checkForUpdates: preferences.current().checkForUpdates,
    updateFeedUrl: preferences.current().updateFeedUrl,
    builtInFeed: builtInFeedInWords(null),
  };
  const set = (changes: Partial<UpdateStatusView>) => {
    view = { ...view, ...changes };
    options.onStatus(view);
  };
  const feedInWords = () => view.updateFeedUrl || view.builtInFeed;

  /** The mode and the fixed parts of the view, from the facts and the preferences. */
  const describe = () => {
    const { checkForUpdates, updateFeedUrl } = preferences.current();
    mode = facts ? updateMode(facts, updateFeedUrl) : mode;
    const base = {
      checkForUpdates,
      updateFeedUrl,
      builtInFeed: builtInFeedInWords(facts?.feed ?? null),
      howUpdatesArrive: mode.kind === 'none' ? mode.reason : mode.how,
      verification: mode.kind === 'none' ? '' : mode.verification,
    };
    if (mode.kind === 'none') return set({ ...base, state: 'unavailable', message: mode.reason });
    if (!checkForUpdates)
      return set({ ...base, state: 'off', message: 'Checking for updates is off (Settings → Desktop app).' });
    if (view.state === 'off' || view.state === 'unavailable')
      return set({ ...base, state: 'idle', message: 'Not checked yet.' });
    set(base);
  };

  const reschedule = () => {
    clearInterval(timer);
    timer = undefined;
    if (stopped || mode.kind === 'none' || !preferences.current().checkForUpdates) return;
    timer = setInterval(() => void check(), intervalMs);
    timer.unref?.();
  };

  const configure = async (): Promise<AppUpdater> => {
    if (!updater) {
      updater = await (options.createUpdater ?? defaultUpdater)();
      updater.logger = {
        info: (message: unknown) => log.info({ updater: String(message) }, 'updater'),
        warn: (message: unknown) => log.warn({ updater: String(message) }, 'updater'),
        error: (message: unknown) => log.warn({ updater: String(message) }, 'updater'),
      };
      updater.autoInstallOnAppQuit = false;
      updater.allowDowngrade = false;
      // No web installer is published; electron-updater advises turning them off when none is planned.
      updater.disableWebInstaller = true;
      updater.on('download-progress', (progress: ProgressInfo) => {
        if (view.state === 'downloading') set({ percent: Math.round(progress.percent) });
      });
    }
    updater.autoDownload = mode.kind === 'inPlace';
    const mirror = preferences.current().updateFeedUrl;
    if (mirror !== feedApplied) {
      // A mirror is a generic provider (latest*.yml beside the installers); back to '' is the built-in feed,
      // the same publish configuration electron-updater would read from app-update.yml.
      if (mirror) updater.setFeedURL({ provider: 'generic', url: mirror });
      else if (feedApplied !== null && facts?.feed) updater.setFeedURL(facts.feed as never);
      feedApplied = mirror;
    }
    return updater;
  };

  const check = (): Promise<void> => {
    if (checking || stopped || mode.kind === 'none' || !preferences.current().checkForUpdates) return running;
    if (['downloaded', 'draining', 'installing'].includes(view.state)) return running;
    checking = true;
    running = (async () => {
      let version: string | null = view.version;
      try {
        const current = await configure();
        set({ state: 'checking', message: 'Checking for a new version…', percent: null });
        const result = await current.checkForUpdates();
        const checkedAt = Date.now();
        if (!result) {
          // electron-updater declines here (isUpdaterActive): an unpacked folder or a snap, not an AppImage.
          set({ state: 'unavailable', checkedAt, message: 'This install (not an installer’s: an unpacked folder or a snap) does not update itself: get new versions from the project’s release page.' });
          return;
        }
        const info: UpdateInfo = result.updateInfo;
        if (!result.isUpdateAvailable) {
          set({ state: 'idle', checkedAt, version: null, releaseUrl: null, message: `Up to date (version ${view.currentVersion}).` });
          return;
        }
        version = info.version;
        const releaseUrl = releasePageUrl(facts?.feed ?? null, preferences.current().updateFeedUrl, version);
        if (mode.kind === 'notice' || !result.downloadPromise) {
          set({ state: 'notice', checkedAt, version, releaseUrl, message: `Version ${version} is out. This install cannot update itself: get it from its release page.` });
          return;
        }
        set({ state: 'downloading', checkedAt, version, releaseUrl, percent: 0, message: `Downloading version ${version} in the background…` });
        await result.downloadPromise;
        set({ state: 'downloaded', percent: 100, message: `Version ${version} is downloaded and verified. Restart to update: the keeper first finishes the cranks in flight.` });
      } catch (error) {
        const message = updateFailureInWords(error, version, feedInWords());
        log.warn({ error: (error as Error)?.message ?? String(error), version }, 'update check or download failed');
        set({ state: 'failed', message, percent: null });
      } finally {
        checking = false;
      }
    })();
    return running;
  };

  const onWillQuit = () => {
    if (!installOnQuit || !updater) return;
    installOnQuit = false;
    let failed: unknown = null;
    const onError = (error: unknown) => (failed = error);
    updater.once('error', onError);
    // The next version must not be refused as a second instance while this one finishes quitting.
    app.releaseSingleInstanceLock();
    updater.quitAndInstall(true, true);
    updater.removeListener('error', onError);
    if (failed) {
      log.error({ error: (failed as Error).message }, 'the update could not be installed: starting this version again');
      app.relaunch();
    }
  };
  app.on('will-quit', onWillQuit);

  return {
    status: () => view,
    async start() {
      facts = await (options.installFacts ?? (() => readInstallFacts(electron, options.platform)))();
      describe();
      reschedule();
      await check();
    },
    async checkNow() {
      if (mode.kind === 'none') throw new Error(mode.reason);
      if (!preferences.current().checkForUpdates)
        throw new Error('checking for updates is off: turn it on in Settings → Desktop app first');
      await check();
      return view;
    },
    async restartToUpdate() {
      if (view.state === 'draining' || view.state === 'installing') return view;
      if (view.state !== 'downloaded' || !updater)
        throw new Error('no update is downloaded yet: wait for the banner to say it is ready (or choose Check now)');
      const hold = options.service.holdCranks?.() ?? { inFlight: () => 0, release() {} };
      const current = { cancelled: false, hold };
      drain = current;
      set({ state: 'draining', inFlight: hold.inFlight(), message: 'Restarting to update: no new cranks are sent; waiting for the cranks in flight to land.' });
      await new Promise<void>((resolve) => {
        const look = () => {
          if (current.cancelled) return resolve();
          const inFlight = hold.inFlight();
          if (inFlight !== view.inFlight)
            set({ inFlight, message: `Restarting to update: waiting for ${inFlight} ${inFlight === 1 ? 'crank' : 'cranks'} in flight to land.` });
          if (inFlight === 0) return resolve();
          setTimeout(look, DRAIN_POLL_MS);
        };
        look();
      });
      if (current.cancelled) return view;
      drain = null;
      set({ state: 'installing', inFlight: 0, message: `Installing version ${view.version}: the keeper stops, then the app restarts.` });
      log.info({ version: view.version }, 'no crank in flight: quitting to install the update');
      if (options.platform === 'darwin') {
        updater.quitAndInstall(true, true);
        return view;
      }
      installOnQuit = true;
      app.quit();
      return view;
    },
    cancelRestart() {
      if (!drain) return view;
      drain.cancelled = true;
      drain.hold.release();
      drain = null;
      set({ state: 'downloaded', inFlight: null, message: `Version ${view.version} is downloaded and verified. Restart to update when you like.` });
      return view;
    },
    async setPreferences(changes) {
      if (typeof changes !== 'object' || changes === null)
        throw new Error('give the update preferences to change, like { "checkForUpdates": false }');
      const next: Partial<UpdatePreferences> = {};
      for (const [key, value] of Object.entries(changes)) {
        if (key === 'checkForUpdates') {
          if (typeof value !== 'boolean') throw new Error('checkForUpdates must be true or false');
          next.checkForUpdates = value;
        } else if (key === 'updateFeedUrl') next.updateFeedUrl = checkFeedUrl(value);
        else throw new Error(`unknown update preference '${key}': the settable ones are checkForUpdates and updateFeedUrl`);
      }
      const feedChanged = next.updateFeedUrl !== undefined && next.updateFeedUrl !== preferences.current().updateFeedUrl;
      preferences.setUpdatePreferences(next);
      if (feedChanged && !['draining', 'installing'].includes(view.state))
        set({ state: 'idle', version: null, releaseUrl: null, checkedAt: null, message: 'The feed changed: not checked yet.' });
      describe();
      reschedule();
      // Turned on, or a new feed: look now rather than in 12 hours.
      if (next.checkForUpdates === true || feedChanged) await check();
      return view;
    },
    releaseUrl: () => view.releaseUrl,
    settled: () => running,
    stop() {
      // The will-quit listener stays: a quit to install ends with it.
      stopped = true;
      clearInterval(timer);
    },
  };
}
