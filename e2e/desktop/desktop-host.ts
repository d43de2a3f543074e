/**
 * Starts the BUILT desktop main (out/main/main.js, from `npx electron-vite build`) under Node with the
 * electron stand-in — `node --import e2e/desktop/register-electron.mjs out/main/main.js` — in a temp
 * appData of its own, and drives it through its control server (control-server.ts). The core it runs is
 * the real one: embedded localnet, keeper, SQLite in userData. Used by the vitest test of the built main
 * and by the Playwright desktop project.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, writeFileSync, mkdirSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { deserialize, serialize } from 'node:v8';
import type { PermissionAnswer, TrayView, WindowView } from './stand-in-adapter.ts';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');
// WAGER_KEEPER_DESKTOP_MAIN=FILE runs another build (e.g. an older commit's, to see a test fail before its fix).
export const BUILT_MAIN =
  process.env.WAGER_KEEPER_DESKTOP_MAIN ?? join(PROJECT_ROOT, 'out', 'main', 'main.js');
const REGISTER_ELECTRON = join(import.meta.dirname, 'register-electron.mjs');

export interface SentEvent {
  index: number;
  window: number;
  channel: string;
  args: unknown[];
}

export interface DesktopHostOptions {
  /** More `--import` register files (e.g. one that makes litesvm unloadable). */
  imports?: string[];
  /** Console settings to start with (userData/console.json), e.g. { apiPort: 0 }. */
  settings?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /** The main to run (default BUILT_MAIN), e.g. `<resources>/app.asar/out/main/main.js` of a packed app. */
  main?: string;
  /** Its working folder (default the project root). */
  cwd?: string;
}

export interface DesktopHost {
  process: ChildProcess;
  control: string;
  appData: string;
  userData: string;
  /** The last 8 000 characters of its stderr (the core's log), for failure messages. */
  log(): string;
  /** Resolves once a window has loaded (or failed to load) its page; answers the windows. */
  windowsLoaded(): Promise<WindowView[]>;
  windows(): Promise<WindowView[]>;
  /** ipcRenderer.invoke from the main frame of `window` (0: the first) showing `frameUrl`; rejects as Electron does. */
  invoke(
    channel: string,
    frameUrl: string,
    args?: unknown[],
    options?: { window?: number; isMainFrame?: boolean },
  ): Promise<unknown>;
  /** What the session's permission check and request handlers answer. */
  permission(
    permission: string,
    requestingUrl: string,
    isMainFrame?: boolean,
    window?: number,
  ): Promise<PermissionAnswer>;
  /** Each webContents.send from now on (or from the `from`th), as it happens; returns a function that stops listening. */
  onSent(listener: (event: SentEvent) => void, from?: number): () => void;
  notifications(): Promise<{ title: string; body: string }[]>;
  tray(): Promise<TrayView | null>;
  clickTray(label: string): Promise<void>;
  emitApp(event: string): Promise<void>;
  closeWindow(window?: number): Promise<void>;
  emitPower(event: string): Promise<void>;
  errorBoxes(): Promise<{ title: string; content: string }[]>;
  /** main's setWindowOpenHandler for a window.open of `url`. */
  windowOpen(url: string, window?: number): Promise<{ action: string }>;
  /** main's will-navigate for a main-frame navigation to `url` (a hash change is in-page). */
  navigate(url: string, window?: number): Promise<{ allowed: boolean }>;
  /** URLs main handed to the system browser. */
  opened(): Promise<string[]>;
  /** app.quit() as the tray's Quit does; resolves with the exit code once the process has ended. */
  quit(): Promise<number | null>;
  /** Quits; kills the process if it has not ended within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts the built desktop main; resolves once its control server answers (the window comes after). */
export async function startDesktopHost(options: DesktopHostOptions = {}): Promise<DesktopHost> {
  const main = options.main ?? BUILT_MAIN;
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npx electron-vite build\` first`);
  const appData = mkdtempSync(join(tmpdir(), 'wk-desktop-appdata-'));
  const userData = join(appData, 'Wager Keeper');
  mkdirSync(userData, { recursive: true });
  // The /v1 API on any free port: the default 7300 may be taken by another run on this machine.
  writeFileSync(join(userData, 'console.json'), JSON.stringify({ apiPort: 0, ...options.settings }));
  const imports = [REGISTER_ELECTRON, ...(options.imports ?? [])].flatMap((file) => ['--import', file]);
  const child = spawn(process.execPath, [...imports, main], {
    cwd: options.cwd ?? PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // Settings and autostart files of this run only, never the developer's.
      XDG_CONFIG_HOME: join(appData, 'config'),
      WAGER_KEEPER_DESKTOP_APP_DATA: appData,
      WAGER_KEEPER_DESKTOP_CONTROL: '1',
      ...options.env,
    },
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8_000);
    // E2E_DESKTOP_LOG=FILE keeps the whole log there, for a failing test's post-mortem.
    if (process.env.E2E_DESKTOP_LOG) appendFileSync(process.env.E2E_DESKTOP_LOG, chunk);
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const lines = createInterface({ input: child.stdout! });
  const first = (await Promise.race([
    once(lines, 'line').then(([line]) => line as string),
    exited.then(() => null),
  ])) as string | null;
  lines.on('line', () => {}); // keep draining stdout
  if (!first) throw new Error(`the desktop host exited before its control server answered: ${log}`);
  const { control } = JSON.parse(first) as { control: string };

  const request = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${control}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const answer = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(`desktop host ${path}: ${answer.error}`);
    return answer;
  };

  const quit = async () => {
    if (child.exitCode === null && child.signalCode === null)
      await request('POST', '/quit').catch(() => undefined);
    return exited;
  };
  return {
    process: child,
    control,
    appData,
    userData,
    log: () => log,
    windowsLoaded: () => request<WindowView[]>('GET', '/windows?wait=loaded'),
    windows: () => request<WindowView[]>('GET', '/windows'),
    async invoke(channel, frameUrl, args = [], { window = 0, isMainFrame = true } = {}) {
      const answer = await request<{ value?: string; error?: string }>('POST', '/invoke', {
        window,
        frameUrl,
        isMainFrame,
        channel,
        args: serialize(args).toString('base64'),
      });
      if (answer.error !== undefined) throw new Error(answer.error);
      return deserialize(Buffer.from(answer.value!, 'base64'));
    },
    permission: (permission, requestingUrl, isMainFrame = true, window = 0) =>
      request<PermissionAnswer>('POST', '/permission', { window, permission, requestingUrl, isMainFrame }),
    onSent(listener, from) {
      const abort = new AbortController();
      void (async () => {
        const response = await fetch(`${control}/sent${from === undefined ? '' : `?from=${from}`}`, {
          signal: abort.signal,
        });
        let buffer = '';
        for await (const chunk of response.body!) {
          buffer += Buffer.from(chunk).toString();
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const data = buffer.slice(0, end).replace(/^data: /, '');
            buffer = buffer.slice(end + 2);
            const event = JSON.parse(data) as Omit<SentEvent, 'args'> & { args: string };
            listener({ ...event, args: deserialize(Buffer.from(event.args, 'base64')) as unknown[] });
          }
        }
      })().catch(() => undefined); // the stream ends when the host quits or the listener stops
      return () => abort.abort();
    },
    notifications: () => request('GET', '/notifications'),
    tray: () => request('GET', '/tray'),
    clickTray: (label) => request('POST', '/tray/click', { label }),
    emitApp: (event) => request('POST', '/app-event', { event }),
    closeWindow: (window = 0) => request('POST', '/window/close', { window }),
    emitPower: (event) => request('POST', '/power-event', { event }),
    errorBoxes: () => request('GET', '/error-boxes'),
    windowOpen: (url, window = 0) => request('POST', '/window-open', { window, url }),
    navigate: (url, window = 0) => request('POST', '/navigate', { window, url }),
    opened: () => request('GET', '/opened'),
    quit,
    async stop(graceMs = 30_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await quit();
      clearTimeout(timer);
    },
  };
}
