/**
 * `npm start` (scripts/launch-session.mjs) on machines we cannot have here: a fresh install whose Electron
 * binary is not downloaded yet (Electron 42+), a download that fails, Ubuntu 24.04's user-namespace
 * restriction, Electron dying at launch, Windows, no display, and Ctrl-C. Each case checks what a person
 * would see: which program runs (the desktop app or the headless console) and what they are told.
 */
import { once, EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script (it runs before anything is built); its JSDoc gives the types.
import { launch } from '../../../scripts/launch-session.mjs';
import {
  downloadedElectron,
  electronDirectory,
  execPath,
  fakeFiles,
  fakeSpawn,
  freshElectronPackage,
  root,
  type FakeEntry,
  type Role,
  type SpawnCall,
} from './desktop-launch-fakes';

const sandboxHelper = `${electronDirectory}/dist/chrome-sandbox`;
const USERNS_SYSCTL = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

/** The real installer's stderr when GitHub cannot be reached (captured from node_modules/electron/install.js). */
const INSTALLER_FETCH_FAILURE = `TypeError: fetch failed
    at node:internal/deps/undici/undici:14976:13
    at async FetchDownloader.download (file:///app/node_modules/@electron/get/dist/FetchDownloader.js:46:30)
    at async downloadArtifact (file:///app/node_modules/@electron/get/dist/index.js:154:12)
`;
const INSTALLER_HTTP_404 = `HTTPError: Response code 404 (Not Found) for https://github.com/electron/electron/releases/download/v45.4.1/electron-v45.4.1-linux-x64.zip
    at FetchDownloader.download (file:///app/node_modules/@electron/get/dist/FetchDownloader.js:48:23)
`;

/** `npm start` on a machine made of `entries`, with `play` deciding what each child does. */
function machine({
  platform = 'linux',
  env = { DISPLAY: ':0' },
  entries = { ...freshElectronPackage(), ...downloadedElectron(platform) },
  play = {},
  stdinIsTTY = false,
}: {
  platform?: string;
  env?: Record<string, string>;
  entries?: Record<string, FakeEntry>;
  play?: Partial<Record<Role, (call: SpawnCall, clock: { time: number }) => void>>;
  stdinIsTTY?: boolean;
} = {}) {
  const { map, files } = fakeFiles(entries);
  const clock = { time: 0 };
  const withClock = Object.fromEntries(
    Object.entries(play).map(([role, act]) => [role, (call: SpawnCall) => act(call, clock)]),
  );
  const children = fakeSpawn(withClock, () => {
    for (const [path, entry] of Object.entries(downloadedElectron(platform))) map.set(path, entry);
  });
  const signals = new EventEmitter();
  let output = '';
  const exitCode: Promise<number> = launch({
    root,
    args: ['--port', '7400'],
    env,
    platform,
    execPath,
    stdinIsTTY,
    spawn: children.spawn,
    files,
    signals,
    write: (text: string) => (output += text),
    now: () => clock.time,
  });
  return {
    exitCode,
    children,
    signals,
    output: () => output,
    calls: (role: Role) => children.calls.filter((call) => call.role === role),
  };
}

const restricted = (sandbox: FakeEntry): Record<string, FakeEntry> => ({
  ...freshElectronPackage(),
  ...downloadedElectron('linux'),
  [USERNS_SYSCTL]: '1\n',
  [sandboxHelper]: sandbox,
});

describe('npm start on a fresh install (Electron 42+ downloads its binary on first use)', () => {
  it("runs Electron's own installer with this Node, then starts the desktop app it downloaded", async () => {
    const run = machine({ entries: freshElectronPackage() });
    expect(await run.exitCode).toBe(0);
    expect(run.children.roles()).toEqual(['build', 'install', 'electron']);
    const [install] = run.calls('install');
    expect([install!.command, install!.args]).toEqual([execPath, [`${electronDirectory}/install.js`]]);
    expect((install!.options.stdio as string[])[2]).toBe('pipe'); // its error is read, to be quoted
    const [electron] = run.calls('electron');
    expect([electron!.command, electron!.args]).toEqual([`${electronDirectory}/dist/electron`, [root]]);
    expect(run.output()).toMatch(/downloading the Electron binary[^\n]*\n[^\n]*Electron downloaded\./);
  });

  it('falls back to the headless console when the download fails, quoting the installer’s own error and what to do', async () => {
    const run = machine({
      entries: freshElectronPackage(),
      play: { install: (call) => call.child.finish({ code: 1, stderr: INSTALLER_HTTP_404 }) },
    });
    expect(await run.exitCode).toBe(0);
    expect(run.children.roles()).toEqual(['build', 'install', 'serve']);
    expect(run.calls('serve')[0]!.args).toEqual([`${root}/bin/wager-keeper.js`, 'serve', '--port', '7400']);
    const said = run.output();
    expect(said).toContain(
      'the desktop app cannot start here: the Electron binary could not be downloaded from GitHub Releases: HTTPError: Response code 404 (Not Found) for https://github.com/electron/electron/releases/download/v45.4.1/electron-v45.4.1-linux-x64.zip.',
    );
    expect(said).toContain('then run `npm start` again');
    expect(said).not.toMatch(/npm could not download|\bat FetchDownloader/);
    expect(said).toMatch(/running the console headless instead: open the "console" URL/);
  });

  it('names the mirror it tried when ELECTRON_MIRROR is set, with the fetch error', async () => {
    const run = machine({
      env: { DISPLAY: ':0', ELECTRON_MIRROR: 'http://127.0.0.1:9/' },
      entries: freshElectronPackage(),
      play: { install: (call) => call.child.finish({ code: 1, stderr: INSTALLER_FETCH_FAILURE }) },
    });
    await run.exitCode;
    expect(run.output()).toContain(
      'could not be downloaded from the mirror http://127.0.0.1:9/ (ELECTRON_MIRROR): TypeError: fetch failed.',
    );
  });

  it('does not download anything where no window could open (Linux without a display)', async () => {
    const run = machine({ env: {}, entries: freshElectronPackage() });
    expect(await run.exitCode).toBe(0);
    expect(run.children.roles()).toEqual(['build', 'serve']);
    expect(run.output()).toContain(
      'the desktop app cannot start here: there is no display (DISPLAY and WAYLAND_DISPLAY are unset).',
    );
  });
});

describe("Ubuntu 23.10+/24.04's restriction on user namespaces", () => {
  it('falls back headless before Electron aborts, printing both fixes with this machine’s paths (never --no-sandbox)', async () => {
    const run = machine({ entries: restricted({ uid: 1000, mode: 0o100755 }) });
    expect(await run.exitCode).toBe(0);
    expect(run.children.roles()).toEqual(['build', 'serve']);
    const said = run.output();
    expect(said).toContain(`Electron's sandbox helper ${sandboxHelper} is not owned by root with mode 4755`);
    expect(said).toContain(`sudo chown root:root '${sandboxHelper}' && sudo chmod 4755 '${sandboxHelper}'`);
    // Fix two: the AppArmor profile, pasteable as printed, for this very binary.
    expect(said).toContain("sudo tee /etc/apparmor.d/wager-keeper-dev >/dev/null <<'EOF'\n");
    expect(said).toContain(
      `profile wager-keeper-dev "${electronDirectory}/dist/electron" flags=(unconfined) {\n  userns,\n`,
    );
    expect(said).toMatch(/\nEOF\nsudo apparmor_parser -r \/etc\/apparmor\.d\/wager-keeper-dev\n/);
    expect(said).not.toContain('--no-sandbox');
  });

  it('also falls back when the helper is setuid but not root’s, or root’s but not setuid', async () => {
    for (const sandbox of [
      { uid: 1000, mode: 0o104755 },
      { uid: 0, mode: 0o100755 },
    ]) {
      const run = machine({ entries: restricted(sandbox) });
      await run.exitCode;
      expect(run.children.roles()).toEqual(['build', 'serve']);
    }
  });

  it('starts the desktop app once either fix is in place, or where nothing is restricted', async () => {
    const profile = `abi <abi/4.0>,\nprofile wager-keeper-dev "${electronDirectory}/dist/electron" flags=(unconfined) {\n  userns,\n}\n`;
    const machines: Record<string, Record<string, FakeEntry>> = {
      'root-owned 4755 helper': restricted({ uid: 0, mode: 0o104755 }),
      'AppArmor profile for the binary': {
        ...restricted({ uid: 1000, mode: 0o100755 }),
        '/etc/apparmor.d/wager-keeper-dev': profile,
      },
      'restriction off (0)': { ...restricted({ uid: 1000, mode: 0o100755 }), [USERNS_SYSCTL]: '0\n' },
      'no such sysctl (before 23.10)': { ...freshElectronPackage(), ...downloadedElectron('linux') },
    };
    for (const [what, entries] of Object.entries(machines)) {
      const run = machine({ entries });
      await run.exitCode;
      expect(run.children.roles(), what).toEqual(['build', 'electron']);
    }
  });
});

describe('Electron dying before it could show its window', () => {
  it('falls back headless when Electron is killed by a signal in its first seconds, and says so', async () => {
    const run = machine({
      play: {
        electron: (call, clock) => {
          clock.time += 400;
          call.child.finish({ signal: 'SIGTRAP' });
        },
      },
    });
    expect(await run.exitCode).toBe(0);
    expect(run.children.roles()).toEqual(['build', 'electron', 'serve']);
    expect(run.output()).toContain(
      'the desktop app cannot start here: Electron was killed by SIGTRAP 0.4 s after it started, before it could show its window',
    );
  });

  it('repeats the sandbox fixes when that death happens on a system restricting user namespaces', async () => {
    // A profile names the binary, so the check before launch passes; it may not be loaded.
    const entries = {
      ...restricted({ uid: 1000, mode: 0o100755 }),
      '/etc/apparmor.d/wager-keeper-dev': `"${electronDirectory}/dist/electron" {\n userns,\n}`,
    };
    const run = machine({ entries, play: { electron: (call) => call.child.finish({ signal: 'SIGTRAP' }) } });
    await run.exitCode;
    expect(run.children.roles()).toEqual(['build', 'electron', 'serve']);
    expect(run.output()).toContain('sudo apparmor_parser -r /etc/apparmor.d/wager-keeper-dev');
  });

  it('falls back on a non-zero exit at launch, but not on a crash later or a quit', async () => {
    const at = (ms: number, end: { code?: number; signal?: string }) =>
      machine({
        play: {
          electron: (call, clock) => {
            clock.time += ms;
            call.child.finish(end);
          },
        },
      });
    const missingLibrary = at(200, { code: 127 });
    await missingLibrary.exitCode;
    expect(missingLibrary.children.roles()).toEqual(['build', 'electron', 'serve']);
    expect(missingLibrary.output()).toContain('Electron exited with code 127 0.2 s after it started');

    const laterCrash = at(60_000, { signal: 'SIGSEGV' });
    expect(await laterCrash.exitCode).toBe(128 + 11);
    expect(laterCrash.children.roles()).toEqual(['build', 'electron']);

    const quickQuit = at(300, { code: 0 });
    expect(await quickQuit.exitCode).toBe(0);
    expect(quickQuit.children.roles()).toEqual(['build', 'electron']);
  });
});

describe('Windows', () => {
  it('spawns this Node with the tools’ JS entry files and the Electron binary itself, never a node_modules/.bin shim', async () => {
    const run = machine({ platform: 'win32', env: {}, entries: freshElectronPackage() });
    expect(await run.exitCode).toBe(0);
    const commands = run.children.calls.map((call) => [call.command, ...call.args]);
    expect(commands).toEqual([
      [execPath, `${root}/node_modules/electron-vite/bin/electron-vite.js`, 'build', '--logLevel', 'warn'],
      [execPath, `${electronDirectory}/install.js`],
      [`${electronDirectory}/dist/electron.exe`, root],
    ]);
    expect(commands.flat().filter((part) => /[\\/]\.bin[\\/]|\.cmd$/.test(part))).toEqual([]);
  });

  it('answers a tool that cannot be spawned (its error event) with a fallback, not a crash', async () => {
    const run = machine({
      platform: 'win32',
      env: {},
      play: {
        electron: (call) =>
          call.child.emit('error', Object.assign(new Error('spawn UNKNOWN'), { code: 'UNKNOWN' })),
      },
    });
    expect(await run.exitCode).toBe(0);
    expect(run.children.roles()).toEqual(['build', 'electron', 'serve']);
    expect(run.output()).toContain('Electron could not be started (spawn UNKNOWN)');
  });
});

describe('the console UI build', () => {
  it('stops with exit code 1 and says what to do when the build fails, starting nothing on a missing page', async () => {
    const run = machine({ play: { build: (call) => call.child.finish({ code: 1 }) } });
    expect(await run.exitCode).toBe(1);
    expect(run.children.roles()).toEqual(['build']);
    expect(run.output()).toContain(
      'the console UI did not build (electron-vite exited with code 1; its errors, if any, are above). Fix them',
    );
  });

  it('WAGER_KEEPER_SKIP_UI_BUILD=1 uses the build in out/, and refuses when there is none', async () => {
    const skip = machine({ env: { DISPLAY: ':0', WAGER_KEEPER_SKIP_UI_BUILD: '1' } });
    await skip.exitCode;
    expect(skip.children.roles()).toEqual(['electron']);

    const entries = Object.fromEntries(
      Object.entries({ ...freshElectronPackage(), ...downloadedElectron('linux') }).filter(
        ([path]) => path !== `${root}/out/renderer/index.html`,
      ),
    );
    const none = machine({ env: { DISPLAY: ':0', WAGER_KEEPER_SKIP_UI_BUILD: '1' }, entries });
    expect(await none.exitCode).toBe(1);
    expect(none.children.roles()).toEqual([]);
    expect(none.output()).toContain(
      'out/ holds no built console (/app/out/renderer/index.html missing): unset it, or run `npm run build` first',
    );
  });
});

describe('stopping (Electron takes only the first SIGINT/SIGTERM/SIGHUP gracefully)', () => {
  /** Electron running until the test ends it; resolves once it has been spawned. */
  const runningElectron = (stdinIsTTY: boolean) => {
    const run = machine({ stdinIsTTY, play: { electron: () => {} } });
    const electron = once(run.children.spawned, 'electron').then(([call]) => call as SpawnCall);
    return { run, electron };
  };

  it('with a terminal: Ctrl-C is not sent again (the terminal sent it), SIGTERM is passed on once, and a stop never falls back', async () => {
    const { run, electron } = runningElectron(true);
    const { child } = await electron;
    run.signals.emit('SIGINT');
    run.signals.emit('SIGHUP');
    expect(child.kills).toEqual([]);
    run.signals.emit('SIGTERM');
    run.signals.emit('SIGTERM');
    expect(child.kills).toEqual(['SIGTERM']);
    child.finish({ signal: 'SIGINT' }); // within its first seconds, but asked to stop: no headless console
    expect(await run.exitCode).toBe(130);
    expect(run.children.roles()).toEqual(['build', 'electron']);
  });

  it('without a terminal (a supervisor): the first signal is passed on, once', async () => {
    const { run, electron } = runningElectron(false);
    const { child } = await electron;
    run.signals.emit('SIGINT');
    run.signals.emit('SIGINT');
    run.signals.emit('SIGHUP');
    expect(child.kills).toEqual(['SIGINT']);
    child.finish({ code: 0 });
    expect(await run.exitCode).toBe(0);
    expect(run.signals.listenerCount('SIGINT')).toBe(0);
  });

  it('a Ctrl-C during the download stops there: no desktop app, no headless console', async () => {
    const run = machine({ stdinIsTTY: true, entries: freshElectronPackage(), play: { install: () => {} } });
    const [install] = (await once(run.children.spawned, 'install')) as [SpawnCall];
    run.signals.emit('SIGINT');
    install.child.finish({ signal: 'SIGINT' });
    expect(await run.exitCode).toBe(130);
    expect(run.children.roles()).toEqual(['build', 'install']);
  });
});
