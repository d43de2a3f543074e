// `npm start`: builds the console UI, then starts the desktop app where Electron can start (a display, the
// Electron binary, downloaded on the first start, and on Ubuntu 23.10+ a sandbox it may use); otherwise
// says why and runs the headless console (`wager-keeper serve`), whose ready line prints the URL to open.
// Extra arguments go to `serve` (e.g. `npm start -- --port 7400`). WAGER_KEEPER_SKIP_UI_BUILD=1 uses the
// console already built in out/. The decisions live in launch-session.mjs, tested with everything injected.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { machineFiles } from './desktop-launch.mjs';
import { launch } from './launch-session.mjs';

process.exitCode = await launch({
  root: fileURLToPath(new URL('..', import.meta.url)),
  args: process.argv.slice(2),
  env: process.env,
  platform: process.platform,
  execPath: process.execPath,
  stdinIsTTY: process.stdin.isTTY === true,
  spawn,
  files: machineFiles,
  signals: process,
  write: (text) => process.stderr.write(text),
});
