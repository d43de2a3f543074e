/**
 * The init script that makes a Chromium page what Electron's sandboxed console window is: before any page
 * script runs, it evaluates the BUILT preload (out/preload/index.cjs) with only what a sandboxed preload
 * gets (Electron's sandbox.md): `require` serves `electron` (contextBridge, ipcRenderer, crashReporter,
 * nativeImage, webFrame, webUtils), `events`, `timers` and `url` (and their `node:` names); anything else
 * throws "module not found", as a chunk split or a Node import would in the window. Globals Buffer,
 * process, setImmediate and clearImmediate are minimal shims.
 *
 * IPC goes to the desktop host through two Playwright bindings the fixture installs (their callbacks get
 * the calling frame, whose real URL, hash included, becomes the sender frame's URL in main):
 * `__wkDesktopInvoke(channel, args)` and `__wkDesktopPermission(permission)`; what main sends arrives
 * through `__wkDesktopDispatch(channel, args)`. Copy: Electron answers navigator.clipboard.write/writeText
 * with a permission request for `clipboard-sanitized-write` to the session's handler, where Chromium here
 * would ask Playwright; so those calls ask main's handler first and reject with NotAllowedError ("Write
 * permission denied.", Chromium's words) when it denies.
 *
 * The isolated world, as far as the page can tell (context-bridge.md): the preload's `require`, `process`
 * and module scope never reach the page; contextBridge.exposeInMainWorld gives the page a COPY of the API,
 * frozen, whose functions are proxies: their arguments and results are copied across (objects lose their
 * prototype, a thrown or rejected Error arrives as a new Error with its message only, symbols are
 * dropped), so the page can neither change what the preload holds nor reach it through a returned value.
 * The helper bindings are taken by the sandbox at once and deleted from the page's window.
 *
 * Navigation and popups (issue 34): window.open asks main's setWindowOpenHandler through the host (a denied
 * popup answers null, as Electron's does; main may hand an https link to the system browser), and the
 * fixture asks main's will-navigate for every main-frame navigation to another document (a prevented one
 * is aborted), so the page lives under the same rules as in the window.
 *
 * Differences from Electron that remain: the preload is evaluated in the page's main world, so a page
 * script that ran before it or that patches built-ins (Array.prototype and the like) could reach it; the
 * console page runs no such script (its CSP allows only its own files).
 */
import { readFileSync } from 'node:fs';

export const INVOKE_BINDING = '__wkDesktopInvoke';
export const PERMISSION_BINDING = '__wkDesktopPermission';
export const DISPATCH_FUNCTION = '__wkDesktopDispatch';
export const WINDOW_OPEN_BINDING = '__wkDesktopWindowOpen';

/** What `__wkDesktopInvoke` answers: the handler's value, or Electron's rejection message. */
export type InvokeAnswer = { value: unknown } | { error: string };

/**
 * Runs in the page (serialized with Function.prototype.toString, so it uses nothing from outside itself and
 * no syntax a transpiler would turn into helper calls, such as #private fields): sets up the sandbox.
 */
function sandbox(
  names: { invoke: string; permission: string; dispatch: string; windowOpen: string },
  platform: string,
) {
  type Listener = (...args: unknown[]) => void;
  const page = globalThis as unknown as Record<string, unknown>; // the page's window (this file's types have no DOM)
  // The bindings are the preload's (main's) alone: taken now, then gone from the page's window.
  const bindings = {
    invoke: page[names.invoke] as (channel: string, args: unknown[]) => Promise<InvokeAnswer>,
    permission: page[names.permission] as (permission: string) => Promise<{ check: boolean; request: boolean }>,
    windowOpen: page[names.windowOpen] as ((url: string) => Promise<{ action: string }>) | undefined,
  };
  for (const name of [names.invoke, names.permission, names.windowOpen]) Reflect.deleteProperty(page, name);

  /**
   * What crosses the context bridge (context-bridge.md, "Parameter / Error / Return Type support"):
   * functions proxied (arguments and results copied), promises proxied, errors copied as new Errors with
   * their message, objects and arrays copied without prototype, symbols dropped; `freeze` for the exposed API.
   */
  const copy = (value: unknown, freeze: boolean, seen = new Map<unknown, unknown>()): unknown => {
    if (typeof value === 'function') {
      const original = value as (...args: unknown[]) => unknown;
      return function bridged(...args: unknown[]) {
        let result: unknown;
        try {
          result = original(...args.map((arg) => copy(arg, false)));
        } catch (error) {
          throw copy(error, false);
        }
        return copy(result, false);
      };
    }
    if (typeof value === 'symbol') return undefined;
    if (value === null || typeof value !== 'object') return value;
    if (seen.has(value)) return seen.get(value);
    if (value instanceof Promise)
      return new Promise((resolve, reject) =>
        value.then(
          (resolved) => resolve(copy(resolved, false)),
          (error: unknown) => reject(copy(error, false)),
        ),
      );
    if (value instanceof Error) return new Error(value.message);
    if (value instanceof Date) return new Date(value.getTime());
    const out: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
    seen.set(value, out);
    for (const key of Object.keys(value)) {
      const copied = copy((value as Record<string, unknown>)[key], freeze, seen);
      if (copied !== undefined || typeof (value as Record<string, unknown>)[key] !== 'symbol')
        (out as Record<string, unknown>)[key] = copied;
    }
    return freeze ? Object.freeze(out) : out;
  };

  // window.open, as Electron's setWindowOpenHandler decides it: denied → null, the popup never opens.
  if (bindings.windowOpen) {
    const ask = bindings.windowOpen;
    Object.defineProperty(page, 'open', {
      configurable: true,
      writable: true,
      value: (url?: string | { toString(): string }) => {
        const href = new URL(String(url ?? ''), String((page.location as { href: string }).href)).href;
        void ask(href);
        // The stand-in's handler answers synchronously in Electron; the harness cannot wait, and the
        // console's own handler denies every popup, so the page gets what a denied popup gives.
        return null;
      },
    });
  }

  class EventEmitter {
    listeners = new Map<string | symbol, Listener[]>();
    on(name: string | symbol, listener: Listener) {
      this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
      return this;
    }
    addListener(name: string | symbol, listener: Listener) {
      return this.on(name, listener);
    }
    once(name: string | symbol, listener: Listener) {
      const once = (...args: unknown[]) => {
        this.removeListener(name, once);
        listener(...args);
      };
      return this.on(name, once);
    }
    removeListener(name: string | symbol, listener: Listener) {
      const list = this.listeners.get(name) ?? [];
      const at = list.lastIndexOf(listener);
      if (at >= 0) this.listeners.set(name, [...list.slice(0, at), ...list.slice(at + 1)]);
      return this;
    }
    off(name: string | symbol, listener: Listener) {
      return this.removeListener(name, listener);
    }
    removeAllListeners(name?: string | symbol) {
      if (name === undefined) this.listeners.clear();
      else this.listeners.delete(name);
      return this;
    }
    emit(name: string | symbol, ...args: unknown[]) {
      const list = this.listeners.get(name) ?? [];
      for (const listener of list) listener(...args);
      return list.length > 0;
    }
    listenerCount(name: string | symbol) {
      return (this.listeners.get(name) ?? []).length;
    }
  }

  const immediates = new Map<number, ReturnType<typeof setTimeout>>();
  let nextImmediate = 1;
  const setImmediateShim = (callback: (...args: unknown[]) => void, ...args: unknown[]) => {
    const id = nextImmediate++;
    immediates.set(
      id,
      setTimeout(() => {
        immediates.delete(id);
        callback(...args);
      }, 0),
    );
    return id;
  };
  const clearImmediateShim = (id: number) => {
    clearTimeout(immediates.get(id));
    immediates.delete(id);
  };

  const rendererEvents = new EventEmitter();
  const ipcRenderer = Object.assign(rendererEvents, {
    async invoke(channel: string, ...args: unknown[]) {
      const answer = await bindings.invoke(channel, args);
      if ('error' in answer) throw new Error(answer.error);
      return answer.value;
    },
    send(channel: string) {
      throw new Error(
        `ipcRenderer.send('${channel}') is not carried by the desktop harness (e2e/desktop): the console uses invoke; add it there if the app starts to send`,
      );
    },
    sendSync(channel: string) {
      throw new Error(
        `ipcRenderer.sendSync('${channel}') is not carried by the desktop harness (e2e/desktop)`,
      );
    },
  });
  // main → window: one IpcRendererEvent per message, as Electron passes it.
  Object.defineProperty(page, names.dispatch, {
    value: (channel: string, args: unknown[]) =>
      rendererEvents.emit(channel, { sender: ipcRenderer, senderId: 0, ports: [] }, ...args),
  });

  const electron = {
    contextBridge: {
      exposeInMainWorld(key: string, api: unknown) {
        if (key in page)
          throw new Error(`Cannot bind an API on top of an existing property on the window object (${key})`);
        Object.defineProperty(page, key, { value: copy(api, true), enumerable: true });
      },
    },
    ipcRenderer,
    crashReporter: {
      start: () => undefined,
      addExtraParameter: () => undefined,
      removeExtraParameter: () => undefined,
      getParameters: () => ({}),
    },
    nativeImage: {
      createEmpty: () => ({ isEmpty: () => true }),
      createFromDataURL: (url: string) => ({ isEmpty: () => !url, toDataURL: () => url }),
    },
    webFrame: {
      setZoomFactor: () => undefined,
      getZoomFactor: () => 1,
      setZoomLevel: () => undefined,
      getZoomLevel: () => 0,
    },
    webUtils: { getPathForFile: (file: { name?: string }) => file.name ?? '' },
  };
  const timers = {
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    setImmediate: setImmediateShim,
    clearImmediate: clearImmediateShim,
  };
  const url = { URL, URLSearchParams };
  const modules: Record<string, unknown> = {
    electron,
    events: Object.assign(EventEmitter, { EventEmitter }),
    timers,
    url,
  };
  const require = (name: string) => {
    const bare = name.replace(/^node:/, '');
    if (name === 'electron' || (bare !== 'electron' && bare in modules)) return modules[bare];
    throw new Error(`module not found: ${name}`);
  };

  const bytes = new TextEncoder();
  const Buffer = {
    from: (value: string | ArrayLike<number>) =>
      typeof value === 'string' ? bytes.encode(value) : Uint8Array.from(value),
    alloc: (size: number) => new Uint8Array(size),
    isBuffer: (value: unknown) => value instanceof Uint8Array,
    byteLength: (text: string) => bytes.encode(text).length,
  };
  const process = {
    type: 'renderer',
    sandboxed: true,
    contextIsolated: true,
    platform,
    env: {},
    argv: [] as string[],
    versions: { chrome: navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? '', electron: '45.4.1' },
    nextTick: (callback: (...args: unknown[]) => void, ...args: unknown[]) =>
      queueMicrotask(() => callback(...args)),
    on: () => process,
    once: () => process,
  };

  // Copy as Electron does it: the session's permission handler decides, then the real clipboard writes.
  type PageClipboard = { writeText(text: string): Promise<void>; write(items: unknown[]): Promise<void> };
  const clipboard = (navigator as unknown as { clipboard?: PageClipboard }).clipboard;
  if (clipboard) {
    const ask = (permission: string) => bindings.permission(permission);
    const guard =
      <A extends unknown[]>(write: (...args: A) => Promise<void>) =>
      async (...args: A) => {
        const answer = await ask('clipboard-sanitized-write');
        if (!answer.request)
          throw new DOMException(
            "Failed to execute 'writeText' on 'Clipboard': Write permission denied.",
            'NotAllowedError',
          );
        return write(...args);
      };
    clipboard.writeText = guard(clipboard.writeText.bind(clipboard));
    clipboard.write = guard(clipboard.write.bind(clipboard));
  }
  return { require, process, Buffer, setImmediate: setImmediateShim, clearImmediate: clearImmediateShim };
}

/** The init script: the sandbox, then the built preload evaluated as CommonJS in it (main frame only). */
export function sandboxedPreloadScript(preloadPath: string, platform: string = process.platform): string {
  const preload = readFileSync(preloadPath, 'utf8');
  const names = {
    invoke: INVOKE_BINDING,
    permission: PERMISSION_BINDING,
    dispatch: DISPATCH_FUNCTION,
    windowOpen: WINDOW_OPEN_BINDING,
  };
  return `(() => {
  if (window !== window.top) return; // Electron runs the preload in the main frame only (no nodeIntegrationInSubFrames)
  const sandbox = (${sandbox.toString()})(${JSON.stringify(names)}, ${JSON.stringify(platform)});
  const module = { exports: {} };
  (function (require, module, exports, process, Buffer, setImmediate, clearImmediate, global) {
${preload}
  })(sandbox.require, module, module.exports, sandbox.process, sandbox.Buffer, sandbox.setImmediate, sandbox.clearImmediate, window);
})();`;
}
