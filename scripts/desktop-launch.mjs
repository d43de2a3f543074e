// Whether the desktop app can start here, and if not, why: pure checks over injected files and env, so
// tests can play any machine. Plain .mjs: `npm start` runs it before anything is built, and
// e2e/electron.spec.ts uses `desktopUnavailableReason` to decide whether to skip (it never downloads).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxBlockReason } from './linux-sandbox.mjs';

/**
 * @typedef {{ exists: (path: string) => boolean, read: (path: string) => string, stat: (path: string) => { uid: number, mode: number }, list: (directory: string) => string[] }} Files
 * Reading files is all these checks do; a missing file makes `read`, `stat` and `list` throw.
 */

/** @type {Files} */
export const machineFiles = {
  exists: existsSync,
  read: (path) => readFileSync(path, 'utf8'),
  stat: (path) => statSync(path),
  list: (directory) => readdirSync(directory),
};

/** The executable inside node_modules/electron/dist for each platform, as Electron's install.js names it. */
const EXECUTABLE_BY_PLATFORM = {
  darwin: 'Electron.app/Contents/MacOS/Electron',
  mas: 'Electron.app/Contents/MacOS/Electron',
  linux: 'electron',
  freebsd: 'electron',
  openbsd: 'electron',
  win32: 'electron.exe',
};

/** Platforms whose Electron draws through X11 or Wayland, so it needs one of them. */
const DISPLAY_SERVER_PLATFORMS = new Set(['linux', 'freebsd', 'openbsd']);

const readOrNull = (/** @type {Files} */ files, /** @type {string} */ path) => {
  try {
    return files.read(path);
  } catch {
    return null;
  }
};

/**
 * The Electron executable `npm start` runs, and whether it is installed. "Installed" is exactly what
 * node_modules/electron/install.js checks before it skips the download: dist/version is the package's
 * version, path.txt names this platform's executable, and that file exists. (Electron 42+ has no
 * postinstall, so after `npm install` none of these exist until the installer has run once.)
 * ELECTRON_OVERRIDE_DIST_PATH points at a build elsewhere, as the `electron` command honours it; it is never downloaded.
 * @param {{ electronDirectory: string, platform: string, env: Record<string, string | undefined>, files?: Files }} options
 * @returns {{ executable: string, installed: boolean, overridden: boolean } | { unsupported: string }}
 */
export function electronExecutable({ electronDirectory, platform, env, files = machineFiles }) {
  const name = EXECUTABLE_BY_PLATFORM[/** @type {keyof typeof EXECUTABLE_BY_PLATFORM} */ (platform)];
  if (!name) return { unsupported: `Electron has no build for this platform (${platform})` };
  const pathFile = readOrNull(files, join(electronDirectory, 'path.txt'));
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const executable = join(override, pathFile?.trim() || name);
    return { executable, installed: files.exists(executable), overridden: true };
  }
  const executable = join(electronDirectory, 'dist', name);
  const packageVersion = JSON.parse(
    readOrNull(files, join(electronDirectory, 'package.json')) ?? '{}',
  ).version;
  const distVersion = readOrNull(files, join(electronDirectory, 'dist', 'version'))
    ?.trim()
    .replace(/^v/, '');
  const installed = pathFile?.trim() === name && distVersion === packageVersion && files.exists(executable);
  return { executable, installed, overridden: false };
}

/**
 * Why Electron cannot draw a window here (no X11 or Wayland display), or null.
 * @param {{ platform: string, env: Record<string, string | undefined> }} options
 */
export function displayMissingReason({ platform, env }) {
  if (DISPLAY_SERVER_PLATFORMS.has(platform) && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)';
  }
  return null;
}

/**
 * Why the desktop app cannot start on this machine as it is now (every reason that applies), or null when
 * it can. It only looks: a missing binary is reported, never downloaded (`npm start` downloads it).
 * @param {{ env: Record<string, string | undefined>, platform: string, electronDirectory: string, files?: Files }} options
 */
export function desktopUnavailableReason({ env, platform, electronDirectory, files = machineFiles }) {
  const electron = electronExecutable({ electronDirectory, platform, env, files });
  const reasons = [displayMissingReason({ platform, env })];
  if ('unsupported' in electron) reasons.push(electron.unsupported);
  else if (!electron.installed) {
    reasons.push(
      electron.overridden
        ? `ELECTRON_OVERRIDE_DIST_PATH names no Electron build (${electron.executable} is missing)`
        : `the Electron binary is not downloaded (${electron.executable} is missing): \`npm start\` downloads it, or run \`npx install-electron --no\``,
    );
  } else reasons.push(sandboxBlockReason({ platform, executable: electron.executable, files }));
  const found = reasons.filter((reason) => reason !== null);
  return found.length > 0 ? found.join('; and ') : null;
}
