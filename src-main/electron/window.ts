/**
 * The console window: one at a time, isolated and sandboxed on the built page, opened at once on the
 * page's first-paint frame (the core starts behind it). Navigation away and popups are denied; https
 * links go to the system browser. The window object is replaced when a closed window is opened again
 * (macOS `activate`, the tray's Open console): the IPC channels ask `isConsoleSender` for the current one.
 * The page's identity is what Electron committed for the window's load (console-page.ts). A renderer that
 * dies (render-process-gone: a crash, the OOM killer) leaves a blank window: it is reloaded, up to
 * CRASH_RELOADS times a minute, so a page that crashes at once does not loop.
 */
import type * as ElectronModule from 'electron';
import { sameDocument } from './console-page';
import type { DesktopLog, Electron } from './electron-api';

/** How many crashed renderers are reloaded within CRASH_WINDOW_MS before the window is left as it is. */
export const CRASH_RELOADS = 3;
const CRASH_WINDOW_MS = 60_000;

/** The window's Content-Security-Policy: its own files only; no remote content of any kind. */
export const DESKTOP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The page's first-paint background (src-renderer's dark theme), so the window never flashes white. */
export const WINDOW_BACKGROUND = '#0d1117';

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
  backgroundColor: WINDOW_BACKGROUND,
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

/**
 * The CSP as a header too, set once per session. Over file:// the header may never be applied (Electron
 * 45 notes, section 8): the `<meta>` tag in src-renderer/index.html is what protects the page.
 */
export function installContentSecurityPolicy(electron: Pick<Electron, 'session'>): void {
  electron.session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [DESKTOP_CSP] } });
  });
}

/** An IPC event's sender, as Electron gives it (read at the top of a handler, before any await). */
export interface IpcSender {
  sender: ElectronModule.WebContents;
  senderFrame: ElectronModule.WebFrameMain | null;
}

export interface ConsoleWindows {
  /** The console window if one exists (visible or hidden), else null. */
  current(): ElectronModule.BrowserWindow | null;
  /**
   * Shows the console window, creating it and loading the page when there is none. Rejects when the page
   * cannot load (ERR_FILE_NOT_FOUND: the UI is not built).
   */
  show(): Promise<void>;
  /** The call comes from the console window's main frame, on the console page (any hash). */
  isConsoleSender(event: IpcSender): boolean;
  /** The URL is the console page the current window committed (any hash). */
  isConsolePage(url: string | null | undefined): boolean;
  /** Electron's webContents of the console window, or null (the permission handlers' check). */
  isConsoleContents(contents: ElectronModule.WebContents | null): boolean;
}

export interface ConsoleWindowEvents {
  /** Each new window's 'close' (the host hides it instead, unless quitting). */
  onClose(event: ElectronModule.Event, window: ElectronModule.BrowserWindow): void;
  /** A window is gone ('closed'). */
  onClosed?(): void;
  log: DesktopLog;
}

export function createConsoleWindows(
  electron: Pick<Electron, 'BrowserWindow' | 'shell'>,
  paths: DesktopPaths,
  events: ConsoleWindowEvents,
): ConsoleWindows {
  let window: ElectronModule.BrowserWindow | null = null;
  let loading: Promise<void> | null = null;
  /** The URL Electron committed for the current window's page (null before its first commit). */
  let committed: string | null = null;
  let crashes: number[] = [];

  const create = (): Promise<void> => {
    const created = new electron.BrowserWindow(windowOptions(paths));
    window = created;
    committed = null;
    const contents = created.webContents;
    // The first main-frame commit is loadFile's; every later one is a reload of it (will-navigate below
    // denies any other document). did-navigate is not emitted for in-page (hash) navigations.
    contents.on('did-navigate', (_event, url) => {
      if (window === created && committed === null) committed = url;
    });
    contents.on('render-process-gone', (_event, details) => {
      if (created.isDestroyed() || details.reason === 'clean-exit') return;
      const now = Date.now();
      crashes = [...crashes.filter((at) => now - at < CRASH_WINDOW_MS), now];
      if (crashes.length > CRASH_RELOADS) {
        events.log.error({ reason: details.reason, exitCode: details.exitCode }, 'the console page keeps crashing: it is not reloaded again; restart Wager Keeper (the keeper itself still runs)');
        return;
      }
      events.log.warn({ reason: details.reason, exitCode: details.exitCode }, 'the console page crashed: reloading it (the keeper itself still runs)');
      contents.reload();
    });
    contents.setWindowOpenHandler(({ url }) => {
      // Explorer links open in the system browser; nothing opens inside the app.
      if (url.startsWith('https://')) void electron.shell.openExternal(url);
      return { action: 'deny' };
    });
    // Hash links are in-page navigations (no will-navigate); a reload of the page itself is allowed.
    contents.on('will-navigate', (event, url) => {
      if (!sameDocument(url, committed)) event.preventDefault();
    });
    created.on('close', (event) => events.onClose(event, created));
    created.on('closed', () => {
      if (window === created) {
        window = null;
        committed = null;
      }
      events.onClosed?.();
    });
    return created.loadFile(paths.page);
  };

  const live = () => (window && !window.isDestroyed() ? window : null);

  return {
    current: live,
    async show() {
      const existing = live();
      if (existing) {
        if (existing.isMinimized()) existing.restore();
        existing.show();
        existing.focus();
        // A window still loading its page: the caller learns whether the page loads.
        return (await loading) ?? undefined;
      }
      loading = create();
      await loading;
    },
    isConsoleSender(event) {
      const current = live();
      const { sender, senderFrame } = event;
      return Boolean(
        current &&
        sender === current.webContents &&
        senderFrame &&
        senderFrame === sender.mainFrame &&
        sameDocument(senderFrame.url, committed),
      );
    },
    isConsolePage: (url) => live() !== null && sameDocument(url, committed),
    isConsoleContents(contents) {
      const current = live();
      return Boolean(current && contents === current.webContents);
    },
  };
}
