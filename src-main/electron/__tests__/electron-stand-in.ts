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
 * - BrowserWindow: records its options and loadFile calls; loadFile rejects with ERR_FILE_NOT_FOUND when the
 *   file does not exist (checked with fs) and otherwise commits the page's file:// URL; close() emits a
 *   preventable 'close', then destroys (emits 'closed'); destroy(); hide/show/isVisible/focus/isMinimized/
 *   restore; static getAllWindows (live windows only).
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
 * - dialog (showErrorBox recorded; showOpenDialog answers `picked.files`, canceled when empty; showSaveDialog
 *   answers `picked.savePath`, canceled when null), shell
 *   (openExternal recorded, openPath), contextBridge.exposeInMainWorld (recorded), ipcRenderer (invoke routed
 *   to ipcMain's handlers from the newest window's main frame, on/removeListener for what main sends).
 *
 * Does not model: rendering or scripts in the page (the e2e harness runs the built page in Chromium),
 * real frames' processes and origins beyond file://, Chromium's own permission defaults for specific
 * permissions, menus' accelerators and roles, tray click gestures per platform, the real system's sleep,
 * login items being honoured by the OS, notification permission prompts, multiple sessions or partitions.
 *
 * Loads in plain Node 24 with type stripping (the e2e harness imports this file without a bundler): erasable
 * TypeScript only (no parameter properties, enums or namespaces) and no relative imports.
 */
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

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
}

export interface StandInMenuItem {
  label?: string;
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
  /** Set it to an error string to make every Notification emit 'failed' instead of showing (unsigned macOS). */
  const state = { notificationFailure: null as string | null };
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
      this.mainFrame.url = url;
      this.emit('did-navigate', {}, url);
      return true;
    }
    /** An iframe in this page (another WebFrameMain, not the main frame). */
    createChildFrame(url: string) {
      return new StandInFrame(url, this.mainFrame);
    }
  }

  class StandInWindow extends EventEmitter {
    readonly webContents = new StandInWebContents();
    readonly loaded: string[] = [];
    readonly options: Record<string, unknown>;
    destroyed = false;
    visible: boolean;
    constructor(windowOptions: Record<string, unknown> = {}) {
      super();
      this.options = windowOptions;
      this.visible = windowOptions.show !== false;
      windows.push(this);
    }
    /** Electron's loadFile: rejects when the page fails to load (ERR_FILE_NOT_FOUND for a missing file). */
    async loadFile(path: string) {
      this.loaded.push(path);
      const url = pathToFileURL(path).toString();
      if (!existsSync(path)) {
        const error = Object.assign(new Error(`ERR_FILE_NOT_FOUND (-6) loading '${url}'`), {
          code: 'ERR_FILE_NOT_FOUND',
          errno: -6,
          url,
        });
        this.webContents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', url, true);
        throw error;
      }
      this.webContents.mainFrame.url = url;
      this.webContents.emit('did-finish-load');
    }
    isDestroyed() {
      return this.destroyed;
    }
    isVisible() {
      return this.visible && !this.destroyed;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {}
    show() {
      this.visible = true;
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
      this.webContents.destroyed = true;
      this.emit('closed');
      if (StandInWindow.getAllWindows().length === 0 && !app.quitting) app.emit('window-all-closed');
    }
    static getAllWindows() {
      return windows.filter((w) => !w.destroyed);
    }
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
    show() {
      const failure = state.notificationFailure;
      notifications.push({ title: this.options.title, body: this.options.body, shown: failure === null });
      if (failure === null) this.emit('show', {});
      else this.emit('failed', {}, failure);
    }
  }

  class StandInMenu {
    readonly items: StandInMenuItem[];
    constructor(items: StandInMenuItem[]) {
      this.items = items;
    }
    static buildFromTemplate(template: StandInMenuItem[]) {
      return new StandInMenu(template.map((item) => ({ type: 'normal', enabled: true, ...item })));
    }
  }

  class StandInTray extends EventEmitter {
    image: unknown;
    tooltip = '';
    contextMenu: StandInMenu | null = null;
    /** How many times setContextMenu was called (Linux needs it again after every change). */
    menuSets = 0;
    destroyed = false;
    constructor(image: unknown) {
      super();
      this.image = image;
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
  const loginItem = { openAtLogin: false, args: [] as string[] };
  const loginItemApi =
    platform === 'darwin' || platform === 'win32'
      ? {
          setLoginItemSettings(settings: { openAtLogin?: boolean; args?: string[] }) {
            loginItem.openAtLogin = Boolean(settings.openAtLogin);
            loginItem.args = settings.args ?? [];
          },
          getLoginItemSettings() {
            return {
              openAtLogin: loginItem.openAtLogin,
              ...(platform === 'darwin'
                ? { wasOpenedAtLogin: options.openedAtLogin ?? false }
                : { executableWillLaunchAtLogin: loginItem.openAtLogin }),
            };
          },
        }
      : {};

  class StandInApp extends EventEmitter {
    name = options.name ?? 'Wager Keeper';
    quitting = false;
    quitCount = 0;
    exitCode: number | null = null;
    ready = false;
    requestSingleInstanceLock() {
      return options.singleInstance ?? true;
    }
    async whenReady() {
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
      for (const window of StandInWindow.getAllWindows()) {
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
  const app = Object.assign(new StandInApp(), loginItemApi);

  const nativeImage = {
    createFromPath(path: string) {
      const empty = !existsSync(path);
      const image = {
        path,
        isEmpty: () => empty,
        resize: () => image,
        getSize: () => (empty ? { width: 0, height: 0 } : { width: 256, height: 256 }),
      };
      return image;
    },
  };

  const electron = {
    app,
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
    session: {
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
    shell: { openExternal: async (url: string) => void opened.push(url), openPath: async () => '' },
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]) => invoke(channel, ...args),
      on: (channel: string, listener: Listener) => rendererEvents.on(channel, listener),
      removeListener: (channel: string, listener: Listener) =>
        rendererEvents.removeListener(channel, listener),
    },
    dialog: {
      showErrorBox: (title: string, content: string) => void errorBoxes.push({ title, content }),
      showOpenDialog: async (dialogOptions: Record<string, unknown>) => {
        dialogs.push(dialogOptions);
        return { canceled: picked.files.length === 0, filePaths: [...picked.files] };
      },
      showSaveDialog: async (dialogOptions: Record<string, unknown>) => {
        dialogs.push(dialogOptions);
        return picked.savePath === null ? { canceled: true, filePath: '' } : { canceled: false, filePath: picked.savePath };
      },
    },
  };

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
    return handler(
      {
        sender: caller.webContents,
        senderFrame: caller.frame ?? caller.webContents.mainFrame,
        frameId: (caller.frame ?? caller.webContents.mainFrame).routingId,
      },
      ...args,
    );
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
  };
}

export type ElectronStandIn = ReturnType<typeof createElectronStandIn>;
