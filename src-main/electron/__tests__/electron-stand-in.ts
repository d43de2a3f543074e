/**
 * A faithful stand-in for the `electron` module (named as such: Electron's binary cannot be downloaded on
 * this machine, so the real module cannot run here). Each behaviour below follows Electron 45 as
 * ../shared/reference/ELECTRON-45-NOTES.md documents it (sections 3, 4, 5, 7, 10) or as its typings say.
 *
 * Models:
 * - app: requestSingleInstanceLock, whenReady/isReady, getPath('appData' | 'userData' | other) and setPath
 *   (userData defaults to <appData>/<name>, as Electron does), getName/setName, getVersion, getAppPath,
 *   on/once/emit; quit() emits before-quit (preventDefault cancels it), then closes every window (a 'close'
 *   listener's preventDefault cancels the quit), then will-quit and quit; exit(code) ends at once, no events.
 *   window-all-closed is emitted when the last window is destroyed, except during a quit (Electron's
 *   Browser::OnWindowAllClosed). setLoginItemSettings/getLoginItemSettings exist on macOS and Windows only
 *   (the `platform` option): on Linux they are undefined, as in Electron. No openAsHidden (removed in 44).
 * - BaseWindow (no web contents) and BrowserWindow (a BaseWindow with webContents): options recorded;
 *   close() emits a preventable 'close', then destroys (emits 'closed'); destroy(); hide/show/isVisible/
 *   focus/minimize/isMinimized/restore; static getAllWindows (live windows only). window-all-closed counts
 *   every window, base windows included. loadFile commits the URL Electron builds (url.format, so a `%`
 *   stays as it is; did-start-navigation, did-navigate) and rejects as Electron's _awaitNextLoad does:
 *   ERR_FILE_NOT_FOUND (-6) for a missing file, ERR_ABORTED (-3) when another navigation starts first,
 *   ERR_FAILED (-2) when the window is destroyed first; `state.holdLoads` + finishLoads() lets a test act
 *   while the load is in progress. webContents.reload(); crash() emits render-process-gone.
 * - Windows session end: endSession() sends query-session-end (preventable) and session-end to every live
 *   window, as WM_QUERYENDSESSION/WM_ENDSESSION reach every top-level window; a process without a window
 *   hears nothing. systemShutdown(): powerMonitor 'shutdown' (Linux, macOS), preventable.
 * - app.isPackaged (option); app.setAppUserModelId on Windows only; Notification on Windows is not shown
 *   without an AppUserModelId. Menu.setApplicationMenu/getApplicationMenu, and Electron's default menu
 *   (File, Edit, View with toggleDevTools, Window) set at ready when the app set none; roles expand to
 *   their submenus. dialog.showOpenDialog/showSaveDialog record their parent window (or null).
 * - IPC: arguments and replies are structured clones; a handler's throw reaches the caller as "Error
 *   invoking remote method '<channel>': <error>".
 * - Login items: macOS `status` ('not-registered', 'enabled', 'requires-approval' via
 *   state.loginItemStatus, 'not-found') with openAtLogin = status === 'enabled', path and args ignored;
 *   Windows matches path and args as registered.
 * - Tray: on Linux `visible` only when a StatusNotifierItem host answers (state.trayHost; trayHost() is
 *   what the app's D-Bus question would answer). nativeImage: a "…Template.png" name is a template on
 *   macOS; setTemplateImage/isTemplateImage.
 * - webContents: one mainFrame object per window (WebFrameMain) whose `url` is the last committed URL,
 *   hash included; navigateInPage(url) changes it as a hash link does (did-navigate-in-page, no
 *   will-navigate); navigate(url) emits a preventable will-navigate and commits (same frame object);
 *   createChildFrame(url) gives another frame of that page; setWindowOpenHandler; send (recorded, and
 *   delivered to ipcRenderer listeners); getURL; isDestroyed.
 * - ipcMain: handle (a second handler for one channel throws, as Electron does), removeHandler, on (what
 *   electron-store uses). `invoke(channel, ...args)` calls a handler as the newest live window's preload
 *   would: event { sender: webContents, senderFrame: mainFrame }; `invokeFrom({ webContents, frame }, ...)`
 *   lets a test call from another frame or another window.
 * - session.defaultSession: webRequest.onHeadersReceived (recorded), setPermissionRequestHandler and
 *   setPermissionCheckHandler (the last one set wins, as in Electron); `checkPermission` and
 *   `requestPermission` ask one handler each as Chromium does (no handler set: granted, Electron's default;
 *   a cross-origin subframe's check gets a null webContents); `askPermission` is the usual web API flow,
 *   the check first and the request when the check is denied.
 * - Notification: isSupported() true; show() records title and body, or, when `notificationFailure` is set
 *   (an unsigned macOS build), emits 'failed' (event, error) instead of showing.
 * - Tray (records image, tooltip, context menu; destroy), Menu.buildFromTemplate (keeps the items so a test
 *   can click them: a checkbox item flips `checked` before its click runs, as Electron does),
 *   nativeImage.createFromPath (empty when the file is missing), powerSaveBlocker (start/stop/isStarted),
 *   powerMonitor (an EventEmitter: emit 'suspend' and 'resume').
 * - net.request (client-request.md), what electron-updater downloads with: Node's http(s) in Electron's
 *   shapes; throws before `ready`, as Electron's net does. Options as a URL string or an object (url, or
 *   protocol/hostname/port/path; method, headers, session, redirect). With redirect 'manual' a 3xx emits
 *   'redirect' (statusCode, method, redirectUrl, responseHeaders) and no response (electron-updater aborts
 *   and requests the new URL); 'follow' is not modelled. 'response' gives an IncomingMessage (statusCode,
 *   statusMessage, lower-case headers, 'data' Buffers, 'end'); no 'socket' event (Chromium owns sockets).
 *   Each request is recorded in `netRequests`. session.fromPartition(name) gives one session per name.
 *   autoUpdater is Electron's EventEmitter (electron-updater emits 'before-quit-for-update' on it).
 *   app.releaseSingleInstanceLock() and app.relaunch() are recorded on the app.
 * - dialog (showErrorBox recorded; showOpenDialog answers `picked.files`, canceled when empty; showSaveDialog
 *   answers `picked.savePath`, canceled when null), shell
 *   (openExternal recorded, openPath), contextBridge.exposeInMainWorld (recorded), ipcRenderer (invoke routed
 *   to ipcMain's handlers from the newest window's main frame, on/removeListener for what main sends).
 *
 * Does not model: rendering or scripts in the page (the e2e harness runs the built page in Chromium),
 * real frames' processes and origins beyond file://, Chromium's own permission defaults for specific
 * permissions, menus' accelerators and what roles do when clicked, tray click gestures per platform, the real system's sleep,
 * login items being honoured by the OS, notification permission prompts, multiple sessions or partitions.
 *
 * Loads in plain Node 24 with type stripping (the e2e harness imports this file without a bundler): erasable
 * TypeScript only (no parameter properties, enums or namespaces) and no relative imports.
 */
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { format as formatUrl } from 'node:url';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

type Handler = (event: unknown, ...args: unknown[]) => unknown;
type Listener = (...args: unknown[]) => void;

export interface ElectronStandInOptions {
  /** process.platform as the app sees it; login items exist on 'darwin' and 'win32' only (default: 'linux'). */
  platform?: NodeJS.Platform;
  /** app.getPath('appData') (default: /stand-in/appData; give a temp folder when files get written). */
  appData?: string;
  /** app.getName(): Electron takes package.json's productName, else its name (default: 'Wager Keeper'). */
  name?: string;
  version?: string;
  /** app.getAppPath() (default: /stand-in/app). */
  appPath?: string;
  /** macOS getLoginItemSettings().wasOpenedAtLogin. */
  openedAtLogin?: boolean;
  /** false: another instance holds the single-instance lock. */
  singleInstance?: boolean;
  /** app.isPackaged (default false: `electron .` from the source tree). */
  isPackaged?: boolean;
}

export interface StandInMenuItem {
  label?: string;
  role?: string;
  submenu?: StandInMenuItem[];
  type?: 'normal' | 'separator' | 'submenu' | 'checkbox' | 'radio';
  checked?: boolean;
  enabled?: boolean;
  click?: (item: StandInMenuItem, window: unknown, event: unknown) => void;
}

/** A preventable event, as Electron passes to close, will-navigate, before-quit and will-quit listeners. */
function preventable() {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

export function createElectronStandIn(options: ElectronStandInOptions = {}) {
  const platform = options.platform ?? 'linux';
  const handlers = new Map<string, Handler>();
  const ipcListeners = new EventEmitter();
  const rendererEvents = new EventEmitter();
  const windows: StandInWindow[] = [];
  const exposed = new Map<string, unknown>();
  const opened: string[] = [];
  const notifications: { title: string; body: string; shown: boolean }[] = [];
  const errorBoxes: { title: string; content: string }[] = [];
  const dialogs: Record<string, unknown>[] = [];
  const picked = { files: [] as string[], savePath: null as string | null };
  const trays: StandInTray[] = [];
  const headerListeners: ((
    details: { responseHeaders?: Record<string, string[]> },
    callback: (response: { responseHeaders: Record<string, string[]> }) => void,
  ) => void)[] = [];
  const permission: {
    request:
      | ((
          webContents: unknown,
          permission: string,
          callback: (granted: boolean) => void,
          details: { isMainFrame: boolean; requestingUrl: string },
        ) => void)
      | null;
    check:
      | ((
          webContents: unknown,
          permission: string,
          requestingOrigin: string,
          details: { isMainFrame: boolean; requestingUrl?: string },
        ) => boolean)
      | null;
  } = { request: null, check: null };
  /**
   * Knobs a test turns: `notificationFailure` (an error string: every Notification emits 'failed', as on an
   * unsigned macOS build); `trayHost` (Linux: whether a StatusNotifierItem host answers; without one the
   * tray falls back to a GtkStatusIcon that GNOME does not show, so `tray.visible` is false); `holdLoads`
   * (loadFile commits but does not finish until `finishLoads()`: a reload, a quit or a crash can come
   * first); `loginItemStatus` (macOS: the status SMAppService gives a registration, e.g. 'requires-approval').
   */
  const state = {
    notificationFailure: null as string | null,
    trayHost: true,
    holdLoads: false,
    loginItemStatus: 'enabled' as 'enabled' | 'requires-approval' | 'not-found',
    appUserModelId: null as string | null,
  };
  const pendingLoads = new Set<() => void>();
  /** Every window and base window not destroyed (Electron's BaseWindow.getAllWindows). */
  const baseWindows: EventEmitter[] = [];
  let applicationMenu: StandInMenu | null = null;
  let applicationMenuWasSet = false;
  const blockers = new Map<number, string>();
  let nextBlockerId = 1;
  let nextFrameId = 1;

  class StandInFrame {
    url: string;
    readonly parent: StandInFrame | null;
    readonly routingId: number;
    constructor(url: string, parent: StandInFrame | null) {
      this.url = url;
      this.parent = parent;
      this.routingId = nextFrameId++;
    }
    get top(): StandInFrame {
      return this.parent ? this.parent.top : this;
    }
  }

  class StandInWebContents extends EventEmitter {
    readonly mainFrame = new StandInFrame('', null);
    windowOpenHandler?: (details: { url: string }) => { action: 'allow' | 'deny' };
    sent: { channel: string; payload: unknown }[] = [];
    destroyed = false;
    setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }) {
      this.windowOpenHandler = handler;
    }
    send(channel: string, payload: unknown) {
      if (this.destroyed) throw new Error('Object has been destroyed');
      this.sent.push({ channel, payload });
      rendererEvents.emit(channel, { sender: this }, payload);
    }
    getURL() {
      return this.mainFrame.url;
    }
    isDestroyed() {
      return this.destroyed;
    }
    /** A hash link or history.pushState: the frame's URL changes, no will-navigate (did-navigate-in-page). */
    navigateInPage(url: string) {
      this.mainFrame.url = url;
      this.emit('did-navigate-in-page', {}, url, true);
    }
    /** A navigation to another document: will-navigate first (preventable); the same frame object commits it. */
    navigate(url: string): boolean {
      const event = preventable();
      this.emit('will-navigate', event, url);
      if (event.defaultPrevented) return false;
      this.commit(url);
      return true;
    }
    /** A main-frame commit as Electron reports it: did-start-navigation (not same-document), did-navigate. */
    commit(url: string) {
      this.crashed = false;
      this.emit('did-start-navigation', { url, isSameDocument: false, isMainFrame: true }, url, false, true);
      this.mainFrame.url = url;
      this.emit('did-navigate', {}, url, 200, 'OK');
    }
    /** View → Reload (webContents.reload()): the same URL committed again, then loaded (or held). */
    reload() {
      if (this.destroyed) return;
      const url = this.mainFrame.url;
      this.commit(url);
      finishOrHold(() => this.emit('did-finish-load'));
    }
    crashed = false;
    /** The renderer dies (a crash, the OOM killer): render-process-gone; the page is blank until a reload. */
    crash(reason = 'crashed') {
      this.crashed = true;
      this.emit('render-process-gone', {}, { reason, exitCode: 139 });
    }
    /** An iframe in this page (another WebFrameMain, not the main frame). */
    createChildFrame(url: string) {
      return new StandInFrame(url, this.mainFrame);
    }
  }

  /** A window without web contents (Electron's BaseWindow): Windows sends it the session-end messages too. */
  class StandInBaseWindow extends EventEmitter {
    readonly options: Record<string, unknown>;
    destroyed = false;
    visible: boolean;
    minimized = false;
    constructor(windowOptions: Record<string, unknown> = {}) {
      super();
      this.options = windowOptions;
      this.visible = windowOptions.show !== false;
      baseWindows.push(this);
    }
    isDestroyed() {
      return this.destroyed;
    }
    isVisible() {
      return this.visible && !this.destroyed;
    }
    isMinimized() {
      return this.minimized;
    }
    minimize() {
      this.minimized = true;
      this.emit('minimize');
    }
    restore() {
      this.minimized = false;
      this.emit('restore');
    }
    focus() {}
    show() {
      this.visible = true;
      this.minimized = false;
      this.emit('show');
    }
    hide() {
      this.visible = false;
      this.emit('hide');
    }
    /** As a click on the window's close button: 'close' (preventable), then destroyed. */
    close(): boolean {
      if (this.destroyed) return true;
      const event = preventable();
      this.emit('close', event);
      if (event.defaultPrevented) return false;
      this.destroy();
      return true;
    }
    destroy() {
      if (this.destroyed) return;
      this.destroyed = true;
      this.visible = false;
      this.destroyContents();
      this.emit('closed');
      if (StandInBaseWindow.getAllWindows().length === 0 && !app.quitting) app.emit('window-all-closed');
    }
    protected destroyContents() {}
    static getAllWindows() {
      return (baseWindows as StandInBaseWindow[]).filter((w) => !w.destroyed);
    }
  }

  class StandInWindow extends StandInBaseWindow {
    readonly webContents = new StandInWebContents();
    readonly loaded: string[] = [];
    constructor(windowOptions: Record<string, unknown> = {}) {
      super(windowOptions);
      windows.push(this);
    }
    /**
     * Electron's loadFile (lib/browser/api/web-contents.ts): loadURL of
     * `url.format({ protocol: 'file', slashes: true, pathname: path.resolve(app.getAppPath(), filePath) })`,
     * whose URL Chromium commits canonicalised (a `%` stays as it is; pathToFileURL would write `%25`).
     * Rejects as _awaitNextLoad does: ERR_FILE_NOT_FOUND (-6) for a missing file (did-fail-load); ERR_ABORTED
     * (-3) when another main-frame navigation starts first (a reload); ERR_FAILED (-2) when the contents are
     * destroyed first (the window closed, the app quit). The error carries `code`, `errno` and `url`.
     */
    loadFile(path: string): Promise<void> {
      this.loaded.push(path);
      const contents = this.webContents;
      const formatted = formatUrl({ protocol: 'file', slashes: true, pathname: resolvePath(app.getAppPath(), path) });
      const url = new URL(formatted).href;
      return new Promise<void>((resolve, reject) => {
        const fail = (errno: number, code: string) => {
          cleanup();
          reject(Object.assign(new Error(`${code} (${errno}) loading '${url}'`), { code, errno, url }));
        };
        let started = false;
        const onStart = (_event: unknown, _url: string, isSameDocument: boolean, isMainFrame: boolean) => {
          if (!isMainFrame || isSameDocument) return;
          if (started) fail(-3, 'ERR_ABORTED');
          started = true;
        };
        const onFinish = () => (cleanup(), resolve());
        const onDestroyed = () => fail(-2, 'ERR_FAILED');
        const cleanup = () => {
          contents.removeListener('did-start-navigation', onStart);
          contents.removeListener('did-finish-load', onFinish);
          contents.removeListener('destroyed', onDestroyed);
        };
        contents.on('did-start-navigation', onStart);
        contents.on('did-finish-load', onFinish);
        contents.on('destroyed', onDestroyed);
        if (!existsSync(path)) {
          contents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', url, true);
          fail(-6, 'ERR_FILE_NOT_FOUND');
          return;
        }
        contents.commit(url);
        finishOrHold(() => {
          if (!contents.destroyed) contents.emit('did-finish-load');
        });
      });
    }
    protected override destroyContents() {
      this.webContents.destroyed = true;
      this.webContents.emit('destroyed');
    }
    static override getAllWindows() {
      return windows.filter((w) => !w.destroyed);
    }
  }

  /** Runs `finish` now, or when the test calls finishLoads() if `state.holdLoads`. */
  function finishOrHold(finish: () => void) {
    if (state.holdLoads) pendingLoads.add(finish);
    else queueMicrotask(finish);
  }
  /** Finishes every held load (state.holdLoads), in order. */
  function finishLoads() {
    const held = [...pendingLoads];
    pendingLoads.clear();
    held.forEach((finish) => finish());
  }
  class StandInNotification extends EventEmitter {
    readonly options: { title: string; body: string };
    constructor(notificationOptions: { title: string; body: string }) {
      super();
      this.options = notificationOptions;
    }
    static isSupported() {
      return true;
    }
    /**
     * Windows shows a toast only for an AppUserModelId it knows (app.setAppUserModelId, the installer's
     * appId): without one Electron falls back to "electron.app.<name>", whose toasts Windows drops or files
     * under that name, so the stand-in counts it as not shown (and emits nothing, as nothing happens).
     */
    show() {
      const failure = state.notificationFailure;
      const noAumid = platform === 'win32' && state.appUserModelId === null;
      const shown = failure === null && !noAumid;
      notifications.push({ title: this.options.title, body: this.options.body, shown });
      if (noAumid) return;
      if (failure === null) this.emit('show', {});
      else this.emit('failed', {}, failure);
    }
  }

  /** What Electron's menu roles expand to (lib/browser/api/menu-item-roles.ts), as far as a test reads them. */
  const ROLE_SUBMENUS: Record<string, string[]> = {
    appMenu: ['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit'],
    fileMenu: [platform === 'darwin' ? 'close' : 'quit'],
    editMenu: ['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll'],
    viewMenu: ['reload', 'forceReload', 'toggleDevTools', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen'],
    windowMenu: ['minimize', 'zoom', 'close'],
  };
  const menuItem = (item: StandInMenuItem): StandInMenuItem => {
    const submenu = item.submenu ?? (item.role && ROLE_SUBMENUS[item.role]?.map((role) => ({ role })));
    return { type: 'normal', enabled: true, ...item, ...(submenu ? { submenu: submenu.map(menuItem) } : {}) };
  };

  class StandInMenu {
    readonly items: StandInMenuItem[];
    constructor(items: StandInMenuItem[]) {
      this.items = items;
    }
    static buildFromTemplate(template: StandInMenuItem[]) {
      return new StandInMenu(template.map(menuItem));
    }
    /** Electron's default menu (lib/browser/default-menu.ts) is set only if the app set none before. */
    static setApplicationMenu(menu: StandInMenu | null) {
      applicationMenuWasSet = true;
      applicationMenu = menu;
    }
    static getApplicationMenu() {
      return applicationMenu;
    }
  }
  /** lib/browser/default-menu.ts: appMenu (macOS), fileMenu, editMenu, viewMenu (with Toggle Developer Tools), windowMenu. */
  const setDefaultApplicationMenu = () => {
    if (applicationMenuWasSet) return;
    applicationMenu = StandInMenu.buildFromTemplate([
      ...(platform === 'darwin' ? [{ role: 'appMenu' }] : []),
      { role: 'fileMenu' },
      { role: 'editMenu' },
      { role: 'viewMenu' },
      { role: 'windowMenu' },
    ]);
  };

  class StandInTray extends EventEmitter {
    image: unknown;
    tooltip = '';
    contextMenu: StandInMenu | null = null;
    /** How many times setContextMenu was called (Linux needs it again after every change). */
    menuSets = 0;
    destroyed = false;
    /**
     * Whether a person can see it: on Linux Chromium asks the StatusNotifierWatcher for a host once, here,
     * and without one falls back to a GtkStatusIcon that GNOME does not show (state.trayHost).
     */
    readonly visible: boolean;
    constructor(image: unknown) {
      super();
      this.image = image;
      this.visible = platform !== 'linux' || state.trayHost;
      trays.push(this);
    }
    setToolTip(tooltip: string) {
      this.tooltip = tooltip;
    }
    setContextMenu(menu: StandInMenu | null) {
      this.contextMenu = menu;
      this.menuSets += 1;
    }
    setImage(image: unknown) {
      this.image = image;
    }
    destroy() {
      this.destroyed = true;
    }
    isDestroyed() {
      return this.destroyed;
    }
  }

  const paths = new Map<string, string>([['appData', options.appData ?? '/stand-in/appData']]);
  /**
   * The system's login item. macOS (shell/browser/browser_mac.mm): SMAppService registers the running
   * bundle (path and args are ignored: under `npm start` that is Electron.app); getLoginItemSettings answers
   * its `status` ('not-registered', 'enabled', 'requires-approval', 'not-found') and openAtLogin is
   * `status === 'enabled'`. Windows: a Run registry value of path and args; openAtLogin is true only when
   * the path and args asked about are the ones registered (both default to process.execPath and []).
   */
  const loginItem = { openAtLogin: false, args: [] as string[], path: null as string | null, status: 'not-registered' };
  const loginItemApi =
    platform === 'darwin' || platform === 'win32'
      ? {
          setLoginItemSettings(settings: { openAtLogin?: boolean; args?: string[]; path?: string }) {
            if (platform === 'darwin') {
              loginItem.status = settings.openAtLogin ? state.loginItemStatus : 'not-registered';
              loginItem.openAtLogin = loginItem.status === 'enabled';
              loginItem.path = options.appPath ?? '/Applications/Electron.app';
              loginItem.args = [];
              return;
            }
            loginItem.openAtLogin = Boolean(settings.openAtLogin);
            loginItem.path = settings.openAtLogin ? (settings.path ?? process.execPath) : null;
            loginItem.args = settings.openAtLogin ? (settings.args ?? []) : [];
          },
          getLoginItemSettings(query: { path?: string; args?: string[] } = {}) {
            if (platform === 'darwin')
              return {
                openAtLogin: loginItem.status === 'enabled',
                status: loginItem.status,
                wasOpenedAtLogin: options.openedAtLogin ?? false,
              };
            const matches =
              loginItem.openAtLogin &&
              loginItem.path === (query.path ?? process.execPath) &&
              JSON.stringify(loginItem.args) === JSON.stringify(query.args ?? []);
            return {
              openAtLogin: matches,
              executableWillLaunchAtLogin: loginItem.openAtLogin && loginItem.path === (query.path ?? process.execPath),
              launchItems: loginItem.openAtLogin
                ? [{ name: state.appUserModelId ?? `electron.app.${app.name}`, path: loginItem.path, args: loginItem.args, scope: 'user', enabled: true }]
                : [],
            };
          },
        }
      : {};
  // Windows only (electron_api_app.cc builds it under IS_WIN).
  const aumidApi =
    platform === 'win32'
      ? { setAppUserModelId: (id: string) => void (state.appUserModelId = id) }
      : {};

  class StandInApp extends EventEmitter {
    name = options.name ?? 'Wager Keeper';
    quitting = false;
    quitCount = 0;
    exitCode: number | null = null;
    ready = false;
    readonly isPackaged = options.isPackaged ?? false;
    singleInstanceLockReleased = false;
    relaunchCount = 0;
    requestSingleInstanceLock() {
      return options.singleInstance ?? true;
    }
    releaseSingleInstanceLock() {
      this.singleInstanceLockReleased = true;
    }
    relaunch() {
      this.relaunchCount += 1;
    }
    async whenReady() {
      if (!this.ready) setDefaultApplicationMenu();
      this.ready = true;
    }
    isReady() {
      return this.ready;
    }
    getPath(name: string) {
      const set = paths.get(name);
      if (set) return set;
      if (name === 'userData') return join(paths.get('appData')!, this.name);
      return join('/stand-in', name);
    }
    setPath(name: string, path: string) {
      paths.set(name, path);
    }
    getName() {
      return this.name;
    }
    setName(name: string) {
      this.name = name;
    }
    getVersion() {
      return options.version ?? '0.1.0';
    }
    getAppPath() {
      return options.appPath ?? '/stand-in/app';
    }
    /** Electron's order: before-quit (preventable), close every window (a prevented close cancels), will-quit, quit. */
    quit() {
      const beforeQuit = preventable();
      this.emit('before-quit', beforeQuit);
      if (beforeQuit.defaultPrevented) return;
      this.quitting = true;
      for (const window of StandInBaseWindow.getAllWindows()) {
        if (!window.close()) {
          this.quitting = false;
          return;
        }
      }
      const willQuit = preventable();
      this.emit('will-quit', willQuit);
      if (willQuit.defaultPrevented) {
        this.quitting = false;
        return;
      }
      this.quitCount += 1;
      this.emit('quit', {}, 0);
    }
    exit(code = 0) {
      this.exitCode = code;
      this.quitCount += 1;
    }
  }
  const app = Object.assign(new StandInApp(), loginItemApi, aumidApi);

  const nativeImage = {
    /** A file whose name ends in "Template" is a macOS template image (native-image.md); setTemplateImage marks one. */
    createFromPath(path: string) {
      const empty = !existsSync(path);
      let template = platform === 'darwin' && /Template(@\dx)?\.\w+$/.test(path);
      const image = {
        path,
        isEmpty: () => empty,
        resize: () => image,
        getSize: () => (empty ? { width: 0, height: 0 } : { width: 256, height: 256 }),
        setTemplateImage: (value: boolean) => void (template = value),
        isTemplateImage: () => template,
      };
      return image;
    },
  };

  const netRequests: { url: string; method: string; partition: string | null }[] = [];
  const partitions = new Map<string, object>();
  const partitionOf = new WeakMap<object, string>();
  class StandInClientRequest extends EventEmitter {
    aborted = false;
    inner: ReturnType<typeof httpRequest>;
    constructor(given: string | Record<string, unknown>) {
      super();
      if (!app.isReady()) throw new Error('net.request cannot be used before the app is ready');
      const o: Record<string, unknown> = typeof given === 'string' ? { url: given } : given;
      const host = (o.host as string | undefined) ?? `${o.hostname as string}${o.port ? `:${String(o.port)}` : ''}`;
      const url = o.url ? new URL(String(o.url)) : new URL(`${(o.protocol as string | undefined) ?? 'http:'}//${host}${(o.path as string | undefined) ?? '/'}`);
      const method = String(o.method ?? 'GET');
      const session = o.session as object | undefined;
      netRequests.push({ url: url.href, method, partition: (session && partitionOf.get(session)) ?? null });
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      this.inner = send(url, { method, headers: o.headers as Record<string, string> | undefined }, (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        if (o.redirect === 'manual' && status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          this.emit('redirect', status, method, new URL(response.headers.location, url).href, response.headers);
          return;
        }
        this.emit('response', response);
      });
      this.inner.on('error', (error) => {
        if (!this.aborted) this.emit('error', error);
      });
    }
    setHeader(name: string, value: string) {
      this.inner.setHeader(name, value);
    }
    write(chunk: string | Buffer) {
      this.inner.write(chunk);
      return true;
    }
    end(chunk?: string | Buffer) {
      this.inner.end(chunk);
      return this;
    }
    abort() {
      if (this.aborted) return;
      this.aborted = true;
      this.inner.destroy();
      this.emit('abort');
      this.emit('close');
    }
    followRedirect() {
      throw new Error('the stand-in does not follow redirects: abort and request the new URL, as electron-updater does');
    }
  }

  const electron = {
    app,
    BaseWindow: StandInBaseWindow,
    BrowserWindow: StandInWindow,
    ipcMain: {
      handle(channel: string, handler: Handler) {
        if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        handlers.set(channel, handler);
      },
      removeHandler(channel: string) {
        handlers.delete(channel);
      },
      on(channel: string, listener: Listener) {
        ipcListeners.on(channel, listener);
      },
      removeListener(channel: string, listener: Listener) {
        ipcListeners.removeListener(channel, listener);
      },
    },
    net: { request: (options: string | Record<string, unknown>) => new StandInClientRequest(options) },
    autoUpdater: new EventEmitter(),
    session: {
      fromPartition(partition: string) {
        let session = partitions.get(partition);
        if (!session) {
          session = {};
          partitions.set(partition, session);
          partitionOf.set(session, partition);
        }
        return session;
      },
      defaultSession: {
        webRequest: {
          onHeadersReceived: (listener: (typeof headerListeners)[number]) =>
            void headerListeners.push(listener),
        },
        setPermissionRequestHandler: (handler: typeof permission.request) =>
          void (permission.request = handler),
        setPermissionCheckHandler: (handler: typeof permission.check) => void (permission.check = handler),
      },
    },
    Notification: StandInNotification,
    Tray: StandInTray,
    Menu: StandInMenu,
    nativeImage,
    powerSaveBlocker: {
      start(type: string) {
        const id = nextBlockerId++;
        blockers.set(id, type);
        return id;
      },
      stop(id: number) {
        return blockers.delete(id);
      },
      isStarted(id: number) {
        return blockers.has(id);
      },
    },
    powerMonitor: new EventEmitter(),
    // (BaseWindow above: its 'query-session-end' and 'session-end' are Windows' WM_QUERYENDSESSION/WM_ENDSESSION.)
    shell: { openExternal: async (url: string) => void opened.push(url), openPath: async () => '' },
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]) => invoke(channel, ...args),
      on: (channel: string, listener: Listener) => rendererEvents.on(channel, listener),
      removeListener: (channel: string, listener: Listener) =>
        rendererEvents.removeListener(channel, listener),
    },
    // dialog.showOpenDialog([window, ]options): with a window the dialog is modal to it (a sheet on macOS);
    // without one it is a free-floating dialog that can open behind the app. Recorded with `parent`.
    dialog: {
      showErrorBox: (title: string, content: string) => void errorBoxes.push({ title, content }),
      showOpenDialog: async (...args: unknown[]) => {
        dialogs.push(dialogCall(args));
        return { canceled: picked.files.length === 0, filePaths: [...picked.files] };
      },
      showSaveDialog: async (...args: unknown[]) => {
        dialogs.push(dialogCall(args));
        return picked.savePath === null ? { canceled: true, filePath: '' } : { canceled: false, filePath: picked.savePath };
      },
    },
  };

  function dialogCall(args: unknown[]): Record<string, unknown> {
    const [first, second] = args;
    const parent = first instanceof StandInBaseWindow ? first : null;
    return { ...((parent ? second : first) as Record<string, unknown>), parent };
  }

  /**
   * Windows ends the session (shutdown, restart, sign-out): WM_QUERYENDSESSION then WM_ENDSESSION go to
   * every top-level window, visible or not (native_window_views_win.cc); a process with no window hears
   * nothing and is killed. 'query-session-end' may be prevented (the shutdown waits, showing the app as
   * blocking it); after 'session-end' "the OS kills us right after this returns": `killed` is then true.
   */
  function endSession(reasons: string[] = ['shutdown']) {
    if (platform !== 'win32') throw new Error('session-end events exist on Windows only');
    const live = StandInBaseWindow.getAllWindows();
    let prevented = false;
    for (const window of live) {
      const event = Object.assign(preventable(), { reasons });
      window.emit('query-session-end', event);
      prevented ||= event.defaultPrevented;
    }
    return {
      heard: live.length > 0,
      prevented,
      /** WM_ENDSESSION: the last word before the process is killed. */
      end() {
        for (const window of StandInBaseWindow.getAllWindows())
          window.emit('session-end', Object.assign(preventable(), { reasons }));
      },
    };
  }

  /** powerMonitor 'shutdown' (Linux, macOS): preventable; the app should then quit as soon as it can. */
  function systemShutdown() {
    const event = preventable();
    electron.powerMonitor.emit('shutdown', event);
    return event.defaultPrevented;
  }

  /** The newest window not destroyed (the one whose preload calls, in these tests). */
  const liveWindow = () => StandInWindow.getAllWindows().at(-1);

  /** Calls the handler of `channel` as Electron does for a call from `caller`'s frame (its main frame unless given). */
  async function invokeFrom(
    caller: { webContents: StandInWebContents; frame?: StandInFrame },
    channel: string,
    ...args: unknown[]
  ) {
    const handler = handlers.get(channel);
    if (!handler)
      throw new Error(
        `Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`,
      );
    // Arguments and replies cross processes as structured clones (lib/browser/ipc-main-impl.ts,
    // ipc-renderer): a function or class instance in a reply cannot be sent, and a thrown error reaches the
    // page as "Error invoking remote method '<channel>': <the error>".
    let reply: unknown;
    try {
      reply = await handler(
        {
          sender: caller.webContents,
          senderFrame: caller.frame ?? caller.webContents.mainFrame,
          frameId: (caller.frame ?? caller.webContents.mainFrame).routingId,
        },
        ...structuredClone(args),
      );
    } catch (error) {
      throw new Error(`Error invoking remote method '${channel}': ${String(error)}`, { cause: error });
    }
    return structuredClone(reply);
  }

  /** Calls `channel` from the newest live window's main frame (what its preload's ipcRenderer.invoke does). */
  async function invoke(channel: string, ...args: unknown[]) {
    const window = liveWindow();
    if (!window) throw new Error(`Error invoking remote method '${channel}': no window is open to call from`);
    return invokeFrom({ webContents: window.webContents }, channel, ...args);
  }

  /** The origin Chromium reports for a frame's URL (a file:// page's is "file:///"). */
  const originOf = (url: string) => {
    const parsed = new URL(url);
    return parsed.protocol === 'file:' ? 'file:///' : parsed.origin;
  };

  /** The frame asking (the newest window's main frame unless given) and how Chromium describes it. */
  const asker = (caller?: { webContents: StandInWebContents; frame?: StandInFrame }) => {
    const webContents = caller?.webContents ?? liveWindow()?.webContents;
    if (!webContents) throw new Error('no window to ask from');
    const frame = caller?.frame ?? webContents.mainFrame;
    const isMainFrame = frame === webContents.mainFrame;
    const crossOriginSubframe = !isMainFrame && originOf(frame.url) !== originOf(webContents.mainFrame.url);
    return { webContents, frame, isMainFrame, crossOriginSubframe };
  };

  /** A permission check (synchronous): the check handler, with a null webContents for a cross-origin subframe. No handler: granted. */
  function checkPermission(
    name: string,
    caller?: { webContents: StandInWebContents; frame?: StandInFrame },
  ): boolean {
    const { webContents, frame, isMainFrame, crossOriginSubframe } = asker(caller);
    if (!permission.check) return true;
    return permission.check(crossOriginSubframe ? null : webContents, name, originOf(frame.url), {
      isMainFrame,
      requestingUrl: frame.url,
    });
  }

  /** A permission request (navigator.clipboard.writeText's clipboard-sanitized-write is one): the request handler. No handler: granted. */
  function requestPermission(
    name: string,
    caller?: { webContents: StandInWebContents; frame?: StandInFrame },
  ): Promise<boolean> {
    const { webContents, frame, isMainFrame } = asker(caller);
    const request = permission.request;
    if (!request) return Promise.resolve(true);
    return new Promise<boolean>((resolve) =>
      request(webContents, name, resolve, { isMainFrame, requestingUrl: frame.url }),
    );
  }

  /**
   * Asks `name` the way most web APIs do (Electron's session docs): a check first, then a request when the
   * check is denied. Which of the two a given API uses is Chromium's business: a test should assert both
   * (checkPermission and requestPermission) for what it grants.
   */
  async function askPermission(
    name: string,
    caller?: { webContents: StandInWebContents; frame?: StandInFrame },
  ): Promise<boolean> {
    return checkPermission(name, caller) || requestPermission(name, caller);
  }

  /** Clicks a tray menu item by its label (or a label's start), as a person would. */
  function clickMenuItem(menu: StandInMenu | null, label: string | RegExp) {
    const item = menu?.items.find((candidate) =>
      typeof label === 'string' ? candidate.label === label : label.test(candidate.label ?? ''),
    );
    if (!item)
      throw new Error(`no menu item ${String(label)} in ${JSON.stringify(menu?.items.map((i) => i.label))}`);
    if (item.enabled === false) throw new Error(`menu item ${String(label)} is disabled`);
    if (item.type === 'checkbox') item.checked = !item.checked;
    item.click?.(item, undefined, {});
    return item;
  }

  return {
    electron,
    netRequests,
    handlers,
    windows,
    exposed,
    opened,
    notifications,
    errorBoxes,
    dialogs,
    picked,
    trays,
    headerListeners,
    permission,
    state,
    blockers,
    loginItem,
    appEvents: app as EventEmitter,
    rendererEvents,
    ipcListeners,
    invoke,
    invokeFrom,
    askPermission,
    checkPermission,
    requestPermission,
    clickMenuItem,
    finishLoads,
    /** What tray-host.ts's D-Bus question would answer on this desktop (state.trayHost on Linux). */
    trayHost: async () => platform !== 'linux' || state.trayHost,
    endSession,
    systemShutdown,
    applicationMenu: () => applicationMenu,
    baseWindows: () => StandInBaseWindow.getAllWindows(),
  };
}

export type ElectronStandIn = ReturnType<typeof createElectronStandIn>;
