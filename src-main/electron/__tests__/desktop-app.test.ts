/**
 * The desktop host with a faithful stand-in for Electron (electron-stand-in.ts; the real binary cannot be
 * downloaded here): the window is isolated and sandboxed, loads only its own page, denies popups,
 * navigation and permissions, sets a strict CSP; every operator method has its IPC channel and reaches the
 * operator interface; another page is refused; live events reach the window; the preload exposes exactly
 * the typed bridge.
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_PICK_DEPLOYMENT_FILE, OPERATOR_METHODS, ipcChannel, type OperatorApi, type OperatorBridge, type OperatorEvent } from '../../operator/operator-interface';
import { DESKTOP_CSP, runDesktopApp, type DesktopService } from '../desktop-app';
import { createElectronStandIn } from './electron-stand-in';

const OUT = '/app/out';
const PAGE_URL = pathToFileURL('/app/out/renderer/index.html').toString();

/** An operator interface that records each call (the service is not what this test is about). */
function recordingService() {
  const calls: { method: string; args: unknown }[] = [];
  const listeners = new Set<(event: OperatorEvent) => void>();
  const api = Object.fromEntries(
    OPERATOR_METHODS.map((method) => [
      method,
      async (args: unknown) => {
        calls.push({ method, args });
        if ((args as { fail?: boolean })?.fail) throw new Error(`${method} refused: what to do next`);
        return { answeredBy: method };
      },
    ]),
  ) as unknown as OperatorApi;
  const service: DesktopService & { started: number; stopped: number } = {
    api,
    started: 0,
    stopped: 0,
    onEvent: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    start: async () => void (service.started += 1),
    stop: async () => void (service.stopped += 1),
  };
  return { service, calls, emit: (event: OperatorEvent) => listeners.forEach((l) => l(event)) };
}

async function startApp() {
  const standIn = createElectronStandIn({ pageUrl: () => PAGE_URL });
  const recorded = recordingService();
  await runDesktopApp(standIn.electron as never, () => recorded.service, OUT);
  return { standIn, ...recorded };
}

describe('the desktop window', () => {
  it('is isolated and sandboxed with the CommonJS preload, and loads only the built page', async () => {
    const { standIn, service } = await startApp();
    expect(service.started).toBe(1);
    const [window] = standIn.windows;
    expect(window!.options).toMatchObject({
      title: 'Wager Keeper',
      webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, preload: '/app/out/preload/index.cjs' },
    });
    expect(window!.loaded).toEqual(['/app/out/renderer/index.html']);
  });

  it('denies popups (https links go to the system browser), navigation away, and every permission; sets a strict CSP', async () => {
    const { standIn } = await startApp();
    const contents = standIn.windows[0]!.webContents;
    expect(contents.windowOpenHandler!({ url: 'https://explorer.solana.com/tx/abc' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'http://evil.example' })).toEqual({ action: 'deny' });
    expect(standIn.opened).toEqual(['https://explorer.solana.com/tx/abc']);

    const navigate = (url: string) => {
      const event = { preventDefault: vi.fn() };
      contents.emit('will-navigate', event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(navigate(`${PAGE_URL}#/queue`)).toBe(false);

    const granted = await new Promise<boolean>((resolve) => standIn.permissionHandlers[0]!(contents, 'notifications', resolve));
    expect(granted).toBe(false);
    const headers = await new Promise<Record<string, string[]>>((resolve) => standIn.headerListeners[0]!({ responseHeaders: {} }, (r) => resolve(r.responseHeaders)));
    expect(headers['Content-Security-Policy']).toEqual([DESKTOP_CSP]);
    expect(DESKTOP_CSP).toContain("default-src 'self'");
    expect(DESKTOP_CSP).not.toMatch(/unsafe-eval|https?:/);
  });

  it('has one IPC channel per operator method, each reaching the operator interface with its argument', async () => {
    const { standIn, calls } = await startApp();
    // Plus the desktop's own file picker, which is not an operator method (the headless host has no dialog).
    expect([...standIn.handlers.keys()].sort()).toEqual([...OPERATOR_METHODS.map(ipcChannel), IPC_PICK_DEPLOYMENT_FILE].sort());
    for (const method of OPERATOR_METHODS) {
      const reply = await standIn.invoke(ipcChannel(method), PAGE_URL, { probe: method });
      expect(reply).toEqual({ ok: true, value: { answeredBy: method } });
    }
    expect(calls.map((c) => c.method)).toEqual([...OPERATOR_METHODS]);
    expect(calls.every((c) => (c.args as { probe: string }).probe === c.method)).toBe(true);
  });

  it("answers an error as text in the envelope, and refuses a caller that is not the console page", async () => {
    const { standIn, calls } = await startApp();
    expect(await standIn.invoke(ipcChannel('saveSettings'), PAGE_URL, { fail: true })).toEqual({ ok: false, error: 'saveSettings refused: what to do next' });
    const before = calls.length;
    const refused = await standIn.invoke(ipcChannel('status'), 'https://evil.example/', {});
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/console window only/) });
    expect(calls.length).toBe(before);
  });

  it('pushes live events to the window, and stops the core before quitting', async () => {
    const { standIn, emit, service } = await startApp();
    emit({ type: 'earnings' });
    expect(standIn.windows[0]!.webContents.sent).toEqual([{ channel: IPC_EVENT_CHANNEL, payload: { type: 'earnings' } }]);
    standIn.electron.app.quit();
    await vi.waitFor(() => expect(service.stopped).toBe(1));
    expect(standIn.electron.app.quitCount).toBe(1);
  });
});

describe('oracle stall notifications', () => {
  it('notifies once per change of stall level (warning, critical, recovered), not on every health event', async () => {
    const { standIn, emit } = await startApp();
    const health = (waiting: number, oldestWaitSlots: number | null) =>
      emit({
        type: 'health',
        health: { lamports: '1', lastTick: 0, queue: 0, rpcError: null, slot: 1, rpcLatencyMs: 1, checkedAt: 0, runway: { lamportsPerCrank: 5000, cranks: 0, low: true }, oracleWait: { waiting, oldestWaitSlots }, overdue: [] },
      });
    health(1, 5);
    health(1, 21);
    health(1, 30);
    health(2, 61);
    health(2, 62);
    health(0, null);
    expect(standIn.notifications.map((n) => n.title)).toEqual(['Oracle slow', 'Oracle stalled (critical)', 'Oracle recovered']);
    expect(standIn.notifications[1]!.body).toMatch(/waited 61 slots.*guardian should pause/);
  });
});

describe('the sandboxed preload', () => {
  it('exposes exactly window.wagerKeeper with call, onEvent and the deployment file picker, over the operator channels', async () => {
    const standIn = createElectronStandIn({ pageUrl: () => PAGE_URL });
    const recorded = recordingService();
    await runDesktopApp(standIn.electron as never, () => recorded.service, OUT);
    vi.doMock('electron', () => standIn.electron);
    await import('../../../src-preload/index');
    expect([...standIn.exposed.keys()]).toEqual(['wagerKeeper']);
    const bridge = standIn.exposed.get('wagerKeeper') as OperatorBridge;
    expect(Object.keys(bridge).sort()).toEqual(['call', 'onEvent', 'pickDeploymentFile']);

    expect(await bridge.call('status', undefined)).toEqual({ answeredBy: 'status' });
    await expect(bridge.call('setPaused', { paused: true, fail: true } as never)).rejects.toThrow('setPaused refused: what to do next');
    await expect(bridge.call('readTheSecretKey' as never, undefined as never)).rejects.toThrow(/unknown operator method/);

    const seen: OperatorEvent[] = [];
    const unsubscribe = bridge.onEvent((event) => seen.push(event));
    recorded.emit({ type: 'earnings' });
    unsubscribe();
    recorded.emit({ type: 'earnings' });
    expect(seen).toEqual([{ type: 'earnings' }]);

    // "Load a deployment file…": the system's picker answers a path (null when cancelled); the page then calls loadDeployment.
    expect(await bridge.pickDeploymentFile!()).toBeNull();
    standIn.picked.files = ['/home/op/devnet-deployment.json'];
    expect(await bridge.pickDeploymentFile!()).toBe('/home/op/devnet-deployment.json');
    expect(standIn.dialogs[0]).toMatchObject({ properties: ['openFile'], filters: [{ extensions: ['json'] }, { extensions: ['*'] }] });
    expect(await standIn.invoke(IPC_PICK_DEPLOYMENT_FILE, 'https://evil.example/')).toMatchObject({ ok: false, error: expect.stringMatching(/refused/) });
    vi.doUnmock('electron');
  });
});

describe('where electron may be imported', () => {
  it('only in src-main/electron/ and the preload: the core runs headless without it', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const root = new URL('../../', import.meta.url).pathname;
    const offenders: string[] = [];
    for (const entry of await readdir(root, { recursive: true })) {
      if (!entry.endsWith('.ts') || entry.startsWith('electron/') || entry.includes('__tests__')) continue;
      if (/from ['"]electron['"]|require\(['"]electron['"]\)/.test(await readFile(join(root, entry), 'utf8'))) offenders.push(entry);
    }
    expect(offenders).toEqual([]);
  });
});
