/**
 * The desktop host's life: one instance; the window opened at once on the built page while the core
 * (the same as `serve`) starts behind it; IPC channels, permission handlers and the CSP set once; the tray,
 * the power-save blocker and notifications beside it. Closing the window hides it and the keeper keeps
 * cranking (unless "Quit when the window closes" is on); Quit, from the tray or the app menu, stops the
 * core (finishing what is in flight) and then the app. Each part is its own module in this folder; the
 * Electron module comes in as a parameter, so a test hands in a faithful stand-in.
 */
import { join } from 'node:path';
import { IPC_EVENT_CHANNEL } from '../operator/operator-interface';
import { consolePage } from './console-page';
import { createDesktopPreferences, type DesktopPreferencesBackend } from './desktop-preferences';
import type { DesktopLog, DesktopService, Electron } from './electron-api';
import { registerFilePicker, registerOperatorChannels, registerPreferenceChannels } from './ipc-channels';
import { createLoginItem, startedHidden, type LaunchCommand } from './login-item';
import { createNotifier, notifyAlerts } from './notifications';
import { installPermissionHandlers } from './permissions';
import { watchPower } from './power';
import { createKeeperTray } from './tray';
import { registerDiagnosticsChannel, saveDiagnosticsWithDialog } from './save-diagnostics';
import { registerExportKeyChannel } from './export-key-dialog';
import { createConsoleWindows, installContentSecurityPolicy, type DesktopPaths } from './window';

export type { DesktopLog, DesktopService, Electron } from './electron-api';
export { DESKTOP_CSP, windowOptions, type DesktopPaths } from './window';

export const FIRST_CLOSE_NOTICE = {
  title: 'Wager Keeper keeps cranking',
  body: 'The window is closed, the keeper still runs in the tray. Quit from the tray icon’s menu to stop it, or tick “Quit when the window closes” in Settings → Desktop app.',
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
  argv?: readonly string[];
  launch?: LaunchCommand;
  log: DesktopLog;
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
  const page = consolePage(paths.page);

  let quitting = false;
  const windows = createConsoleWindows(electron, page, paths, (event, window) => {
    if (quitting || preferences.current().quitOnWindowClose) return;
    // Closing hides: the keeper keeps cranking; the tray brings the window back, its Quit stops everything.
    event.preventDefault();
    window.hide();
    if (!preferences.current().firstCloseNoticeShown) {
      preferences.markFirstCloseNoticeShown();
      notify(FIRST_CLOSE_NOTICE);
    }
  });

  // Once for the app's life, whatever windows come and go (a second ipcMain.handle throws).
  installContentSecurityPolicy(electron);
  installPermissionHandlers(electron, page, windows);
  registerOperatorChannels(electron, service.api, windows);
  registerFilePicker(electron, windows);
  registerPreferenceChannels(electron, preferences, windows);
  const diagnostics = service.writeDiagnostics ? { writeDiagnostics: service.writeDiagnostics.bind(service) } : null;
  if (diagnostics) registerDiagnosticsChannel(electron, diagnostics, windows);
  registerExportKeyChannel(electron, service.api, windows);
  // Events from the very start of the core (its "starting" status) reach whichever window is open.
  service.onEvent((event) => {
    const window = windows.current();
    if (window) window.webContents.send(IPC_EVENT_CHANNEL, event);
  });
  notifyAlerts(notify, service, log);
  const power = watchPower(electron, service, log);

  let openAtLogin = loginItem.isEnabled();
  const tray = createKeeperTray(electron, {
    iconPath: paths.icon!,
    platform,
    service,
    log,
    actions: {
      openConsole: () => void showConsole(),
      quit: () => app.quit(),
      ...(diagnostics
        ? {
            saveDiagnostics: () =>
              void saveDiagnosticsWithDialog(electron, diagnostics).then(
                (saved) => saved && notify({ title: 'Diagnostics saved', body: `${saved.path} (secrets removed): attach it to your support request.` }),
                (error: unknown) => log.warn({ error: (error as Error).message }, 'diagnostics could not be saved'),
              ),
          }
        : {}),
      isOpenAtLogin: () => openAtLogin,
      setOpenAtLogin(enabled) {
        try {
          preferences.set({ openAtLogin: enabled });
        } catch (error) {
          log.warn({ error: (error as Error).message }, 'start at login could not be changed');
          tray.refresh();
        }
      },
    },
  });
  preferences.onChange(() => {
    openAtLogin = loginItem.isEnabled();
    tray.refresh();
  });

  /** A page that cannot load is a build or install problem: say so once, then quit (which stops the core). */
  let loadFailed = false;
  const showConsole = () =>
    windows.show().catch((error: unknown) => {
      if (loadFailed) return;
      loadFailed = true;
      const message = (error as Error).message;
      log.error({ page: paths.page, error: message }, 'the console page could not be loaded');
      electron.dialog.showErrorBox(UI_NOT_BUILT.title, UI_NOT_BUILT.body(paths.page, message));
      app.quit();
    });

  app.on('second-instance', () => void showConsole());
  app.on('activate', () => void showConsole());
  let stopping = false;
  app.on('before-quit', (event) => {
    quitting = true;
    if (stopping) return;
    // Let the keeper finish what is in flight and close its SQLite file before the process ends.
    event.preventDefault();
    stopping = true;
    void service
      .stop()
      .catch((error: unknown) =>
        log.error({ error: (error as Error).message }, 'the keeper did not stop cleanly'),
      )
      .finally(() => {
        power.stop();
        tray.destroy();
        app.quit();
      });
  });
  // With this listener Electron no longer quits by itself: only the preference makes a closed window quit.
  app.on('window-all-closed', () => {
    if (preferences.current().quitOnWindowClose) app.quit();
  });

  const hidden = startedHidden(electron, options.argv ?? process.argv, platform);
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
  await opening;
  return { coreStarted };
}
