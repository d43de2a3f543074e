/**
 * The app as an installer lays it out, started (issue 34, item 11). electron-builder itself packs the
 * built app on this machine (`electron-builder --dir` for this platform, electron-builder.yml as is), with
 * `electronDist` pointing at a folder that stands in for Electron's distribution (an `electron` script and
 * the files electron-builder copies beside it), so nothing is downloaded: every network connection of
 * electron-builder and its children fails and is recorded (fixtures/no-network.mjs), and its caches are
 * empty temp folders.
 *
 * Its real `resources/app.asar` is then read through @electron/asar and laid out in a temp folder outside
 * the project as Electron presents it to the app: `resources/app.asar/…` (the archive's files, with the
 * unpacked ones where Electron redirects them) beside `resources/app.asar.unpacked/`. The packed main runs
 * from there under Node with the electron stand-in (e2e/desktop/desktop-host.ts), with `app.isPackaged`,
 * `process.resourcesPath` and `app.getAppPath()` as Electron sets them; a module the app resolves outside
 * the package fails (fixtures/packaged-only.mjs), as it would in the installed app. It must open its
 * window on the packed page and land a crank on the embedded localnet, which needs the packed programs.
 * A file or dependency read at run time but left out of `files` fails here.
 */
import * as asar from '@electron/asar';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, startDesktopHost, type DesktopHost } from '../../e2e/desktop/desktop-host';
import type { OperatorEvent } from '../../src-shared/contract/events';
import type { OperatorReply } from '../../src-shared/contract/bridge';
import type { StatusView } from '../../src-shared/contract/status';
import type { StepView } from '../../src-shared/contract/activity';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const PACK_TIMEOUT_MS = 240_000;
const CRANK_TIMEOUT_MS = 90_000;

// One temp folder for the whole file, outside the project: module resolution from the packed app can
// never reach the project's node_modules.
const work = mkdtempSync(join(tmpdir(), 'wk-packaged-layout-'));
const networkLog = join(work, 'network.log');
// Where electron-builder leaves the unpacked app (linux-unpacked, mac/…, win-unpacked: we pack for Linux).
const output = join(work, 'dist');
const installed = join(work, 'installed');
const resources = join(installed, 'resources');
const appDir = join(resources, 'app.asar');

let builderLog = '';
let packResources = '';
let host: DesktopHost | null = null;

/**
 * A folder standing in for Electron's Linux distribution: what electron-builder's Linux packer copies
 * (ElectronFramework's unpack of a custom unpacked dist: everything, then `electron` renamed to the
 * executable name) and what its license step keeps.
 */
function standInElectronDist(): string {
  const dist = join(work, 'electron-dist');
  mkdirSync(join(dist, 'locales'), { recursive: true });
  mkdirSync(join(dist, 'resources'), { recursive: true });
  writeFileSync(
    join(dist, 'electron'),
    '#!/bin/sh\necho "stand-in for Electron: nothing runs here" >&2\nexit 1\n',
  );
  chmodSync(join(dist, 'electron'), 0o755);
  writeFileSync(join(dist, 'LICENSE'), 'Stand-in for Electron’s LICENSE (packaged-layout test)\n');
  writeFileSync(join(dist, 'LICENSES.chromium.html'), '<p>Stand-in for Chromium’s licenses</p>\n');
  writeFileSync(join(dist, 'locales', 'en-US.pak'), '');
  writeFileSync(join(dist, 'version'), '45.4.1');
  return dist;
}

/** `electron-builder --dir --linux` on electron-builder.yml, offline; resolves with its resources folder. */
async function pack(): Promise<string> {
  const cache = join(work, 'cache');
  mkdirSync(cache);
  writeFileSync(networkLog, '');
  const arch = process.arch === 'arm64' ? '--arm64' : '--x64';
  const child = spawn(
    process.execPath,
    [
      join(PROJECT_ROOT, 'node_modules', 'electron-builder', 'cli.js'),
      '--dir',
      '--linux',
      arch,
      '--publish',
      'never',
      `-c.electronDist=${standInElectronDist()}`,
      `-c.directories.output=${output}`,
    ],
    {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        // builder-util silences its log under Vitest (VITEST set): this test reads it.
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))),
        NODE_OPTIONS: `--import=${pathToFileURL(join(FIXTURES, 'no-network.mjs')).href}`,
        WAGER_KEEPER_NETWORK_LOG: networkLog,
        // Nothing cached may stand in for a download either.
        ELECTRON_BUILDER_CACHE: cache,
        electron_config_cache: cache,
        XDG_CACHE_HOME: cache,
        CSC_IDENTITY_AUTO_DISCOVERY: 'false',
      },
    },
  );
  child.stdout!.on('data', (chunk: Buffer) => (builderLog += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (builderLog += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const tail = builderLog.slice(-6_000);
  if (code !== 0) throw new Error(`electron-builder --dir exited ${code}:\n${tail}`);
  const unpacked = join(output, process.arch === 'arm64' ? 'linux-arm64-unpacked' : 'linux-unpacked');
  if (!existsSync(join(unpacked, 'resources', 'app.asar')))
    throw new Error(`electron-builder wrote no ${unpacked}/resources/app.asar:\n${tail}`);
  return join(unpacked, 'resources');
}

/** The installed app's resources folder as Electron shows it to the app (see the file's comment). */
function layOut(from: string): void {
  // Everything but the archive itself (app.asar.unpacked, app-update.yml, …), as installed.
  cpSync(from, resources, { recursive: true, filter: (source) => source !== join(from, 'app.asar') });
  // Unpacked files land at their place inside it too: Electron redirects those reads to app.asar.unpacked.
  asar.extractAll(join(from, 'app.asar'), appDir);
}

/** Every file in the archive, relative, with `/` separators. */
const archived = (archive: string): string[] =>
  asar
    .listPackage(archive, { isPack: false })
    .map((path) =>
      path
        .replace(/^[\\/]/, '')
        .split(sep)
        .join('/'),
    )
    .filter((path) => {
      try {
        return !('files' in asar.statFile(archive, path));
      } catch {
        return false;
      }
    });

beforeAll(async () => {
  packResources = await pack();
  layOut(packResources);
}, PACK_TIMEOUT_MS);

afterAll(async () => {
  await host?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('the packaged layout (electron-builder --dir, stand-in Electron distribution)', () => {
  it('packs offline: electron-builder used the stand-in distribution and opened no connection', () => {
    expect(builderLog).toMatch(/using custom unpacked Electron distribution/);
    expect(builderLog).not.toMatch(/\bdownloading\b/i);
    expect(readFileSync(networkLog, 'utf8')).toBe('');
  });

  it('app.asar holds the built app, its programs and production dependencies; native bindings unpacked; no maps, sources or signing files', () => {
    const archive = join(packResources, 'app.asar');
    const files = archived(archive);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'out/main/main.js',
        'out/preload/index.cjs',
        'out/renderer/index.html',
        'resources/programs/wager.so',
        'resources/programs/oracle.so',
        'resources/icons/icon.png',
        'node_modules/litesvm/package.json',
        'node_modules/electron-store/package.json',
      ]),
    );
    expect(
      files.filter((path) =>
        /\.map$|^src-|^resources\/(mac|linux)\/|^node_modules\/(typescript|react|electron)\//.test(path),
      ),
    ).toEqual([]);
    // smartUnpack: a native module must be a real file (dlopen cannot read inside an archive).
    const bindings = files.filter((path) => path.endsWith('.node'));
    expect(bindings.length).toBeGreaterThan(0);
    for (const binding of bindings) {
      expect(asar.statFile(archive, binding), binding).toMatchObject({ unpacked: true });
      expect(existsSync(join(packResources, 'app.asar.unpacked', binding)), binding).toBe(true);
    }
    // electron-updater's feed, from electron-builder.yml's publish block.
    expect(readFileSync(join(packResources, 'app-update.yml'), 'utf8')).toMatch(/^provider: github$/m);
  });

  it(
    'the packed main opens its window on the packed page, with isPackaged and resourcesPath as Electron sets them, and lands a crank on the embedded localnet',
    async () => {
      host = await startDesktopHost({
        main: join(appDir, 'out', 'main', 'main.js'),
        cwd: installed,
        // A packaged app checks its release feed at start: here that request fails at once, off the network.
        imports: [join(FIXTURES, 'packaged-only.mjs'), join(FIXTURES, 'no-network.mjs')],
        env: {
          WAGER_KEEPER_DESKTOP_RESOURCES: resources,
          WAGER_KEEPER_PACKAGED_APP: appDir,
          WAGER_KEEPER_NETWORK_LOG: join(work, 'app-network.log'),
          NODE_PATH: '',
        },
      });
      const running = host;
      const [window] = await running.windowsLoaded();
      if (!window?.url)
        throw new Error(
          `the packed app opened no page: ${window?.loadError ?? 'no window'}\n${running.log()}`,
        );
      expect(window.options.webPreferences).toMatchObject({
        preload: join(appDir, 'out', 'preload', 'index.cjs'),
      });
      expect(window.loaded).toEqual([join(appDir, 'out', 'renderer', 'index.html')]);
      const pageUrl = window.url;

      // Listen before asking, so a crank that lands meanwhile is not missed; a core that cannot start (a
      // packed file missing, say) ends the wait at once with its reason.
      let stopListening = () => {};
      const landed = new Promise<StepView>((resolve, reject) => {
        stopListening = running.onSent(({ channel, args }) => {
          const event = args[0] as OperatorEvent;
          if (channel !== 'operator-event') return;
          if (event.type === 'status' && ['failed', 'noDeployment'].includes(event.status.phase))
            reject(
              new Error(`the packed app's core did not start: ${event.status.phase}: ${event.status.error}`),
            );
          if (event.type !== 'steps') return;
          const step = event.steps.find((s) => s.outcome === 'landed' && s.signature);
          if (step) resolve(step);
        });
      });
      const status = (await running.invoke('operator:status', pageUrl, [{}])) as OperatorReply<StatusView>;
      expect(status).toMatchObject({ ok: true, value: { host: 'desktop' } });

      let timer: NodeJS.Timeout | undefined;
      const step = await Promise.race([
        landed,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no crank landed within ${CRANK_TIMEOUT_MS} ms\n${running.log()}`)),
            CRANK_TIMEOUT_MS,
          );
        }),
      ]).finally(() => {
        clearTimeout(timer);
        stopListening();
      });
      expect(step.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
      const now = (await running.invoke('operator:status', pageUrl, [{}])) as OperatorReply<StatusView>;
      expect(now).toMatchObject({ ok: true, value: { phase: 'running', cluster: { embedded: true } } });
      // Nothing of the project was read: every path the app names is inside the installed folder.
      expect(relative(installed, window.loaded[0]!).startsWith('..')).toBe(false);

      expect(await running.quit()).toBe(0);
    },
    CRANK_TIMEOUT_MS + 60_000,
  );
});
