/**
 * The desktop host: one sandboxed window on the built UI, and the operator service (the same core as
 * `serve`) answering the window over IPC, one channel per operator method. The Electron module comes in
 * as a parameter, so a test can hand in a faithful stand-in; only files in src-main/electron/ touch it.
 */
import type * as ElectronModule from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  IPC_EVENT_CHANNEL,
  IPC_PICK_DEPLOYMENT_FILE,
  OPERATOR_METHODS,
  ipcChannel,
  oracleStallLevel,
  type OperatorApi,
  type StallLevel,
  type OperatorEvent,
  type OperatorMethod,
  type OperatorReply,
} from '../operator/operator-interface';

type Electron = Pick<typeof ElectronModule, 'app' | 'BrowserWindow' | 'ipcMain' | 'session' | 'shell' | 'Notification' | 'dialog'>;

/** What the desktop host needs of the core (createOperatorService gives it). */
export interface DesktopService {
  api: OperatorApi;
  onEvent(listener: (event: OperatorEvent) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The window's Content-Security-Policy: its own files only; no remote content of any kind. */
export const DESKTOP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

export interface DesktopPaths {
  /** out/preload/index.cjs */
  preload: string;
  /** out/renderer/index.html */
  page: string;
  icon?: string;
}

/** The window's options: isolated, sandboxed, no Node in the page. */
export const windowOptions = (paths: DesktopPaths): ElectronModule.BrowserWindowConstructorOptions => ({
  width: 1280,
  height: 800,
  title: 'Wager Keeper',
  backgroundColor: '#0d1117',
  ...(paths.icon ? { icon: paths.icon } : {}),
  webPreferences: {
    preload: paths.preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
  },
});

/** Registers one IPC handler per operator method; each answers an envelope and only to our own page. */
export function registerOperatorChannels(electron: Electron, api: OperatorApi, pageUrl: string): void {
  for (const method of OPERATOR_METHODS) {
    electron.ipcMain.handle(ipcChannel(method), async (event, args: unknown): Promise<OperatorReply<unknown>> => {
      // Only the console page may call: not another frame, not a page navigated elsewhere.
      if (event.senderFrame?.url !== pageUrl) return { ok: false, error: 'refused: the operator interface answers the console window only' };
      try {
        const call = api[method as OperatorMethod] as (args: unknown) => Promise<unknown>;
        return { ok: true, value: await call(args ?? {}) };
      } catch (error) {
        // Errors are sent as text: Electron would wrap a thrown one in "Error invoking remote method ...".
        return { ok: false, error: (error as Error).message ?? String(error) };
      }
    });
  }
}

/**
 * The system's file picker for "Load a deployment file…": answers the chosen path (null when cancelled),
 * which the page then hands to `loadDeployment`; the file itself is read and checked by the core. Only
 * the console page may ask.
 */
export function registerFilePicker(electron: Electron, pageUrl: string): void {
  electron.ipcMain.handle(IPC_PICK_DEPLOYMENT_FILE, async (event): Promise<OperatorReply<string | null>> => {
    if (event.senderFrame?.url !== pageUrl) return { ok: false, error: 'refused: the file picker answers the console window only' };
    try {
      const chosen = await electron.dialog.showOpenDialog({
        title: 'Load a deployment file',
        buttonLabel: 'Load deployment',
        properties: ['openFile'],
        filters: [
          { name: 'Deployment (JSON)', extensions: ['json'] },
          { name: 'All files', extensions: ['*'] },
        ],
      });
      return { ok: true, value: chosen.canceled ? null : (chosen.filePaths[0] ?? null) };
    } catch (error) {
      return { ok: false, error: `the file picker failed: ${(error as Error).message}` };
    }
  });
}

/** Creates the window and wires it: CSP, denied navigation, popups and permissions, events pushed to it. */
export async function openConsoleWindow(electron: Electron, service: DesktopService, paths: DesktopPaths): Promise<ElectronModule.BrowserWindow> {
  const pageUrl = pathToFileURL(paths.page).toString();
  const { session } = electron;
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [DESKTOP_CSP] } });
  });
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  registerOperatorChannels(electron, service.api, pageUrl);
  registerFilePicker(electron, pageUrl);

  const window = new electron.BrowserWindow(windowOptions(paths));
  const contents = window.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    // Explorer links open in the system browser; nothing opens inside the app.
    if (url.startsWith('https://')) void electron.shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (url !== pageUrl && !url.startsWith(`${pageUrl}#`)) event.preventDefault();
  });
  const unsubscribe = service.onEvent((event) => {
    if (!window.isDestroyed()) contents.send(IPC_EVENT_CHANNEL, event);
  });
  window.on('closed', unsubscribe);
  await window.loadFile(paths.page);
  return window;
}

/**
 * A system notification when the oracle stalls (warning, then critical) and when it recovers: the
 * operator may not be looking at the window. Once per change of level, not once per second.
 */
export function notifyOracleStalls(electron: Electron, service: DesktopService): () => void {
  let level: StallLevel = 'none';
  return service.onEvent((event) => {
    if (event.type !== 'health') return;
    const next = oracleStallLevel(event.health.oracleWait);
    if (next === level) return;
    level = next;
    if (!electron.Notification.isSupported()) return;
    const slots = event.health.oracleWait.oldestWaitSlots;
    const body =
      next === 'none'
        ? 'Fulfilments resumed: no request waits long any more.'
        : `A randomness request has waited ${slots} slots. Wagers expire at open + 150 (stakes forfeited to the pool).${next === 'critical' ? ' The guardian should pause new wagers: Oracle screen, New wagers (or the automatic guardian in Settings).' : ''}`;
    new electron.Notification({ title: next === 'none' ? 'Oracle recovered' : next === 'critical' ? 'Oracle stalled (critical)' : 'Oracle slow', body }).show();
  });
}

/** The app's life: one instance, the core started, the window opened, everything stopped before quitting. */
export async function runDesktopApp(electron: Electron, createService: (userData: string) => DesktopService, outDirectory: string): Promise<void> {
  const { app } = electron;
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  const service = createService(app.getPath('userData'));
  await service.start();
  const paths: DesktopPaths = {
    preload: join(outDirectory, 'preload', 'index.cjs'),
    page: join(outDirectory, 'renderer', 'index.html'),
    icon: join(outDirectory, '..', 'resources', 'icons', 'icon.png'),
  };
  let window = await openConsoleWindow(electron, service, paths);
  notifyOracleStalls(electron, service);
  app.on('second-instance', () => {
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('activate', () => {
    if (electron.BrowserWindow.getAllWindows().length === 0) void openConsoleWindow(electron, service, paths).then((opened) => (window = opened));
  });
  let stopping = false;
  app.on('before-quit', (event) => {
    if (stopping) return;
    // Let the keeper finish what is in flight and close its SQLite file before the process ends.
    event.preventDefault();
    stopping = true;
    void service.stop().finally(() => app.quit());
  });
  app.on('window-all-closed', () => app.quit());
}
