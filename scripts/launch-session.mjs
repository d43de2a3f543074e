// `npm start` from start to finish: build the console UI, start the desktop app where Electron can start
// (downloading its binary the first time), otherwise say why and run the headless console
// (`wager-keeper serve`). Everything it touches (spawn, files, env, platform, signals, clock) is passed in,
// so every decision is tested on any machine (src-main/electron/__tests__/desktop-launch-*.test.ts);
// scripts/start.mjs passes the real ones.
import { constants } from 'node:os';
import { join } from 'node:path';
import { displayMissingReason, electronExecutable } from './desktop-launch.mjs';
import { downloadFailureReason, installerCommand } from './electron-download.mjs';
import { sandboxBlockReason, sandboxFixes, userNamespacesRestrictedHere } from './linux-sandbox.mjs';

/**
 * Electron that dies (by a signal, or with a non-zero code) this soon after it started never showed its
 * window: the sandbox abort (SIGTRAP), a missing shared library (code 127), a display it cannot open and a
 * main process that fails to load all end within about a second, and the window opens in one or two. 5 s
 * leaves room for a slow cold start; a later crash is the app's own failure, reported as such, not hidden
 * behind a switch to the headless console. A deliberate quit (code 0) or a stop we were asked for never
 * counts.
 */
export const EARLY_EXIT_MS = 5000;

/** Set to 1 to use the console already built in out/ (tests that start `npm start` as a process do). */
export const SKIP_UI_BUILD_VARIABLE = 'WAGER_KEEPER_SKIP_UI_BUILD';

const STOP_SIGNALS = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']);

/**
 * Which signals to pass on to the child. A terminal sends Ctrl-C's SIGINT to every process of the
 * foreground job, and an interactive shell that hangs up sends SIGHUP to every process of each job, so
 * with a terminal on stdin the child already has those: a second copy would kill Electron, whose handler
 * takes only the first SIGINT/SIGTERM/SIGHUP gracefully (and stops the keeper in `before-quit`).
 * SIGTERM comes from a person's or supervisor's `kill PID`, addressed to this process alone. Each is
 * forwarded once, for the same reason.
 * @param {boolean} stdinIsTTY
 */
export const forwardedSignals = (stdinIsTTY) => (stdinIsTTY ? ['SIGTERM'] : [...STOP_SIGNALS]);

/**
 * @typedef {{ on: (event: string, listener: (...args: any[]) => void) => unknown, kill: (signal?: string) => boolean, stderr?: { on: (event: 'data', listener: (chunk: Buffer | string) => void) => unknown } | null }} Child
 * @typedef {(command: string, args: string[], options: { cwd: string, env: Record<string, string | undefined>, stdio: unknown, windowsHide: boolean }) => Child} Spawn
 * @typedef {{ code: number | null, signal: string | null, error?: Error, stderr: string }} Outcome
 * @typedef {{ on: (signal: string, listener: () => void) => unknown, off: (signal: string, listener: () => void) => unknown }} SignalSource
 */

/**
 * Runs `npm start` and resolves with the exit code for the process.
 * @param {{
 *   root: string, args: string[], env: Record<string, string | undefined>, platform: string, execPath: string,
 *   stdinIsTTY: boolean, spawn: Spawn, files: import('./desktop-launch.mjs').Files, signals: SignalSource,
 *   write: (text: string) => void, now?: () => number, earlyExitMs?: number,
 * }} options
 * @returns {Promise<number>}
 */
export async function launch({
  root,
  args,
  env,
  platform,
  execPath,
  stdinIsTTY,
  spawn,
  files,
  signals,
  write,
  now = Date.now,
  earlyExitMs = EARLY_EXIT_MS,
}) {
  const say = (/** @type {string} */ text) => write(`wager-keeper: ${text}\n`);
  const electronDirectory = join(root, 'node_modules', 'electron');
  const stop = superviseStopSignals(signals, forwardedSignals(stdinIsTTY));

  /** Runs one child to its end; none is started once a stop was asked for. */
  const run = (
    /** @type {string} */ command,
    /** @type {string[]} */ commandArgs,
    /** @type {unknown} */ stdio,
  ) =>
    /** @type {Promise<Outcome>} */ (
      new Promise((resolve) => {
        if (stop.signal) return resolve({ code: null, signal: stop.signal, stderr: '' });
        /** @type {Child} */
        let child;
        try {
          child = spawn(command, commandArgs, { cwd: root, env, stdio, windowsHide: false });
        } catch (error) {
          // Node throws some spawn failures at once (e.g. EINVAL for a .cmd on Windows).
          return resolve({ code: null, signal: null, error: /** @type {Error} */ (error), stderr: '' });
        }
        stop.track(child);
        let stderr = '';
        child.stderr?.on('data', (chunk) => (stderr += chunk.toString()));
        // A child that cannot be spawned emits 'error' (unhandled, it would throw) and maybe never 'close'.
        child.on('error', (/** @type {Error} */ error) =>
          resolve({ code: null, signal: null, error, stderr }),
        );
        child.on('close', (/** @type {number | null} */ code, /** @type {string | null} */ signal) =>
          resolve({ code, signal, stderr }),
        );
      }).finally(() => stop.track(null))
    );
  const stoppedCode = () => 128 + (constants.signals[/** @type {NodeJS.Signals} */ (stop.signal)] ?? 0);

  /** Builds out/ with electron-vite's JS entry on this Node (the .bin shims cannot be spawned on Windows). */
  const buildConsole = async () => {
    const page = join(root, 'out', 'renderer', 'index.html');
    const main = join(root, 'out', 'main', 'main.js');
    if (env[SKIP_UI_BUILD_VARIABLE] === '1') {
      const missing = [page, main].filter((path) => !files.exists(path));
      if (missing.length === 0) return true;
      say(
        `${SKIP_UI_BUILD_VARIABLE}=1, but out/ holds no built console (${missing.join(', ')} missing): unset it, or run \`npm run build\` first`,
      );
      return false;
    }
    say('building the console UI (electron-vite build)…');
    const electronVite = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
    const built = await run(
      execPath,
      [electronVite, 'build', '--logLevel', 'warn'],
      ['ignore', 'ignore', 'inherit'],
    );
    if (built.code === 0 || stop.signal) return built.code === 0;
    // A failed build stops here rather than falling back: Electron would open a window on a missing page
    // (loadFile rejects) and `serve` would answer the console URL with 404, so neither is the console this
    // command promises. The build's own errors are printed above.
    const how = built.error
      ? `electron-vite could not run: ${built.error.message}`
      : built.signal
        ? `electron-vite was killed by ${built.signal}`
        : `electron-vite exited with code ${built.code}`;
    say(
      `the console UI did not build (${how}; its errors, if any, are above). Fix them (\`npm install\` if a package is missing) and run \`npm start\` again`,
    );
    return false;
  };

  /** @returns {Promise<{ executable: string } | { reason: string, advice?: string }>} */
  const desktopOrWhyNot = async () => {
    const noDisplay = displayMissingReason({ platform, env });
    if (noDisplay) return { reason: noDisplay };
    let electron = electronExecutable({ electronDirectory, platform, env, files });
    if ('unsupported' in electron) return { reason: electron.unsupported };
    if (!electron.installed) {
      if (electron.overridden)
        return {
          reason: `ELECTRON_OVERRIDE_DIST_PATH names no Electron build (${electron.executable} is missing)`,
        };
      say(
        'downloading the Electron binary (once for this install; about 100 MB) with node_modules/electron/install.js…',
      );
      const [command, commandArgs] = installerCommand({ electronDirectory, execPath });
      const installed = await run(command, commandArgs, ['ignore', 'ignore', 'pipe']);
      if (stop.signal) return { reason: `stopped by ${stop.signal}` };
      if (installed.error || installed.code !== 0)
        return { reason: downloadFailureReason({ ...installed, env }) };
      electron = electronExecutable({ electronDirectory, platform, env, files });
      if ('unsupported' in electron || !electron.installed) {
        return {
          reason: `Electron's installer finished, but no Electron binary is where it writes it (node_modules/electron/dist): delete node_modules/electron, run \`npm install\`, then \`npm start\``,
        };
      }
      say('Electron downloaded.');
    }
    const blocked = sandboxBlockReason({ platform, executable: electron.executable, files });
    if (blocked) return { reason: blocked, advice: fixesFor(electron.executable) };
    return { executable: electron.executable };
  };

  const fixesFor = (/** @type {string} */ executable) =>
    sandboxFixes({
      executable,
      profileTemplate: files.read(join(root, 'resources', 'linux', 'wager-keeper-dev.apparmor')),
    });

  try {
    if (!(await buildConsole())) return stop.signal ? stoppedCode() : 1;
    const desktop = await desktopOrWhyNot();
    if (stop.signal) return stoppedCode();
    let fallback = desktop;
    if ('executable' in desktop) {
      // The binary itself, not node_modules/electron/cli.js: cli.js forwards signals again, and Electron
      // takes only the first gracefully. Its app data is main.ts's business; nothing special is passed.
      const startedAt = now();
      const ran = await run(desktop.executable, [root], 'inherit');
      const seconds = (now() - startedAt) / 1000;
      const diedEarly =
        ran.error !== undefined || ((ran.signal !== null || ran.code !== 0) && seconds * 1000 < earlyExitMs);
      if (stop.signal || !diedEarly) return exitCodeOf(ran);
      const how = ran.error
        ? `could not be started (${ran.error.message})`
        : ran.signal
          ? `was killed by ${ran.signal}`
          : `exited with code ${ran.code}`;
      fallback = {
        reason: `Electron ${how} ${seconds.toFixed(1)} s after it started, before it could show its window (its own message, if any, is above)`,
        advice: userNamespacesRestrictedHere(platform, files)
          ? `This system restricts user namespaces, which Chromium's sandbox needs. ${fixesFor(desktop.executable)}`
          : undefined,
      };
    }
    say(`the desktop app cannot start here: ${fallback.reason}.`);
    if ('advice' in fallback && fallback.advice) write(`${fallback.advice}\n`);
    say(
      'running the console headless instead: open the "console" URL of the ready line below in a browser on this machine.',
    );
    const served = await run(execPath, [join(root, 'bin', 'wager-keeper.js'), 'serve', ...args], 'inherit');
    if (served.error) say(`could not start \`wager-keeper serve\`: ${served.error.message}`);
    return exitCodeOf(served);
  } finally {
    stop.dispose();
  }
}

/** A finished child's code as a shell reports it (128 + N for death by signal N). */
function exitCodeOf(/** @type {Outcome} */ { code, signal, error }) {
  if (error) return 1;
  if (signal) return 128 + (constants.signals[/** @type {NodeJS.Signals} */ (signal)] ?? 0);
  return code ?? 1;
}

/**
 * Listens for SIGINT, SIGTERM and SIGHUP for the whole run (so none kills this process while a child
 * runs), remembers the first (no further step starts after it) and passes the first forwardable one to
 * the child running then, once.
 * @param {SignalSource} signals
 * @param {string[]} forwardable
 */
function superviseStopSignals(signals, forwardable) {
  /** @type {Child | null} */
  let child = null;
  /** @type {string | null} */
  let first = null;
  let forwarded = false;
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = () => {
      first ??= signal;
      if (child && !forwarded && forwardable.includes(signal)) {
        forwarded = true;
        child.kill(signal);
      }
    };
    signals.on(signal, listener);
    return /** @type {const} */ ([signal, listener]);
  });
  return {
    get signal() {
      return first;
    },
    track(/** @type {Child | null} */ running) {
      child = running;
    },
    dispose() {
      for (const [signal, listener] of listeners) signals.off(signal, listener);
    },
  };
}
