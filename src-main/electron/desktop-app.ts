/**
 * The desktop host's life: one instance; the window opened at once on the built page while the core
 * (the same as `serve`) starts behind it; IPC channels, permission handlers and the CSP set once; the tray,
 * the power-save blocker and notifications beside it. Closing the window hides it and the keeper keeps
 * cranking (unless "Quit when the window closes" is on); Quit, from the tray or the app menu, stops the
 * core (finishing what is in flight) and then the app, as does the end of the system's session. Where no
 * tray can be seen (Linux without a StatusNotifierItem host) closing minimises instead, and a start at
 * login shows the window. Each part is its own module in this folder; the Electron module comes in as a
 * parameter, so a test hands in a faithful stand-in.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IPC_EVENT_CHANNEL, IPC_UPDATE_STATUS_EVENT } from '../../src-shared/contract/bridge';
import { createAppUpdates, type AppUpdatesOptions } from './app-updates';
import { registerUpdateChannels } from './update-channels';
import { updateTrayItem } from './update-tray-item';
import { installAppMenu } from './app-menu';
import { createDesktopPreferences, type DesktopPreferencesBackend } from './desktop-preferences';
import type { DesktopLog, DesktopService, Electron } from './electron-api';
import { registerFilePicker, registerOperatorChannels, registerPreferenceChannels } from './ipc-channels';
import { createLoginItem, startedHidden, type LaunchCommand } from './login-item';
import { createNotifier, notifyAlerts } from './notifications';
import { installPermissionHandlers } from './permissions';
import { watchPower } from './power';
import { watchSessionEnd } from './session-end';
import { createKeeperTray } from './tray';
import { trayHostAvailable } from './tray-host';
import { registerDiagnosticsChannel, saveDiagnosticsWithDialog } from './save-diagnostics';
import { registerExportKeyChannel } from './export-key-dialog';
import { createConsoleWindows, installContentSecurityPolicy, type DesktopPaths } from './window';
import { createKeeperSwitch, type KeeperSwitchOptions } from '../remote/keeper-switch';
import { registerKeepersChannels } from './keepers-channels';
import { withRemoteRefusals } from './remote-refusals';

export type { DesktopLog, DesktopService, Electron } from './electron-api';
export { DESKTOP_CSP, windowOptions, type DesktopPaths } from './window';

export const FIRST_CLOSE_NOTICE = {
  title: 'Wager Keeper keeps cranking',
  body: 'The window is closed, the keeper still runs in the tray. Quit from the tray icon’s menu to stop it, or tick “Quit when the window closes” in Settings → Desktop app.',
};

/**
 * The installer's appId (electron-builder.yml `appId`), set as the Windows AppUserModelId before any
 * window, tray or notification: Windows shows toasts only for an AUMID it knows (the Start-menu shortcut
 * the NSIS installer makes carries this one), and without it Electron uses "electron.app.<name>"
 * (app.md, setAppUserModelId; notifications tutorial, Windows).
 */
export const APP_USER_MODEL_ID = 'dev.wagerkeeper.console';

export const NO_TRAY_CLOSE_NOTICE = {
  title: 'Wager Keeper keeps cranking',
  body: 'This desktop shows no tray icons, so the window is minimised instead of hidden: the keeper still runs. Quit from the File menu to stop it.',
};

export const UI_NOT_BUILT = {
  title: 'The console UI is not built',
  body: (page: string, error: string) =>
    `Wager Keeper cannot open its window: ${page} could not be loaded (${error}).\n\nFrom the source tree run \`npm run build\` (or \`npm start\`, which builds it), then start the app again. An installed app is missing files: reinstall it.`,
};

export interface DesktopAppOptions {
  /** The core, given the userData folder (main.ts: createOperatorService with electron-store settings). */
  createService(userData: string): DesktopService;
  /** The desktop preferences' store (main.ts: an electron-store file of their own). */
  createPreferences(userData: string): DesktopPreferencesBackend;
  /** out/ (main, preload, renderer). */
  outDirectory: string;
  /** Defaults: process.platform, process.argv, the running app's own command (login items), pino. */
  platform?: NodeJS.Platform;
  /** Whether a tray icon made now can be seen (default: tray-host.ts's D-Bus check on Linux). */
  trayHost?: () => Promise<boolean>;
  argv?: readonly string[];
  launch?: LaunchCommand;
  log: DesktopLog;
  /** The updater's parts a test replaces (app-updates.ts): what this install is, the updater, the interval. */
  updates?: Pick<AppUpdatesOptions, 'installFacts' | 'createUpdater' | 'intervalMs'>;
  /** The Keepers list's parts a test replaces (keeper-switch.ts): the SSH agent, known_hosts, the backoff. */
  keepers?: Omit<KeeperSwitchOptions, 'local' | 'folder'>;
}

/** What runDesktopApp answers once the window is open (or, started hidden, the tray is up). */
export interface DesktopApp {
  /** Settles when the core's start does (the window is already open meanwhile). */
  coreStarted: Promise<void>;
}

export async function runDesktopApp(
  electron: Electron,
  options: DesktopAppOptions,
): Promise<DesktopApp | null> {
  const { app } = electron;
  const { log } = options;
  const platform = options.platform ?? process.platform;
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  if (platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  await app.whenReady();
  const userData = app.getPath('userData');
  const service = options.createService(userData);
  const loginItem = createLoginItem(electron, platform, options.launch);
  const preferences = createDesktopPreferences(options.createPreferences(userData), loginItem);
  const notify = createNotifier(electron, log);
  const paths: DesktopPaths = {
    preload: join(options.outDirectory, 'preload', 'index.cjs'),
    page: join(options.outDirectory, 'renderer', 'index.html'),
    icon: join(options.outDirectory, '..', 'resources', 'icons', 'icon.png'),
  };
  const iconsFolder = join(options.outDirectory, '..', 'resources', 'icons');

  // Asked when the tray is made, as Chromium does (tray-host.ts); unknown until answered counts as none.
  let trayShown = false;
  const trayChecked = (options.trayHost ?? (() => trayHostAvailable(platform)))().then(
    (shown) => (trayShown = shown),
    () => (trayShown = false),
  );

  let quitting = false;
  const windows = createConsoleWindows(electron, paths, {
    log,
    onClose(event, window) {
      if (quitting || preferences.current().quitOnWindowClose) return;
      event.preventDefault();
      if (!trayShown) {
        // No tray to bring it back from: minimise, so the window stays in the dock or task bar.
        window.minimize();
        if (!preferences.current().firstCloseNoticeShown) {
          preferences.markFirstCloseNoticeShown();
          notify(NO_TRAY_CLOSE_NOTICE);
        }
        return;
      }
      // Closing hides: the keeper keeps cranking; the tray brings the window back, its Quit stops everything.
      window.hide();
      if (!preferences.current().firstCloseNoticeShown) {
        preferences.markFirstCloseNoticeShown();
        notify(FIRST_CLOSE_NOTICE);
      }
    },
    // A hidden BaseWindow may outlive the console window (session-end.ts), so window-all-closed cannot say it.
    onClosed() {
      if (!quitting && preferences.current().quitOnWindowClose) app.quit();
    },
  });

  // The Keepers list: this computer's core and the servers, each with its own SSH tunnel. The console's
  // calls and events follow the shown keeper; the tray, notifications, power and updates stay on this
  // computer's core (they are about the app and the keeper inside it, whichever keeper the window shows).
  const keepers = await createKeeperSwitch({ local: service, folder: userData, ...options.keepers });
  // Desktop-only features that use this computer's disk are refused while a server is shown (remote-refusals.ts).
  const local = withRemoteRefusals(electron, () => keepers.shownServer(), windows);

  // Once for the app's life, whatever windows come and go (a second ipcMain.handle throws).
  installAppMenu(electron, platform, () => void showConsole());
  installContentSecurityPolicy(electron);
  installPermissionHandlers(electron, windows);
  registerOperatorChannels(electron, keepers.api, windows);
  registerKeepersChannels(electron, keepers, windows);
  registerFilePicker(local, windows);
  registerPreferenceChannels(electron, preferences, windows);
  const diagnostics = service.writeDiagnostics ? { writeDiagnostics: service.writeDiagnostics.bind(service) } : null;
  if (diagnostics) registerDiagnosticsChannel(local, diagnostics, windows);
  registerExportKeyChannel(local, service.api, windows);
  // Updates: checked at start and every 12 hours; the banner and the tray follow the status it pushes.
  let refreshTray = () => {};
  const updates = createAppUpdates({
    electron,
    platform,
    preferences,
    service,
    log,
    onStatus(status) {
      windows.current()?.webContents.send(IPC_UPDATE_STATUS_EVENT, status);
      refreshTray();
    },
    ...options.updates,
  });
  registerUpdateChannels(electron, updates, windows);
  // Events from the very start of the core (its "starting" status) reach whichever window is open; only
  // the shown keeper's (keeper-switch.ts).
  keepers.onEvent((event) => {
    const window = windows.current();
    if (window) window.webContents.send(IPC_EVENT_CHANNEL, event);
  });
  notifyAlerts(notify, service, log);
  const power = watchPower(electron, service, log, platform);

  let openAtLogin = loginItem.isEnabled();
  const tray = createKeeperTray(electron, {
    iconsFolder,
    platform,
    service,
    log,
    actions: {
      openConsole: () => void showConsole(),
      quit: () => app.quit(),
      ...(diagnostics
        ? {
            saveDiagnostics: () =>
              void saveDiagnosticsWithDialog(electron, diagnostics, windows.current()).then(
                (saved) => saved && notify({ title: 'Diagnostics saved', body: `${saved.path} (secrets removed): attach it to your support request.` }),
                (error: unknown) => log.warn({ error: (error as Error).message }, 'diagnostics could not be saved'),
              ),
          }
        : {}),
      updateItem: () =>
        updateTrayItem(updates.status(), {
          restartToUpdate: () =>
            void updates.restartToUpdate().catch((error: unknown) => log.warn({ error: (error as Error).message }, 'restart to update refused')),
          openReleasePage: () => {
            const url = updates.releaseUrl();
            if (url) void electron.shell.openExternal(url);
          },
        }),
      isOpenAtLogin: () => openAtLogin,
      setOpenAtLogin(enabled) {
        try {
          preferences.set({ openAtLogin: enabled });
        } catch (error) {
          log.warn({ error: (error as Error).message }, 'start at login could not be changed');
          // The tray has no room for the reason (e.g. macOS under npm start): say it where it can be read.
          notify({ title: 'Start at login was not changed', body: (error as Error).message });
          tray.refresh();
        }
      },
    },
  });
  preferences.onChange(() => {
    openAtLogin = loginItem.isEnabled();
    tray.refresh();
  });
  refreshTray = () => tray.refresh();

  /**
   * Why a load failed, told apart (loadFile's rejections, lib/browser/api/web-contents.ts _awaitNextLoad):
   * ERR_ABORTED (-3) when another navigation started first (View → Reload during the first load: that
   * reload loads the page); ERR_FAILED (-2) when the window was destroyed first (a quit); a missing file is
   * a build or install problem: say so once, then quit (which stops the core). Anything else is said and
   * the window stays (View → Reload tries again).
   */
  let loadFailed = false;
  const showConsole = () =>
    windows.show().catch((error: unknown) => {
      const { message, code } = error as Error & { code?: string };
      const missing = code === 'ERR_FILE_NOT_FOUND' || !existsSync(paths.page);
      if (!missing && (code === 'ERR_ABORTED' || quitting || !windows.current())) {
        log.info({ error: message }, 'the console page load was superseded (a reload or a quit)');
        return;
      }
      if (loadFailed) return;
      loadFailed = true;
      log.error({ page: paths.page, error: message }, 'the console page could not be loaded');
      if (!missing) {
        electron.dialog.showErrorBox(
          'The console page could not be loaded',
          `${message}\n\nChoose View → Reload to try again. The keeper keeps running; if this lasts, restart Wager Keeper.`,
        );
        return;
      }
      electron.dialog.showErrorBox(UI_NOT_BUILT.title, UI_NOT_BUILT.body(paths.page, message));
      app.quit();
    });

  app.on('second-instance', () => void showConsole());
  app.on('activate', () => void showConsole());
  let stopping = false;
  let stopped = false;
  app.on('before-quit', (event) => {
    quitting = true;
    if (stopped) return;
    // Let the keeper finish what is in flight and close its SQLite file before the process ends; a second
    // quit meanwhile (the window's close, the session end, Cmd-Q again) waits for the same stop.
    event.preventDefault();
    if (stopping) return;
    stopping = true;
    void Promise.all([service.stop(), keepers.stop()])
      .catch((error: unknown) =>
        log.error({ error: (error as Error).message }, 'the keeper did not stop cleanly'),
      )
      .finally(() => {
        stopped = true;
        power.stop();
        sessionEnd.stop();
        tray.destroy();
        app.quit();
      });
  });
  const sessionEnd = watchSessionEnd(electron, platform, { quit: () => app.quit(), stopped: () => stopped, log });
  // With this listener Electron no longer quits by itself (app.md); the console window's 'closed' quits
  // when "Quit when the window closes" is on (a hidden session-end window may outlive it on Windows).
  app.on('window-all-closed', () => {});

  // A start at login (--hidden) where no tray can be seen would leave the keeper running invisibly.
  let hidden = startedHidden(electron, options.argv ?? process.argv, platform);
  if (hidden && !(await trayChecked)) {
    log.warn({}, 'started hidden, but this desktop shows no tray icon: the window opens instead');
    hidden = false;
  }
  // The window first (its first-paint frame at once), the core behind it.
  const opening = hidden ? Promise.resolve() : showConsole();
  const coreStarted = service.start().catch((error: unknown) => {
    const message = (error as Error).message;
    log.error({ error: message }, 'the keeper core could not start');
    electron.dialog.showErrorBox(
      'Wager Keeper could not start',
      `${message}\n\nStart it from a terminal with \`npm start\` to see the log.`,
    );
    app.quit();
  });
  // After the window and beside the core: the first check never delays either.
  void updates.start().catch((error: unknown) => log.warn({ error: (error as Error).message }, 'updates could not start'));
  await opening;
  return { coreStarted };
}
