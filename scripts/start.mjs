// `npm start`: builds the console UI, then starts the desktop app where Electron can start (a binary and a
// display); otherwise says why and runs the headless console (`wager-keeper serve`), whose ready line
// prints the URL to open. Extra arguments go to `serve` (e.g. `npm start -- --port 7400`).
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { desktopUnavailableReason } from './desktop-launch.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);

process.stderr.write('wager-keeper: building the console UI (electron-vite build)…\n');
const build = spawnSync(bin('electron-vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) {
  process.stderr.write('wager-keeper: the console UI did not build (see above); the headless service still starts, its console URL answers 404\n');
}

const reason = desktopUnavailableReason({ env: process.env, platform: process.platform, electronDirectory: join(root, 'node_modules', 'electron') });
const [command, args] = reason
  ? [process.execPath, [join(root, 'bin', 'wager-keeper.js'), 'serve', ...process.argv.slice(2)]]
  : [bin('electron'), [root]];
if (reason) process.stderr.write(`wager-keeper: the desktop app cannot start here: ${reason}. Running the console headless instead: open the "console" URL of the ready line below in a browser on this machine.\n`);

const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
