/**
 * The one place that knows the stand-in's API (src-main/electron/__tests__/electron-stand-in.ts, which
 * another part of the project owns and corrects): it makes ONE stand-in for the desktop host process and
 * offers what the control server needs, as Electron would do it. What the stand-in does not model yet is
 * added here thinly, as Electron does it, and said so (the report lists them for the stand-in to take):
 * - app.quit() that nothing prevented ('quit'), and app.exit(code), end the process, as Electron's do;
 * - webContents.send is recorded with its window for the control server's stream (a structured clone);
 * - the page's frame URL is committed from the URL the calling page really has (Playwright's frame.url());
 * - dialog.showErrorBox also writes the box to stderr, so a test that sees the exit can say why;
 * - a window.open or a main-frame navigation of the page asks main's setWindowOpenHandler or will-navigate
 *   (windowOpen, navigate), as Electron does before a popup opens or a page leaves.
 * Plain Node loads this file with type stripping: erasable TypeScript only, `.ts` in relative imports.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElectronStandIn } from '../../src-main/electron/__tests__/electron-stand-in.ts';

/** What main sent to a window (webContents.send), in order. */
export interface SentMessage {
  window: number;
  channel: string;
  args: unknown[];
}

export interface WindowView {
  index: number;
  destroyed: boolean;
  visible: boolean | null;
  /** BrowserWindow constructor options (webPreferences.preload among them). */
  options: Record<string, unknown>;
  /** Paths given to loadFile, in order; `url` is the main frame's URL (the file URL of the last one). */
  loaded: string[];
  url: string | null;
  /** A loadFile that rejected, with its message. */
  loadError: string | null;
}

export interface PermissionAnswer {
  /** setPermissionCheckHandler's answer (Electron grants when no handler is set). */
  check: boolean;
  /** setPermissionRequestHandler's answer (Electron grants when no handler is set). */
  request: boolean;
}

export interface TrayView {
  tooltip: string | null;
  menu: { label: string; type: string; checked: boolean | null; enabled: boolean }[];
}

export interface HostOptions {
  appData: string;
  platform: NodeJS.Platform;
  /** Called once the app has quit or exited, with its exit code (the process ends there). */
  onExit(code: number): void;
  /**
   * An installed app's layout (the packaged-layout test): app.isPackaged is true and app.getAppPath() is
   * `<resourcesPath>/app.asar`, whose package.json names the app, as Electron does for a packaged app.
   */
  packaged?: { resourcesPath: string };
}

type Loose = Record<string, unknown>;

/** The origin Chromium hands a permission check, as GURL spells it (file pages: "file:///"). */
const requestingOrigin = (url: string) => {
  const parsed = new URL(url);
  return parsed.protocol === 'file:' ? 'file:///' : `${parsed.origin}/`;
};

/** The same document: URLs equal but for the hash (a hash link is an in-page navigation). */
const sameDocument = (a: string, b: string) => a.split('#')[0] === b.split('#')[0];

export function createHostStandIn(options: HostOptions) {
  // Electron takes the app's name from package.json's productName, and its version from there.
  const appPath = options.packaged ? join(options.packaged.resourcesPath, 'app.asar') : undefined;
  const manifestFile = appPath
    ? join(appPath, 'package.json')
    : new URL('../../package.json', import.meta.url);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
    name: string;
    productName?: string;
    version: string;
  };
  const standIn = createElectronStandIn({
    platform: options.platform,
    appData: options.appData,
    name: manifest.productName ?? manifest.name,
    version: manifest.version,
    ...(appPath ? { isPackaged: true, appPath } : {}),
  });
  const electron = standIn.electron as unknown as Loose;
  const app = standIn.electron.app;
  const changes = new EventEmitter();
  const sent: SentMessage[] = [];

  // Quitting ends the process, as Electron's does once nothing prevented it ('quit'), or at once on exit().
  let exiting = false;
  const exit = (code: number) => {
    if (exiting) return;
    exiting = true;
    options.onExit(code);
  };
  app.on('quit', () => exit(0));
  const appExit = app.exit.bind(app);
  app.exit = (code = 0) => {
    appExit(code);
    exit(code);
  };

  // A failed start shows an error box: say it on stderr too, so the test that sees the exit can say why.
  const dialog = standIn.electron.dialog;
  const showErrorBox = dialog.showErrorBox;
  dialog.showErrorBox = (title: string, content: string) => {
    process.stderr.write(`${JSON.stringify({ event: 'desktop-host-error-box', title, content })}\n`);
    showErrorBox(title, content);
  };

  // Windows are the stand-in's own; this records what main sends to each and when a load ends.
  const StandInWindow = standIn.electron.BrowserWindow;
  const loadErrors = new Map<object, string>();
  class HostWindow extends StandInWindow {
    constructor(windowOptions: Record<string, unknown> = {}) {
      super(windowOptions);
      const contents = this.webContents;
      const send = contents.send.bind(contents);
      contents.send = (channel: string, payload: unknown) => {
        // Electron sends a structured clone: what cannot be cloned throws here, as it would there.
        const message = { window: standIn.windows.indexOf(this), channel, args: structuredClone([payload]) };
        send(channel, payload);
        sent.push(message);
        changes.emit('sent', message);
      };
      this.on('closed', () => changes.emit('windows'));
      changes.emit('windows');
    }
    override async loadFile(path: string) {
      try {
        return await super.loadFile(path);
      } catch (error) {
        loadErrors.set(this, (error as Error).message);
        throw error;
      } finally {
        changes.emit('windows');
      }
    }
  }
  electron.BrowserWindow = HostWindow;

  const windowAt = (index: number) => {
    const window = standIn.windows[index];
    if (!window) throw new Error(`no window ${index}: the app has opened ${standIn.windows.length}`);
    return window;
  };

  function windows(): WindowView[] {
    return standIn.windows.map((window, index) => ({
      index,
      destroyed: window.isDestroyed(),
      visible: window.isVisible(),
      options: window.options,
      loaded: [...window.loaded],
      url: window.webContents.mainFrame.url || null,
      loadError: loadErrors.get(window) ?? null,
    }));
  }

  /**
   * Moves window `index`'s frame to `frameUrl` as the page did: a hash change is an in-page navigation
   * (no will-navigate); another document goes through will-navigate, which main may prevent.
   */
  function commitUrl(index: number, frameUrl: string) {
    const contents = windowAt(index).webContents;
    const current = contents.mainFrame.url;
    if (current === frameUrl) return;
    if (current && sameDocument(current, frameUrl)) contents.navigateInPage(frameUrl);
    else if (!contents.navigate(frameUrl))
      throw new Error(
        `the window refused to navigate to ${frameUrl} (will-navigate was prevented), so no page there can call`,
      );
  }

  /**
   * Calls `channel`'s handler as Electron does for the page of window `index` at `frameUrl` (hash
   * included): from its main frame, or from a child frame of the page at that URL. Resolves with the
   * handler's value; rejects with Electron's "Error invoking remote method" message.
   */
  async function invokeAs(
    index: number,
    frameUrl: string,
    channel: string,
    args: unknown[],
    isMainFrame = true,
  ): Promise<unknown> {
    const webContents = windowAt(index).webContents;
    let frame;
    if (isMainFrame) commitUrl(index, frameUrl);
    else frame = webContents.createChildFrame(frameUrl);
    try {
      return await standIn.invokeFrom(frame ? { webContents, frame } : { webContents }, channel, ...args);
    } catch (error) {
      const message = (error as Error).message;
      throw new Error(
        message.startsWith('Error invoking remote method')
          ? message
          : `Error invoking remote method '${channel}': ${String(error)}`,
        { cause: error },
      );
    }
  }

  /**
   * What the session's handlers answer for a frame at `requestingUrl` (last handler set wins; none set:
   * Electron grants). Both are asked, separately: Blink's clipboard write asks by a permission REQUEST
   * (ClipboardPromise::ValidatePreconditions → PermissionService.RequestPermission), other APIs check first.
   */
  async function askPermission(
    index: number,
    permission: string,
    requestingUrl: string,
    isMainFrame: boolean,
  ): Promise<PermissionAnswer> {
    const webContents = windowAt(index).webContents;
    if (isMainFrame) commitUrl(index, requestingUrl);
    const details = {
      requestingUrl,
      isMainFrame,
      securityOrigin: requestingOrigin(requestingUrl),
      embeddingOrigin: requestingOrigin(webContents.mainFrame.url || requestingUrl),
    };
    const checkHandler = standIn.permission.check;
    const requestHandler = standIn.permission.request;
    const crossOriginSubframe =
      !isMainFrame &&
      requestingOrigin(requestingUrl) !== requestingOrigin(webContents.mainFrame.url || requestingUrl);
    const check = checkHandler
      ? Boolean(
          checkHandler(
            crossOriginSubframe ? null : webContents,
            permission,
            requestingOrigin(requestingUrl),
            details,
          ),
        )
      : true;
    const request = requestHandler
      ? await new Promise<boolean>((resolve) =>
          requestHandler(webContents, permission, (granted) => resolve(Boolean(granted)), details),
        )
      : true;
    return { check, request };
  }

  const currentTray = () => standIn.trays.filter((tray) => !tray.isDestroyed()).at(-1);

  function tray(): TrayView | null {
    const current = currentTray();
    if (!current) return null;
    const menu = (current.contextMenu?.items ?? []).map((item) => ({
      label: item.label ?? '',
      type: item.type ?? 'normal',
      checked: typeof item.checked === 'boolean' ? item.checked : null,
      enabled: item.enabled !== false,
    }));
    return { tooltip: current.tooltip || null, menu };
  }

  /** Emits an app event as the OS would ('activate': a dock click on macOS; 'second-instance'). */
  function emitApp(event: string): void {
    if (event === 'second-instance') app.emit(event, {}, [], process.cwd());
    else app.emit(event, {});
  }

  /** A window.open in window `index`'s page: main's setWindowOpenHandler decides (no handler: allowed). */
  function windowOpen(index: number, url: string): { action: string } {
    const handler = windowAt(index).webContents.windowOpenHandler;
    return handler ? handler({ url }) : { action: 'allow' };
  }

  /**
   * A main-frame navigation of window `index`'s page to `url`: a same-document one (hash) is in-page; any
   * other goes through will-navigate, which main may prevent. Answers whether it may go on.
   */
  function navigate(index: number, url: string): { allowed: boolean } {
    const contents = windowAt(index).webContents;
    const current = contents.mainFrame.url;
    if (current && sameDocument(current, url)) {
      contents.navigateInPage(url);
      return { allowed: true };
    }
    return { allowed: contents.navigate(url) };
  }

  function emitPower(event: string): void {
    standIn.electron.powerMonitor.emit(event);
  }

  return {
    electron,
    changes,
    sent,
    errorBoxes: standIn.errorBoxes,
    windows,
    invokeAs,
    askPermission,
    notifications: () => [...standIn.notifications],
    tray,
    clickTrayItem: (label: string) => void standIn.clickMenuItem(currentTray()?.contextMenu ?? null, label),
    emitApp,
    /** The window's close button: 'close' (main may prevent it and hide instead), then destroyed. */
    closeWindow: (index: number) => void windowAt(index).close(),
    emitPower,
    windowOpen,
    navigate,
    /** URLs main handed to the system browser (shell.openExternal). */
    opened: () => [...standIn.opened],
    quit: () => app.quit(),
  };
}

export type HostStandIn = ReturnType<typeof createHostStandIn>;
