/**
 * The BUILT desktop main (out/main/main.js, as electron-vite builds it; `npm test` builds it first) run by
 * Node with the electron stand-in as its `electron` module (e2e/desktop/desktop-host.ts), with the real
 * core: it must reach its window (sandboxed preload, the built page), answer over IPC and crank on the
 * embedded localnet; and, on a machine where litesvm cannot load, still reach its window, say why the
 * embedded localnet is unavailable, and crank against an RPC chosen in Settings. Each host runs in a temp
 * appData of its own.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BUILT_MAIN,
  PROJECT_ROOT,
  startDesktopHost,
  type DesktopHost,
} from '../../../e2e/desktop/desktop-host';
import type { OperatorEvent } from '../../../src-shared/contract/events';
import type { OperatorReply } from '../../../src-shared/contract/bridge';
import type { StatusView } from '../../../src-shared/contract/status';

// out/ of the build under test (out/main/main.js → out/).
const OUT = dirname(dirname(BUILT_MAIN));
const LITESVM_UNLOADABLE = join(PROJECT_ROOT, 'src-main', '__tests__', 'fixtures', 'litesvm-unloadable.mjs');
const START_TIMEOUT_MS = 90_000;

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function startHost(imports: string[] = []) {
  const host = await startDesktopHost({ imports });
  stops.push(() => host.stop());
  const [window] = await host.windowsLoaded();
  if (!window?.url)
    throw new Error(`the app opened no page: ${window?.loadError ?? 'no window'}\n${host.log()}`);
  return { host, window, pageUrl: window.url };
}

/** `status` as the page asks it over IPC, from the page at `frameUrl`. */
async function status(host: DesktopHost, frameUrl: string): Promise<StatusView> {
  const reply = (await host.invoke('operator:status', frameUrl, [{}])) as OperatorReply<StatusView>;
  if (!reply.ok) throw new Error(`status refused: ${reply.error}`);
  return reply.value;
}

/** Resolves with the first status (asked now, or pushed to the window) that `wanted` accepts. */
async function statusWhen(
  host: DesktopHost,
  frameUrl: string,
  wanted: (status: StatusView) => boolean,
  what: string,
): Promise<StatusView> {
  let stop = () => {};
  let last: StatusView | null = null;
  const pushed = new Promise<StatusView>((resolve) => {
    stop = host.onSent(({ channel, args }) => {
      const event = args[0] as OperatorEvent;
      if (channel !== 'operator-event' || event.type !== 'status') return;
      last = event.status;
      if (wanted(event.status)) resolve(event.status);
    });
  });
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(
      () =>
        reject(
          new Error(
            `no status with ${what} within ${START_TIMEOUT_MS} ms; last: ${JSON.stringify(last)}\n${host.log()}`,
          ),
        ),
      START_TIMEOUT_MS,
    ),
  );
  try {
    const now = await status(host, frameUrl);
    last = now;
    return wanted(now) ? now : await Promise.race([pushed, timeout]);
  } finally {
    stop();
  }
}

/** `wager-keeper localnet --rpc-port 0`, as a person starts one; stopped after the test. */
async function startLocalnet(): Promise<{
  rpcUrl: string;
  wsUrl: string;
  devKeys: { keeper: { address: string } };
}> {
  const child = spawn(
    process.execPath,
    [join(PROJECT_ROOT, 'bin', 'wager-keeper.js'), 'localnet', '--rpc-port', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  stops.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [
    string | null,
  ];
  lines.on('line', () => {});
  if (!first) throw new Error(`wager-keeper localnet exited before it was ready: ${stderr}`);
  return JSON.parse(first);
}

describe('the built desktop main under Node with the electron stand-in', () => {
  it('opens its sandboxed window on the built page, answers over IPC (also from a hash route) and cranks on the embedded localnet; Quit stops it', async () => {
    const { host, window, pageUrl } = await startHost();
    expect(window.options.webPreferences).toMatchObject({
      preload: join(OUT, 'preload', 'index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    });
    expect(window.loaded).toEqual([join(OUT, 'renderer', 'index.html')]);
    expect(pageUrl).toBe(pathToFileURL(join(OUT, 'renderer', 'index.html')).href);

    await expect(status(host, pageUrl)).resolves.toMatchObject({ host: 'desktop' });
    // After a hash link the frame's URL carries the route; the console page still gets answers.
    await expect(status(host, `${pageUrl}#/queue`)).resolves.toMatchObject({ host: 'desktop' });
    expect(await host.permission('clipboard-sanitized-write', `${pageUrl}#/queue`)).toEqual({
      check: true,
      request: true,
    });

    const running = await statusWhen(
      host,
      `${pageUrl}#/queue`,
      (s) => s.phase === 'running',
      'the keeper running',
    );
    expect(running.cluster).toMatchObject({ embedded: true, name: 'localnet' });
    expect(running.keeper?.address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    // Its logs also go to <userData>/logs/, numbered by pino-roll (issue 26).
    const logs = join(host.appData, 'Wager Keeper', 'logs');
    await vi.waitFor(() => expect(readdirSync(logs).filter((name) => /^wager-keeper\.\d+\.log$/.test(name)).map((name) => readFileSync(join(logs, name), 'utf8')).join('')).toContain('keeper core running'), { timeout: 10_000, interval: 100 });

    // app.quit() (the tray's Quit) → before-quit → the core stops → the process exits 0.
    expect(await host.quit()).toBe(0);
  });

  it('without litesvm it still opens its window, says the embedded localnet is unavailable, and cranks against an RPC saved in Settings', async () => {
    const { host, pageUrl } = await startHost([LITESVM_UNLOADABLE]);
    const unavailable = await statusWhen(
      host,
      pageUrl,
      (s) => /embedded localnet is unavailable on this platform/.test(s.error ?? ''),
      'the embedded localnet unavailable',
    );
    expect(unavailable.phase).not.toBe('running');

    const localnet = await startLocalnet();
    const saved = (await host.invoke('operator:saveSettings', `${pageUrl}#/settings`, [
      { changes: { cluster: { kind: 'rpc', rpcUrl: localnet.rpcUrl, wsUrl: localnet.wsUrl } } },
    ])) as OperatorReply<unknown>;
    expect(saved).toMatchObject({ ok: true });
    const running = await statusWhen(
      host,
      `${pageUrl}#/settings`,
      (s) => s.phase === 'running' && s.cluster?.rpcUrl === localnet.rpcUrl,
      `the keeper running on ${localnet.rpcUrl}`,
    );
    expect(running.cluster).toMatchObject({ embedded: false, name: 'localnet' });
    expect(running.keeper?.address).toBe(localnet.devKeys.keeper.address);
  });
});
