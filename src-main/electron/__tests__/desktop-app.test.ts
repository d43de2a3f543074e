/**
 * The desktop host with a faithful stand-in for Electron (electron-stand-in.ts; the real binary cannot be
 * downloaded here): the window opens at once while the core starts behind it, is isolated and sandboxed,
 * loads only its own page and says so when the page is missing; every operator method has its IPC channel,
 * answered from the console page whatever its hash and refused to any other frame or window; the Copy
 * buttons' clipboard permission is granted to the page and nothing else; closing hides the window while the
 * keeper keeps cranking, with a tray, start at login, a power-save blocker and a catch-up after sleep.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { headlessSettingsDirectory } from '../../runtime/console-settings';
import { IPC_DESKTOP_GET_PREFERENCES, IPC_DESKTOP_SET_PREFERENCES, IPC_EVENT_CHANNEL, IPC_EXPORT_KEY, IPC_KEEPERS_ACCEPT_HOST_KEY, IPC_KEEPERS_ADD, IPC_KEEPERS_FLEET, IPC_KEEPERS_LIST, IPC_KEEPERS_REMOVE, IPC_KEEPERS_SHOW, IPC_PICK_DEPLOYMENT_FILE, IPC_SAVE_DIAGNOSTICS, IPC_UPDATE_CANCEL_RESTART, IPC_UPDATE_CHECK_NOW, IPC_UPDATE_GET_STATUS, IPC_UPDATE_OPEN_RELEASE, IPC_UPDATE_RESTART, IPC_UPDATE_SET_PREFERENCES, IPC_UPDATE_STATUS_EVENT, ipcChannel, type OperatorBridge } from '../../../src-shared/contract/bridge';
import { OPERATOR_METHODS, type OperatorApi } from '../../../src-shared/contract/operator-api';
import type { HealthView, StatusView } from '../../../src-shared/contract/status';
import type { OperatorEvent } from '../../../src-shared/contract/events';
import { useOwnUserDataFolder } from '../app-folders';
import {
  APP_USER_MODEL_ID,
  DESKTOP_CSP,
  FIRST_CLOSE_NOTICE,
  NO_TRAY_CLOSE_NOTICE,
  runDesktopApp,
  type DesktopService,
} from '../desktop-app';
import { memoryPreferences, type StoredDesktopPreferences } from '../desktop-preferences';
import { AUTOSTART_FILE_NAME } from '../login-item';
import { trayHostAvailable } from '../tray-host';
import { builtAppFolder } from './built-app-folder';
import { createElectronStandIn, type ElectronStandInOptions, type StandInMenuItem } from './electron-stand-in';

const root = mkdtempSync(join(tmpdir(), 'wk-desktop-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A built app in a temp folder: out/renderer/index.html (unless `page: false`), out/preload, resources/icons. */
let apps = 0;
const builtApp = (page = true, folderName = `app-${apps++}`) => builtAppFolder(join(root, folderName), page);

const health = (overrides: Partial<HealthView> = {}): HealthView => ({
  lamports: '1500000000',
  lastTick: 1,
  queue: 0,
  rpcError: null,
  slot: 1,
  rpcLatencyMs: 1,
  checkedAt: 1,
  runway: { lamportsPerCrank: 5000, cranks: 300_000, low: false },
  oracleWait: { waiting: 0, oldestWaitSlots: null },
  overdue: [],
  ...overrides,
});
const status = (overrides: Partial<StatusView> = {}) =>
  ({ phase: 'running', paused: false, error: null, ...overrides }) as StatusView;

/** An operator interface that records each call, and a core whose start the test finishes when it wants. */
function recordingService() {
  const calls: { method: string; args: unknown }[] = [];
  const listeners = new Set<(event: OperatorEvent) => void>();
  let finishStart!: () => void;
  const startGate = new Promise<void>((resolve) => (finishStart = resolve));
  const api = Object.fromEntries(
    OPERATOR_METHODS.map((method) => [
      method,
      async (args: unknown) => {
        calls.push({ method, args });
        if ((args as { fail?: boolean })?.fail) throw new Error(`${method} refused: what to do next`);
        if (method === 'overview')
          return { answeredBy: method, earnings: { today: { netLamports: 123_456 } } };
        return { answeredBy: method };
      },
    ]),
  ) as unknown as OperatorApi;
  const service: DesktopService & { started: number; stopped: number; woken: number } = {
    api,
    started: 0,
    stopped: 0,
    woken: 0,
    onEvent: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    start: async () => {
      service.started += 1;
      await startGate;
    },
    stop: async () => void (service.stopped += 1),
    wake: async () => void (service.woken += 1),
    writeDiagnostics: async (path: string) => {
      calls.push({ method: 'writeDiagnostics', args: path });
      return { path, bytes: 2048 };
    },
  };
  return { service, calls, finishStart, emit: (event: OperatorEvent) => listeners.forEach((l) => l(event)) };
}

interface StartOptions extends ElectronStandInOptions {
  page?: boolean;
  /** The app's folder name under the temp root (default app-N). */
  folderName?: string;
  /** Linux: whether a StatusNotifierItem host answers (default true). */
  trayHost?: boolean;
  /** The stand-in's knobs set before the app starts. */
  before?: (standIn: ReturnType<typeof createElectronStandIn>) => void;
  argv?: string[];
  preferences?: Partial<StoredDesktopPreferences>;
}

async function startApp(options: StartOptions = {}) {
  const { out, pageUrl } = builtApp(options.page ?? true, options.folderName);
  const appData = mkdtempSync(join(root, 'appData-'));
  const standIn = createElectronStandIn({ appData, ...options });
  standIn.state.trayHost = options.trayHost ?? true;
  options.before?.(standIn);
  const recorded = recordingService();
  const preferences = memoryPreferences(options.preferences);
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const app = await runDesktopApp(standIn.electron as never, {
    createService: () => recorded.service,
    createPreferences: () => preferences,
    outDirectory: out,
    platform: options.platform ?? 'linux',
    argv: options.argv ?? [],
    launch: { command: '/opt/Wager Keeper/wager-keeper', args: [] },
    trayHost: standIn.trayHost,
    log,
  });
  const tray = () => standIn.trays[0]!;
  const menuLabels = () =>
    tray()
      .contextMenu!.items.filter((i) => i.type !== 'separator')
      .map((i) => i.label);
  return {
    standIn,
    app,
    pageUrl,
    appData,
    preferences,
    log,
    tray,
    menuLabels,
    window: () => standIn.windows.at(-1)!,
    ...recorded,
  };
}

describe('the desktop window', () => {
  it('opens at once on the built page while the core is still starting; what the core says meanwhile reaches it', async () => {
    const { standIn, service, emit, finishStart, app } = await startApp();
    const [window] = standIn.windows;
    // runDesktopApp answered with the window open and the core's start still running behind it.
    expect(service.started).toBe(1);
    expect(window!.options).toMatchObject({
      title: 'Wager Keeper',
      backgroundColor: '#0d1117',
      webPreferences: {
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        preload: expect.stringMatching(/out\/preload\/index\.cjs$/),
      },
    });
    expect(window!.loaded).toEqual([expect.stringMatching(/out\/renderer\/index\.html$/)]);
    expect(window!.isVisible()).toBe(true);
    // The page asks before the core has started: answered (the core's own status says "starting").
    expect(await standIn.invoke(ipcChannel('status'))).toEqual({ ok: true, value: { answeredBy: 'status' } });
    emit({ type: 'status', status: status({ phase: 'starting' }) });
    // (The update status goes to the window too, on its own channel: app-updates.ts.)
    expect(window!.webContents.sent.map((s) => s.channel).filter((channel) => channel !== IPC_UPDATE_STATUS_EVENT)).toEqual([IPC_EVENT_CHANNEL]);
    finishStart();
    await app!.coreStarted;
  });

  it('says the console UI is not built when the page is missing, once, and quits (stopping the core)', async () => {
    const { standIn, service } = await startApp({ page: false });
    expect(standIn.errorBoxes).toEqual([
      {
        title: 'The console UI is not built',
        content: expect.stringMatching(/ERR_FILE_NOT_FOUND[\s\S]*npm run build[\s\S]*reinstall/),
      },
    ]);
    await vi.waitFor(() => expect(standIn.electron.app.quitCount).toBe(1));
    expect(service.stopped).toBe(1);
  });

  it('denies popups (https links go to the system browser) and navigation away; sets a strict CSP', async () => {
    const { standIn, pageUrl } = await startApp();
    const contents = standIn.windows[0]!.webContents;
    expect(contents.windowOpenHandler!({ url: 'https://explorer.solana.com/tx/abc' })).toEqual({
      action: 'deny',
    });
    expect(contents.windowOpenHandler!({ url: 'http://evil.example' })).toEqual({ action: 'deny' });
    expect(standIn.opened).toEqual(['https://explorer.solana.com/tx/abc']);
    expect(contents.navigate('https://evil.example/')).toBe(false);
    expect(contents.navigate('file:///etc/passwd')).toBe(false);
    expect(contents.navigate(`${pageUrl}#/queue`)).toBe(true);
    const headers = await new Promise<Record<string, string[]>>((resolve) =>
      standIn.headerListeners[0]!({ responseHeaders: {} }, (r) => resolve(r.responseHeaders)),
    );
    expect(headers['Content-Security-Policy']).toEqual([DESKTOP_CSP]);
    expect(DESKTOP_CSP).not.toMatch(/unsafe-eval|https?:/);
  });

  it('lets the Copy buttons write the clipboard from the console page (any route), and grants nothing else to anyone', async () => {
    const { standIn, pageUrl } = await startApp();
    const contents = standIn.windows[0]!.webContents;
    const both = async (name: string, caller?: Parameters<typeof standIn.checkPermission>[1]) => [
      standIn.checkPermission(name, caller),
      await standIn.requestPermission(name, caller),
    ];
    // navigator.clipboard.writeText requests clipboard-sanitized-write; other APIs check first: both answer yes.
    expect(await both('clipboard-sanitized-write')).toEqual([true, true]);
    contents.navigateInPage(`${pageUrl}#/queue`);
    expect(await both('clipboard-sanitized-write')).toEqual([true, true]);
    for (const other of ['notifications', 'clipboard-read', 'media', 'geolocation', 'openExternal'])
      expect(await both(other)).toEqual([false, false]);
    // Another frame in the page (an https iframe: its check comes with a null webContents) gets nothing.
    expect(
      await both('clipboard-sanitized-write', {
        webContents: contents,
        frame: contents.createChildFrame('https://evil.example/'),
      }),
    ).toEqual([false, false]);
    expect(
      await both('clipboard-sanitized-write', {
        webContents: contents,
        frame: contents.createChildFrame(pageUrl),
      }),
    ).toEqual([false, false]);
    // Nor does the console window once navigated off the page.
    contents.mainFrame.url = 'https://evil.example/';
    expect(await standIn.askPermission('clipboard-sanitized-write')).toBe(false);
  });
});

describe('the IPC channels', () => {
  it('has one channel per operator method (plus the file picker, Save diagnostics and the desktop preferences), each reaching the operator interface', async () => {
    const { standIn, calls } = await startApp();
    expect([...standIn.handlers.keys()].sort()).toEqual(
      [
        ...OPERATOR_METHODS.map(ipcChannel),
        IPC_PICK_DEPLOYMENT_FILE,
        IPC_SAVE_DIAGNOSTICS,
        IPC_EXPORT_KEY,
        IPC_DESKTOP_GET_PREFERENCES,
        IPC_DESKTOP_SET_PREFERENCES,
        IPC_UPDATE_GET_STATUS,
        IPC_UPDATE_CHECK_NOW,
        IPC_UPDATE_RESTART,
        IPC_UPDATE_CANCEL_RESTART,
        IPC_UPDATE_SET_PREFERENCES,
        IPC_UPDATE_OPEN_RELEASE,
        IPC_KEEPERS_LIST,
        IPC_KEEPERS_ADD,
        IPC_KEEPERS_ACCEPT_HOST_KEY,
        IPC_KEEPERS_REMOVE,
        IPC_KEEPERS_SHOW,
        IPC_KEEPERS_FLEET,
      ].sort(),
    );
    const callable = OPERATOR_METHODS.filter((method) => method !== 'exportKey');
    for (const method of callable)
      expect(await standIn.invoke(ipcChannel(method), { probe: method })).toMatchObject({
        ok: true,
        value: { answeredBy: method },
      });
    expect(calls.filter((c) => (c.args as { probe?: string }).probe).map((c) => c.method)).toEqual(callable);
  });

  it('answers the console page after in-page navigation (#/queue), and refuses other frames, other windows and a page navigated elsewhere', async () => {
    const { standIn, pageUrl, calls } = await startApp();
    const console = standIn.windows[0]!.webContents;
    console.navigateInPage(`${pageUrl}#/queue`);
    expect(await standIn.invoke(ipcChannel('status'))).toEqual({ ok: true, value: { answeredBy: 'status' } });
    expect(await standIn.invoke(ipcChannel('saveSettings'), { fail: true })).toEqual({
      ok: false,
      error: 'saveSettings refused: what to do next',
    });
    const before = calls.length;
    const refused = {
      ok: false,
      error: expect.stringMatching(/refused: the operator interface answers the console window only/),
    };
    expect(
      await standIn.invokeFrom(
        { webContents: console, frame: console.createChildFrame(pageUrl) },
        ipcChannel('status'),
      ),
    ).toEqual(refused);
    const other = new standIn.electron.BrowserWindow({});
    await other.loadFile(new URL(pageUrl).pathname);
    expect(await standIn.invokeFrom({ webContents: other.webContents }, ipcChannel('status'))).toEqual(
      refused,
    );
    expect(await standIn.invokeFrom({ webContents: other.webContents }, IPC_PICK_DEPLOYMENT_FILE)).toEqual(
      refused,
    );
    console.mainFrame.url = 'https://evil.example/#/queue';
    expect(await standIn.invokeFrom({ webContents: console }, ipcChannel('status'))).toEqual(refused);
    expect(await standIn.invokeFrom({ webContents: console }, IPC_DESKTOP_GET_PREFERENCES)).toEqual(refused);
    expect(calls.length).toBe(before);
  });

  it('registers its handlers once: a window closed and opened again by activate is answered, the old one is not', async () => {
    const { standIn, service } = await startApp();
    const first = standIn.windows[0]!;
    first.destroy();
    // The keeper keeps running with no window (the tray is its handle).
    expect(standIn.electron.app.quitCount).toBe(0);
    expect(service.stopped).toBe(0);
    standIn.electron.app.emit('activate');
    await vi.waitFor(() => expect(standIn.windows).toHaveLength(2));
    const second = standIn.windows[1]!;
    await vi.waitFor(() => expect(second.loaded).toHaveLength(1));
    expect(await standIn.invoke(ipcChannel('status'))).toEqual({ ok: true, value: { answeredBy: 'status' } });
    expect(await standIn.invokeFrom({ webContents: first.webContents }, ipcChannel('status'))).toMatchObject({
      ok: false,
    });
  });
});

describe('running in the background', () => {
  it('closing the window hides it and the keeper keeps cranking; the first close says so once; Open console brings it back', async () => {
    const { standIn, service, preferences, tray, window } = await startApp();
    expect(window().close()).toBe(false);
    expect(window().isVisible()).toBe(false);
    expect(window().isDestroyed()).toBe(false);
    expect(service.stopped).toBe(0);
    expect(standIn.electron.app.quitCount).toBe(0);
    window().close();
    expect(standIn.notifications).toEqual([{ ...FIRST_CLOSE_NOTICE, shown: true }]);
    expect(preferences.store.firstCloseNoticeShown).toBe(true);
    standIn.clickMenuItem(tray().contextMenu, 'Open console');
    expect(window().isVisible()).toBe(true);
    expect(standIn.windows).toHaveLength(1);
  });

  it('with "Quit when the window closes", closing quits and stops the core, as before', async () => {
    const { standIn, service, window } = await startApp({ preferences: { quitOnWindowClose: true } });
    let release!: () => void;
    service.stop = () => new Promise<void>((resolve) => (release = () => ((service.stopped += 1), resolve())));
    window().close();
    expect(window().isDestroyed()).toBe(true);
    // Nothing ends the app before the keeper has stopped, however many quits are asked meanwhile.
    standIn.electron.app.quit();
    expect(standIn.electron.app.quitCount).toBe(0);
    release();
    await vi.waitFor(() => expect(standIn.electron.app.quitCount).toBe(1));
    expect(service.stopped).toBe(1);
    expect(standIn.notifications).toEqual([]);
  });

  it('Quit (tray) is the way to stop: the core stops first, then the app, the tray goes', async () => {
    const { standIn, service, tray } = await startApp();
    standIn.clickMenuItem(tray().contextMenu, 'Quit Wager Keeper');
    await vi.waitFor(() => expect(standIn.electron.app.quitCount).toBe(1));
    expect(service.stopped).toBe(1);
    expect(tray().destroyed).toBe(true);
  });

  it('the tray says the state in words, the balance and today’s earnings, and pauses and resumes', async () => {
    const { standIn, emit, calls, tray, menuLabels, finishStart } = await startApp();
    expect(menuLabels()[0]).toBe('Starting: the keeper is starting');
    expect(tray().tooltip).toBe('Wager Keeper: starting (the keeper is starting)');
    finishStart();
    emit({ type: 'status', status: status() });
    emit({ type: 'health', health: health({ queue: 3 }) });
    await vi.waitFor(() => expect(menuLabels()).toContain('Earnings today: 0.000123 SOL'));
    expect(menuLabels()).toEqual([
      'Cranking: 3 wagers in progress',
      'Balance: 1.5 SOL',
      'Earnings today: 0.000123 SOL',
      'Open console',
      'Pause cranking',
      'Start at login',
      'Save diagnostics…',
      'Quit Wager Keeper',
    ]);
    // The same health again changes nothing: the menu is not rebuilt every second.
    const sets = tray().menuSets;
    emit({ type: 'health', health: health({ queue: 3 }) });
    expect(tray().menuSets).toBe(sets);
    standIn.clickMenuItem(tray().contextMenu, 'Pause cranking');
    expect(calls.at(-1)).toEqual({ method: 'setPaused', args: { paused: true } });
    emit({ type: 'status', status: status({ paused: true }) });
    expect(menuLabels()[0]).toBe('Paused: no new cranks are sent');
    standIn.clickMenuItem(tray().contextMenu, 'Resume cranking');
    expect(calls.at(-1)).toEqual({ method: 'setPaused', args: { paused: false } });
    emit({ type: 'status', status: status() });
    emit({ type: 'health', health: health({ rpcError: 'http://127.0.0.1:8899: fetch failed' }) });
    expect(menuLabels()[0]).toBe(
      'Needs attention: the RPC does not answer: http://127.0.0.1:8899: fetch failed',
    );
    emit({ type: 'health', health: health({ oracleWait: { waiting: 1, oldestWaitSlots: 70 } }) });
    expect(menuLabels()[0]).toBe('Needs attention: the oracle has not answered for 70 slots');
  });

  it('holds a power-save blocker while wagers are in progress, releases it when idle or paused, and catches up on resume', async () => {
    const { standIn, emit, service } = await startApp();
    emit({ type: 'status', status: status() });
    emit({ type: 'health', health: health({ queue: 2 }) });
    expect([...standIn.blockers.values()]).toEqual(['prevent-app-suspension']);
    emit({ type: 'health', health: health({ queue: 5 }) });
    expect(standIn.blockers.size).toBe(1);
    emit({ type: 'health', health: health({ queue: 0 }) });
    expect(standIn.blockers.size).toBe(0);
    emit({ type: 'health', health: health({ queue: 1 }) });
    emit({ type: 'status', status: status({ paused: true }) });
    expect(standIn.blockers.size).toBe(0);
    standIn.electron.powerMonitor.emit('resume');
    expect(service.woken).toBe(1);
  });
});

describe('start at login', () => {
  it('Linux: an XDG autostart entry with --hidden, from the tray or Settings, each following the other', async () => {
    const { standIn, appData, tray, menuLabels } = await startApp({ platform: 'linux' });
    const file = join(appData, 'autostart', AUTOSTART_FILE_NAME);
    const checkbox = () => tray().contextMenu!.items.find((i) => i.label === 'Start at login')!;
    expect(menuLabels()).toContain('Start at login');
    standIn.clickMenuItem(tray().contextMenu, 'Start at login');
    expect(readFileSync(file, 'utf8')).toContain('Exec="/opt/Wager Keeper/wager-keeper" --hidden\n');
    expect(checkbox().checked).toBe(true);
    expect(await standIn.invoke(IPC_DESKTOP_GET_PREFERENCES)).toMatchObject({
      ok: true,
      value: { openAtLogin: true, quitOnWindowClose: false, openAtLoginNote: expect.stringContaining(file) },
    });
    expect(await standIn.invoke(IPC_DESKTOP_SET_PREFERENCES, { openAtLogin: false })).toMatchObject({
      ok: true,
      value: { openAtLogin: false },
    });
    expect(existsSync(file)).toBe(false);
    expect(checkbox().checked).toBe(false);
    expect(await standIn.invoke(IPC_DESKTOP_SET_PREFERENCES, { launchMissiles: true })).toEqual({
      ok: false,
      error: expect.stringMatching(
        /unknown desktop preference 'launchMissiles'.*quitOnWindowClose and openAtLogin/,
      ),
    });
    expect(await standIn.invoke(IPC_DESKTOP_SET_PREFERENCES, { quitOnWindowClose: 'yes' })).toEqual({
      ok: false,
      error: 'quitOnWindowClose must be true or false',
    });
  });

  it('macOS and Windows: the system login item with --hidden; started at login, the app stays in the tray', async () => {
    const windowsApp = await startApp({ platform: 'win32' });
    windowsApp.standIn.clickMenuItem(windowsApp.tray().contextMenu, 'Start at login');
    expect(windowsApp.standIn.loginItem).toMatchObject({ openAtLogin: true, path: '/opt/Wager Keeper/wager-keeper', args: ['--hidden'] });
    expect(windowsApp.tray().contextMenu!.items.find((i) => i.label === 'Start at login')!.checked).toBe(true);
    const mac = await startApp({ platform: 'darwin', isPackaged: true });
    mac.standIn.clickMenuItem(mac.tray().contextMenu, 'Start at login');
    expect(mac.standIn.loginItem).toMatchObject({ openAtLogin: true, status: 'enabled' });
    const macAtLogin = await startApp({ platform: 'darwin', openedAtLogin: true });
    expect(macAtLogin.standIn.windows).toHaveLength(0);
    expect(macAtLogin.standIn.trays).toHaveLength(1);
    const windows = await startApp({
      platform: 'win32',
      argv: ['C:\\Wager Keeper\\Wager Keeper.exe', '--hidden'],
    });
    expect(windows.standIn.windows).toHaveLength(0);
    windows.standIn.clickMenuItem(windows.tray().contextMenu, 'Open console');
    await vi.waitFor(() => expect(windows.standIn.windows).toHaveLength(1));
  });
});

describe('notifications', () => {
  const alert = (state: 'firing' | 'resolved', severity: 'warning' | 'critical', extra: { reminder?: boolean } = {}) => ({
    type: 'alert' as const,
    message: { alert: 'oracle-stalled' as const, state, severity, summary: `A randomness request has waited 61 slots (${state}).`, keeper: null, cluster: 'localnet', at: '2026-01-01T00:00:00.000Z', ...extra },
  });

  it('shows every alert the engine delivers (firing, reminder, resolved) with its summary, and nothing for other events or muted alerts', async () => {
    const { standIn, emit } = await startApp();
    emit({ type: 'health', health: health({ oracleWait: { waiting: 2, oldestWaitSlots: 61 } }) });
    emit({ ...alert('firing', 'warning'), muted: true }); // recorded while muted: the console refetches, no notification
    emit(alert('firing', 'critical'));
    emit(alert('firing', 'critical', { reminder: true }));
    emit(alert('resolved', 'critical'));
    await vi.waitFor(() => expect(standIn.notifications).toHaveLength(3));
    expect(standIn.notifications.map((n) => n.title)).toEqual(['Critical: Oracle stalled', 'Still firing: Oracle stalled', 'Resolved: Oracle stalled']);
    expect(standIn.notifications[0]!.body).toBe('A randomness request has waited 61 slots (firing).');
  });

  it('an unsigned macOS build cannot show them: the failure is logged once, and the tray still shows the state', async () => {
    const { standIn, emit, log, menuLabels } = await startApp({ platform: 'darwin' });
    standIn.state.notificationFailure = 'Notifications require a code-signed application';
    emit({ type: 'status', status: status() });
    emit({ type: 'health', health: health({ oracleWait: { waiting: 1, oldestWaitSlots: 61 } }) });
    emit(alert('firing', 'warning'));
    emit(alert('firing', 'critical'));
    await vi.waitFor(() => expect(standIn.notifications).toHaveLength(2));
    expect(standIn.notifications.map((n) => n.shown)).toEqual([false, false]);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0]![0]).toEqual({
      error: 'Notifications require a code-signed application',
      title: 'Warning: Oracle stalled',
    });
    expect(menuLabels()[0]).toBe('Needs attention: the oracle has not answered for 61 slots');
  });
});

describe('the userData folder', () => {
  it('is "<appData>/Wager Keeper", never headless serve’s settings folder, whatever name Electron gave the app', () => {
    const appData = join(root, 'config');
    const serveFolder = headlessSettingsDirectory({ XDG_CONFIG_HOME: appData });
    // Without a productName Electron names the app after package.json's `name`: serve's own folder.
    const unnamed = createElectronStandIn({ appData, name: 'wager-keeper' });
    expect(unnamed.electron.app.getPath('userData')).toBe(serveFolder);
    expect(useOwnUserDataFolder(unnamed.electron as never)).toBe(join(appData, 'Wager Keeper'));
    expect(unnamed.electron.app.getPath('userData')).toBe(join(appData, 'Wager Keeper'));
    expect(unnamed.electron.app.getPath('userData')).not.toBe(serveFolder);
  });
});

describe('the sandboxed preload', () => {
  it('exposes exactly window.wagerKeeper: call, onEvent, the file picker and the desktop preferences, over their channels', async () => {
    const { standIn, emit, calls } = await startApp();
    vi.doMock('electron', () => standIn.electron);
    await import('../../../src-preload');
    expect([...standIn.exposed.keys()]).toEqual(['wagerKeeper']);
    const bridge = standIn.exposed.get('wagerKeeper') as OperatorBridge;
    expect(Object.keys(bridge).sort()).toEqual(['call', 'desktop', 'exportKeyAs', 'keepers', 'onEvent', 'pickDeploymentFile', 'saveDiagnosticsAs', 'updates']);

    expect(await bridge.call('status', undefined)).toEqual({ answeredBy: 'status' });
    await expect(bridge.call('setPaused', { paused: true, fail: true } as never)).rejects.toThrow(
      'setPaused refused: what to do next',
    );
    await expect(bridge.call('readTheSecretKey' as never, undefined as never)).rejects.toThrow(
      /unknown operator method/,
    );

    const seen: OperatorEvent[] = [];
    const unsubscribe = bridge.onEvent((event) => seen.push(event));
    emit({ type: 'earnings' });
    unsubscribe();
    emit({ type: 'earnings' });
    expect(seen).toEqual([{ type: 'earnings' }]);

    // "Load a deployment file…": the system's picker answers a path (null when cancelled); the page then calls loadDeployment.
    expect(await bridge.pickDeploymentFile!()).toBeNull();
    standIn.picked.files = ['/home/op/devnet-deployment.json'];
    expect(await bridge.pickDeploymentFile!()).toBe('/home/op/devnet-deployment.json');
    expect(standIn.dialogs[0]).toMatchObject({
      properties: ['openFile'],
      filters: [{ extensions: ['json'] }, { extensions: ['*'] }],
    });

    // "Save diagnostics…": the save dialog (in Downloads by default) picks where, the core writes there; cancelled: null, nothing written.
    expect(await bridge.saveDiagnosticsAs!()).toBeNull();
    expect(standIn.dialogs.at(-1)).toMatchObject({ title: 'Save diagnostics', defaultPath: expect.stringMatching(/downloads\/wager-keeper-diagnostics-\d{8}-\d{6}Z\.tar\.gz$/) });
    standIn.picked.savePath = '/home/op/support.tar.gz';
    expect(await bridge.saveDiagnosticsAs!()).toEqual({ path: '/home/op/support.tar.gz', bytes: 2048 });
    // "Export key…": after the page's confirmation the save dialog picks where and the core's exportKey writes there.
    standIn.picked.savePath = '/media/usb/keeper.json';
    expect(await bridge.exportKeyAs!({ confirm: true, cluster: 'mainnet-beta' })).toEqual({ answeredBy: 'exportKey' });
    expect(standIn.dialogs.at(-1)).toMatchObject({ title: 'Export the keeper key' });
    expect(calls.filter((call) => call.method === 'exportKey').map((call) => call.args)).toEqual([{ path: '/media/usb/keeper.json', confirm: true, cluster: 'mainnet-beta' }]);
    standIn.picked.savePath = '/home/op/support.tar.gz';
    // The tray's item does the same and says where in a notification.
    standIn.clickMenuItem(standIn.trays[0]!.contextMenu, 'Save diagnostics…');
    await vi.waitFor(() => expect(standIn.notifications.at(-1)).toMatchObject({ title: 'Diagnostics saved', body: expect.stringContaining('/home/op/support.tar.gz') }));
    expect(calls.filter((call) => call.method === 'writeDiagnostics').map((call) => call.args)).toEqual(['/home/op/support.tar.gz', '/home/op/support.tar.gz']);

    expect(await bridge.desktop!.setPreferences({ quitOnWindowClose: true })).toMatchObject({
      quitOnWindowClose: true,
      openAtLogin: false,
    });
    expect(await bridge.desktop!.getPreferences()).toMatchObject({ quitOnWindowClose: true });
    await expect(bridge.desktop!.setPreferences({ openAtLogin: 'please' } as never)).rejects.toThrow(
      'openAtLogin must be true or false',
    );
    vi.doUnmock('electron');
  });
});

describe('where electron may be imported', () => {
  it('only in src-main/electron/ and the preload: the core runs headless without it', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const srcMain = new URL('../../', import.meta.url).pathname;
    const offenders: string[] = [];
    for (const entry of await readdir(srcMain, { recursive: true })) {
      if (!entry.endsWith('.ts') || entry.startsWith('electron/') || entry.includes('__tests__')) continue;
      if (
        /from ['"]electron['"]|require\(['"]electron['"]\)/.test(await readFile(join(srcMain, entry), 'utf8'))
      )
        offenders.push(entry);
    }
    expect(offenders).toEqual([]);
  });
});

/** Every item of a menu and its submenus. */
const menuItems = (items: StandInMenuItem[] = []): StandInMenuItem[] =>
  items.flatMap((item) => [item, ...menuItems(item.submenu)]);

describe('issue 34: where the desktop differs per platform', () => {
  it('Linux without a tray host: closing minimises instead of hiding (and says so once), and a start at login shows the window', async () => {
    const { standIn, window, tray } = await startApp({ trayHost: false });
    expect(tray().visible).toBe(false);
    expect(window().close()).toBe(false);
    expect(window().isMinimized()).toBe(true);
    expect(window().isVisible()).toBe(true);
    expect(standIn.notifications).toEqual([{ ...NO_TRAY_CLOSE_NOTICE, shown: true }]);
    const atLogin = await startApp({ trayHost: false, argv: ['/opt/Wager Keeper/wager-keeper', '--hidden'] });
    expect(atLogin.standIn.windows).toHaveLength(1);
    expect(atLogin.window().isVisible()).toBe(true);
    // With a host the tray is the handle: hidden on close, no window at a start at login.
    const withHost = await startApp({ trayHost: true, argv: ['/opt/Wager Keeper/wager-keeper', '--hidden'] });
    expect(withHost.standIn.windows).toHaveLength(0);
    expect(withHost.tray().visible).toBe(true);
  });

  it('the tray-host question goes to the StatusNotifierWatcher through gdbus, else dbus-send; no answer is no host', async () => {
    const asked: string[] = [];
    const runner = (answers: Record<string, string | null>) => async (command: string, args: string[]) => {
      asked.push(`${command} ${args.join(' ')}`);
      return answers[command] ?? null;
    };
    expect(await trayHostAvailable('linux', runner({ gdbus: '(<true>,)\n' }))).toBe(true);
    expect(asked[0]).toMatch(/^gdbus call --session --dest org\.kde\.StatusNotifierWatcher --object-path \/StatusNotifierWatcher .*IsStatusNotifierHostRegistered$/);
    expect(await trayHostAvailable('linux', runner({ gdbus: '(<false>,)\n' }))).toBe(false);
    expect(await trayHostAvailable('linux', runner({ 'dbus-send': '   variant       boolean true\n' }))).toBe(true);
    expect(await trayHostAvailable('linux', runner({}))).toBe(false);
    expect(await trayHostAvailable('darwin', runner({}))).toBe(true);
    expect(await trayHostAvailable('win32', runner({}))).toBe(true);
  });

  it('Windows: the AppUserModelId is the installer’s appId, so notifications are shown under Wager Keeper', async () => {
    const { standIn, window } = await startApp({ platform: 'win32' });
    const builderYml = readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8');
    expect(builderYml).toMatch(new RegExp(`^appId: ${APP_USER_MODEL_ID.replace(/\./g, '\\.')}$`, 'm'));
    expect(standIn.state.appUserModelId).toBe(APP_USER_MODEL_ID);
    window().close();
    expect(standIn.notifications).toEqual([{ ...FIRST_CLOSE_NOTICE, shown: true }]);
  });

  it('Windows: a session end started hidden (no console window) still stops the keeper gracefully, holding the shutdown until it has', async () => {
    const { standIn, service } = await startApp({ platform: 'win32', argv: ['C:\\Wager Keeper\\Wager Keeper.exe', '--hidden'] });
    expect(standIn.windows).toHaveLength(0);
    let release!: () => void;
    service.stop = () => new Promise<void>((resolve) => (release = () => ((service.stopped += 1), resolve())));
    const session = standIn.endSession(['logoff']);
    expect(session).toMatchObject({ heard: true, prevented: true });
    release();
    await vi.waitFor(() => expect(standIn.electron.app.quitCount).toBe(1));
    expect(service.stopped).toBe(1);
  });

  it('Linux and macOS: a system shutdown stops the keeper gracefully too (powerMonitor shutdown)', async () => {
    const { standIn, service } = await startApp({ platform: 'linux' });
    expect(standIn.systemShutdown()).toBe(true);
    await vi.waitFor(() => expect(standIn.electron.app.quitCount).toBe(1));
    expect(service.stopped).toBe(1);
  });

  it('macOS holds off App Nap the whole time the keeper runs, not only while wagers are queued', async () => {
    const { standIn, emit } = await startApp({ platform: 'darwin' });
    emit({ type: 'status', status: status() });
    emit({ type: 'health', health: health({ queue: 0 }) });
    expect([...standIn.blockers.values()]).toEqual(['prevent-app-suspension']);
    emit({ type: 'status', status: status({ paused: true }) });
    expect(standIn.blockers.size).toBe(1);
    emit({ type: 'status', status: status({ phase: 'failed' }) });
    expect(standIn.blockers.size).toBe(0);
  });

  it('a reload or a quit during the first page load is not "the console UI is not built"; a crashed renderer is reloaded', async () => {
    // runDesktopApp answers once the first load has settled, so these start without waiting for it.
    let held!: ReturnType<typeof createElectronStandIn>;
    const reloading = startApp({ before: (s) => void ((held = s), (s.state.holdLoads = true)) });
    await vi.waitFor(() => expect(held.windows).toHaveLength(1));
    held.windows[0]!.webContents.reload(); // View → Reload while the page still loads: loadFile rejects with ERR_ABORTED
    held.finishLoads();
    const reloaded = await reloading;
    expect(reloaded.log.info).toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/superseded/));
    expect(reloaded.standIn.errorBoxes).toEqual([]);
    expect(reloaded.standIn.electron.app.quitCount).toBe(0);
    expect(await reloaded.standIn.invoke(ipcChannel('status'))).toMatchObject({ ok: true });

    let quitting!: ReturnType<typeof createElectronStandIn>;
    const quitStart = startApp({ before: (s) => void ((quitting = s), (s.state.holdLoads = true)) });
    await vi.waitFor(() => expect(quitting.windows).toHaveLength(1));
    quitting.electron.app.quit(); // the window is destroyed while loading: loadFile rejects with ERR_FAILED
    await vi.waitFor(() => expect(quitting.electron.app.quitCount).toBe(1));
    await quitStart;
    expect(quitting.errorBoxes).toEqual([]);

    const crashed = await startApp();
    const page = crashed.window().webContents;
    page.crash('oom');
    expect(page.crashed).toBe(false);
    await vi.waitFor(() => expect(crashed.log.warn).toHaveBeenCalledWith(expect.objectContaining({ reason: 'oom' }), expect.stringMatching(/crashed: reloading/)));
    expect(await crashed.standIn.invoke(ipcChannel('status'))).toMatchObject({ ok: true });
  });

  it('macOS start at login: a registration waiting for approval says so in words; under npm start it refuses instead of registering Electron.app', async () => {
    const packaged = await startApp({ platform: 'darwin', isPackaged: true, before: (s) => void (s.state.loginItemStatus = 'requires-approval') });
    expect(await packaged.standIn.invoke(IPC_DESKTOP_SET_PREFERENCES, { openAtLogin: true })).toEqual({
      ok: true,
      value: expect.objectContaining({
        openAtLogin: true,
        openAtLoginNote: expect.stringMatching(/^Waiting for your approval: open System Settings → General → Login Items/),
      }),
    });
    const source = await startApp({ platform: 'darwin', isPackaged: false });
    expect(await source.standIn.invoke(IPC_DESKTOP_SET_PREFERENCES, { openAtLogin: true })).toEqual({
      ok: false,
      error: expect.stringMatching(/^start at login needs the installed app: under `npm start` macOS would register Electron\.app/),
    });
    expect(source.standIn.loginItem.status).toBe('not-registered');
    // From the tray, the same sentence in a notification (the box stays unticked).
    source.standIn.clickMenuItem(source.tray().contextMenu, 'Start at login');
    expect(source.standIn.notifications.at(-1)).toMatchObject({ title: 'Start at login was not changed', body: expect.stringMatching(/^start at login needs the installed app/) });
    expect(source.tray().contextMenu!.items.find((i) => i.label === 'Start at login')!.checked).toBe(false);
  });

  it('a path containing % still reaches the console page (its identity is what Electron committed)', async () => {
    const { standIn, window } = await startApp({ folderName: `100%-app-${apps++}` });
    expect(window().webContents.mainFrame.url).toContain('/100%-app-');
    expect(await standIn.invoke(ipcChannel('status'))).toEqual({ ok: true, value: { answeredBy: 'status' } });
    window().webContents.navigateInPage(`${window().webContents.mainFrame.url}#/queue`);
    expect(await standIn.invoke(ipcChannel('status'))).toMatchObject({ ok: true });
    expect(await standIn.checkPermission('clipboard-sanitized-write')).toBe(true);
  });

  it('its own menu: no Developer Tools in the installed app (a developer’s npm start keeps them); View → Reload stays', async () => {
    const installed = await startApp({ isPackaged: true });
    const roles = (s: typeof installed.standIn) => menuItems(s.applicationMenu()!.items).map((i) => i.role).filter(Boolean);
    expect(roles(installed.standIn)).toEqual(expect.arrayContaining(['reload', 'editMenu', 'windowMenu']));
    expect(roles(installed.standIn)).not.toContain('toggleDevTools');
    expect(roles(installed.standIn)).not.toContain('viewMenu');
    const source = await startApp({ isPackaged: false });
    expect(roles(source.standIn)).toContain('toggleDevTools');
  });

  it('dialogs open with the console window as parent; the generic exportKey is refused (Export key… uses the save dialog)', async () => {
    const { standIn, window, calls } = await startApp();
    standIn.picked.files = ['/home/op/deployment.json'];
    await standIn.invoke(IPC_PICK_DEPLOYMENT_FILE);
    standIn.picked.savePath = '/home/op/support.tar.gz';
    await standIn.invoke(IPC_SAVE_DIAGNOSTICS);
    await standIn.invoke(IPC_EXPORT_KEY, { confirm: true });
    expect(standIn.dialogs.map((d) => d.parent)).toEqual([window(), window(), window()]);
    expect(await standIn.invoke(ipcChannel('exportKey'), { path: '/tmp/anywhere.json', confirm: true })).toEqual({
      ok: false,
      error: expect.stringMatching(/refused: in the desktop app the keeper key is exported through Settings → Keeper key → Export key…/),
    });
    // Only the save dialog's path reached the core, never the page's own.
    expect(calls.filter((c) => c.method === 'exportKey').map((c) => (c.args as { path: string }).path)).toEqual(['/home/op/support.tar.gz']);
  });

  it('tray icons: a template image on macOS, the ICO on Windows, the PNG on Linux', async () => {
    const mac = await startApp({ platform: 'darwin' });
    const macImage = mac.tray().image as { path: string; isTemplateImage(): boolean; isEmpty(): boolean };
    expect(macImage.path).toMatch(/resources\/icons\/trayTemplate\.png$/);
    expect(macImage.isTemplateImage()).toBe(true);
    expect(macImage.isEmpty()).toBe(false);
    const win = await startApp({ platform: 'win32' });
    expect((win.tray().image as { path: string }).path).toMatch(/resources\/icons\/tray\.ico$/);
    const linux = await startApp({ platform: 'linux' });
    expect((linux.tray().image as { path: string }).path).toMatch(/resources\/icons\/icon\.png$/);
  });
});
