/**
 * A faithful stand-in for the `electron` module (named as such: Electron's binary cannot be downloaded on
 * this machine, so the real module cannot run here). It implements, with Electron's semantics, exactly
 * what the desktop host and the preload use:
 * - app: requestSingleInstanceLock, whenReady, getPath, on/emit, quit (emits before-quit, which a handler
 *   may preventDefault, as Electron does), exit;
 * - BrowserWindow: records its constructor options and loadFile calls; webContents with
 *   setWindowOpenHandler, on('will-navigate') and send (recorded); isDestroyed/isMinimized/focus/on;
 * - ipcMain.handle (one handler per channel, a second registration throws, as in Electron) and `invoke`
 *   to call a handler the way Electron does, with an event whose senderFrame.url is the caller's page;
 * - session.defaultSession.webRequest.onHeadersReceived and setPermissionRequestHandler (recorded);
 * - Notification (isSupported true; show() records title and body);
 * - shell.openExternal (recorded); contextBridge.exposeInMainWorld (recorded, values as the page sees them);
 * - dialog.showOpenDialog (recorded; answers `pickedFiles`, or canceled when it is empty);
 * - ipcRenderer.invoke (routed to ipcMain's handlers) and on/removeListener for events sent by main.
 */
import { EventEmitter } from 'node:events';

type Handler = (event: unknown, ...args: unknown[]) => unknown;

export function createElectronStandIn(options: { pageUrl: () => string }) {
  const handlers = new Map<string, Handler>();
  const rendererEvents = new EventEmitter();
  const appEvents = new EventEmitter();
  const windows: StandInWindow[] = [];
  const exposed = new Map<string, unknown>();
  const opened: string[] = [];
  const notifications: { title: string; body: string }[] = [];
  const dialogs: Record<string, unknown>[] = [];
  const picked = { files: [] as string[] };
  class StandInNotification {
    constructor(readonly options: { title: string; body: string }) {}
    static isSupported() {
      return true;
    }
    show() {
      notifications.push({ title: this.options.title, body: this.options.body });
    }
  }
  const headerListeners: ((details: { responseHeaders?: Record<string, string[]> }, callback: (response: { responseHeaders: Record<string, string[]> }) => void) => void)[] = [];
  const permissionHandlers: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void)[] = [];

  class StandInWebContents extends EventEmitter {
    windowOpenHandler?: (details: { url: string }) => { action: 'allow' | 'deny' };
    sent: { channel: string; payload: unknown }[] = [];
    setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }) {
      this.windowOpenHandler = handler;
    }
    send(channel: string, payload: unknown) {
      this.sent.push({ channel, payload });
      rendererEvents.emit(channel, { sender: this }, payload);
    }
  }

  class StandInWindow extends EventEmitter {
    readonly webContents = new StandInWebContents();
    readonly loaded: string[] = [];
    destroyed = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      windows.push(this);
    }
    async loadFile(path: string) {
      this.loaded.push(path);
    }
    isDestroyed() {
      return this.destroyed;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {}
    static getAllWindows() {
      return windows.filter((w) => !w.destroyed);
    }
  }

  let quitting = 0;
  const app = {
    requestSingleInstanceLock: () => true,
    whenReady: async () => undefined,
    getPath: (name: string) => `/stand-in/${name}`,
    on(event: string, listener: (...args: unknown[]) => void) {
      appEvents.on(event, listener);
      return app;
    },
    quit() {
      // Electron emits before-quit first; a handler calling preventDefault() cancels this quit.
      let prevented = false;
      appEvents.emit('before-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) quitting += 1;
    },
    exit() {
      quitting += 1;
    },
    get quitCount() {
      return quitting;
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
    },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: (listener: (typeof headerListeners)[number]) => headerListeners.push(listener) },
        setPermissionRequestHandler: (handler: (typeof permissionHandlers)[number]) => permissionHandlers.push(handler),
      },
    },
    Notification: StandInNotification,
    shell: { openExternal: async (url: string) => void opened.push(url) },
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]) => invoke(channel, options.pageUrl(), ...args),
      on: (channel: string, listener: (...args: unknown[]) => void) => rendererEvents.on(channel, listener),
      removeListener: (channel: string, listener: (...args: unknown[]) => void) => rendererEvents.removeListener(channel, listener),
    },
    dialog: {
      showErrorBox: () => undefined,
      showOpenDialog: async (options: Record<string, unknown>) => {
        dialogs.push(options);
        return { canceled: picked.files.length === 0, filePaths: [...picked.files] };
      },
    },
  };

  /** Calls the handler of `channel` as Electron does for a page at `senderUrl`. */
  async function invoke(channel: string, senderUrl: string, ...args: unknown[]) {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
    return handler({ sender: windows[0]?.webContents, senderFrame: { url: senderUrl } }, ...args);
  }

  return { electron, handlers, windows, exposed, opened, notifications, dialogs, picked, headerListeners, permissionHandlers, appEvents, rendererEvents, invoke };
}
