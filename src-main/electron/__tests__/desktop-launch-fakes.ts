/**
 * A machine for `npm start`'s launcher (scripts/launch-session.mjs) to run on in tests: files in memory
 * (contents, or owner and mode), a spawn that plays each command's part, a clock and a signal source.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type FakeEntry = string | { uid: number; mode: number };

const missing = (path: string) =>
  Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), { code: 'ENOENT' });

/** Files in memory; a path is a directory when entries lie under it. */
export function fakeFiles(entries: Record<string, FakeEntry>) {
  const map = new Map(Object.entries(entries));
  const under = (directory: string) => [...map.keys()].filter((path) => path.startsWith(`${directory}/`));
  return {
    map,
    files: {
      exists: (path: string) => map.has(path) || under(path).length > 0,
      read: (path: string) => {
        const entry = map.get(path);
        if (typeof entry !== 'string') throw missing(path);
        return entry;
      },
      stat: (path: string) => {
        const entry = map.get(path);
        if (entry === undefined) throw missing(path);
        return typeof entry === 'string' ? { uid: 1000, mode: 0o100644 } : entry;
      },
      list: (directory: string) => {
        const names = under(directory).map((path) => path.slice(directory.length + 1).split('/')[0]!);
        if (names.length === 0) throw missing(directory);
        return [...new Set(names)];
      },
    },
  };
}

export const root = '/app';
export const execPath = '/opt/node24/bin/node';
export const electronDirectory = `${root}/node_modules/electron`;
export const profileTemplatePath = `${root}/resources/linux/wager-keeper-dev.apparmor`;
/** The real template from resources/, so the printed fix is the one users get. */
export const profileTemplate = readFileSync(
  join(import.meta.dirname, '..', '..', '..', 'resources', 'linux', 'wager-keeper-dev.apparmor'),
  'utf8',
);

const EXECUTABLES: Record<string, string> = {
  linux: 'electron',
  darwin: 'Electron.app/Contents/MacOS/Electron',
  win32: 'electron.exe',
};

/** What node_modules/electron holds right after `npm install` (Electron 42+: no binary yet). */
export const freshElectronPackage = (): Record<string, FakeEntry> => ({
  [`${electronDirectory}/package.json`]: JSON.stringify({ name: 'electron', version: '45.4.1' }),
  [`${electronDirectory}/install.js`]: '// the installer',
  [`${root}/out/renderer/index.html`]: '<!doctype html>',
  [`${root}/out/main/main.js`]: '// main',
  [profileTemplatePath]: profileTemplate,
});

/** What Electron's installer leaves once its download is extracted (install.js's extractFile). */
export const downloadedElectron = (platform = 'linux'): Record<string, FakeEntry> => ({
  [`${electronDirectory}/path.txt`]: EXECUTABLES[platform]!,
  [`${electronDirectory}/dist/version`]: '45.4.1',
  [`${electronDirectory}/dist/${EXECUTABLES[platform]}`]: { uid: 1000, mode: 0o100755 },
  ...(platform === 'linux'
    ? { [`${electronDirectory}/dist/chrome-sandbox`]: { uid: 1000, mode: 0o100755 } }
    : {}),
});

export class FakeChild extends EventEmitter {
  readonly stderr = new EventEmitter();
  readonly kills: string[] = [];
  kill(signal = 'SIGTERM') {
    this.kills.push(signal);
    return true;
  }
  /** Ends as a real child does: its stderr first, then 'close' with code or signal. */
  finish({
    code = 0,
    signal = null,
    stderr = '',
  }: { code?: number | null; signal?: string | null; stderr?: string } = {}) {
    if (stderr) this.stderr.emit('data', Buffer.from(stderr));
    this.emit('close', signal ? null : code, signal);
  }
}

export type Role = 'build' | 'install' | 'electron' | 'serve';
export interface SpawnCall {
  role: Role;
  command: string;
  args: string[];
  options: { cwd: string; env: Record<string, string | undefined>; stdio: unknown };
  child: FakeChild;
}

const roleOf = (args: string[]): Role => {
  if (args[0]?.endsWith('electron-vite.js')) return 'build';
  if (args[0]?.endsWith('install.js')) return 'install';
  if (args.includes('serve')) return 'serve';
  return 'electron';
};

/**
 * A spawn whose children do what `play[role]` says (by default: build and serve succeed, the installer
 * writes the binary and succeeds, Electron runs until the person quits it, code 0). Every spawn is recorded
 * and announced on `spawned` (event: the role).
 */
export function fakeSpawn(play: Partial<Record<Role, (call: SpawnCall) => void>>, onInstall?: () => void) {
  const calls: SpawnCall[] = [];
  const spawned = new EventEmitter();
  const defaults: Record<Role, (call: SpawnCall) => void> = {
    build: (call) => call.child.finish(),
    install: (call) => {
      onInstall?.();
      call.child.finish();
    },
    electron: (call) => call.child.finish(),
    serve: (call) => call.child.finish(),
  };
  const spawn = (command: string, args: string[], options: SpawnCall['options']) => {
    const call: SpawnCall = { role: roleOf(args), command, args, options, child: new FakeChild() };
    calls.push(call);
    // Children start after spawn() returns, as real ones do.
    setImmediate(() => {
      spawned.emit(call.role, call);
      (play[call.role] ?? defaults[call.role])(call);
    });
    return call.child;
  };
  return { spawn, calls, spawned, roles: () => calls.map((call) => call.role) };
}
