#!/usr/bin/env node
// Entry of the `wager-keeper` command. Plain JS so any Node can start it: on a Node older than 22 (the
// system Node 20 of some machines) it re-runs itself on the project's pinned Node 24 from node_modules.
//
// The re-run is a child process that this one stands in for, as a supervisor (systemd, pm2, a shell's
// `kill PID`) sees it: SIGINT, SIGTERM and SIGHUP sent to this process are forwarded to the child, this
// process exits with the child's exit code (or dies of the child's signal), and the child stops itself
// when this process goes away without telling it (SIGKILL): it watches an IPC channel to this process.
//
// WAGER_KEEPER_FORCE_REEXEC=1 takes the re-run path on any Node (tests use it to exercise the wrapper
// when they already run on the pinned Node); the child does not inherit it.
//
// The CLI itself is built JavaScript, out/main/cli.js (`npm run build`, `npm start` and `npm test` build
// it with the app). In a development checkout the TypeScript sources run through tsx instead when the
// build is missing or older than a file under src-main/ (so an edit never runs yesterday's build; the
// check stats ~240 files, about 6 ms of a 35 ms `--help`), or when WAGER_KEEPER_FROM_SOURCE=1;
// WAGER_KEEPER_FROM_SOURCE=0 runs the build whenever there is one, unchecked. Without a build and
// without tsx (a production install) it exits 1 saying to run `npm run build`.
import { spawn } from 'node:child_process';
import { setTimeout } from 'node:timers';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const major = Number(process.versions.node.split('.')[0]);
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

if (major < 22 || process.env.WAGER_KEEPER_FORCE_REEXEC === '1') {
  const pinned = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(pinned)) {
    console.error(`wager-keeper needs Node >= 22.12 (found ${process.version}); run \`npm install\` in ${root} first`);
    process.exit(1);
  }
  const env = { ...process.env, WAGER_KEEPER_WRAPPED: '1' };
  delete env.WAGER_KEEPER_FORCE_REEXEC;
  const child = spawn(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env,
  });
  const forward = (signal) => {
    // A Ctrl-C reaches the child from the terminal too; the child treats the second copy as a repeat.
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  child.on('error', (error) => {
    console.error(`wager-keeper: cannot start ${pinned}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const name of FORWARDED_SIGNALS) process.off(name, forward);
    if (signal) {
      // Die of the same signal, as a shell or supervisor expects; 128 + N should the signal not end us.
      process.kill(process.pid, signal);
      setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 1000).unref();
      return;
    }
    process.exit(code ?? 1);
  });
} else {
  if (process.env.WAGER_KEEPER_WRAPPED === '1' && process.channel) {
    // Started by the wrapper above: when it is gone (even by SIGKILL) stop as on SIGTERM, never linger.
    delete process.env.WAGER_KEEPER_WRAPPED;
    process.channel.unref();
    process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  }
  const { main } = await loadCli();
  const code = await main(process.argv.slice(2));
  // A command that failed may leave timers or sockets behind (a server that could not listen after
  // others started): exit now rather than hang with the error printed.
  if (code !== 0) process.exit(code);
  process.exitCode = code;
}

/** The newest modification time of a file under `folder` (tests excluded), or 0 when there is none. */
function newestSourceMtime(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.parentPath.includes('__tests__')) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Whether to run src-main/cli.ts rather than an existing build (see the top of this file). */
function wantsSource(built, sources) {
  const forced = process.env.WAGER_KEEPER_FROM_SOURCE;
  if (forced === '1' || forced === '0') return forced === '1';
  return existsSync(sources) && newestSourceMtime(sources) > statSync(built).mtimeMs;
}

/** tsx's register(), or undefined where tsx (a dev dependency) is not installed. */
async function tsxRegister() {
  try {
    return (await import('tsx/esm/api')).register;
  } catch {
    return undefined;
  }
}

/** The CLI module: the build, or the sources compiled on load by tsx. */
async function loadCli() {
  const built = join(root, 'out', 'main', 'cli.js');
  const sources = join(root, 'src-main');
  const isBuilt = existsSync(built);
  if (!isBuilt || wantsSource(built, sources)) {
    const register = existsSync(join(sources, 'cli.ts')) ? await tsxRegister() : undefined;
    if (register) {
      register();
      return import(pathToFileURL(join(sources, 'cli.ts')).href);
    }
    if (!isBuilt) {
      console.error(`wager-keeper is not built: run \`npm run build\` in ${root}, then run the command again`);
      process.exit(1);
    }
  }
  return import(pathToFileURL(built).href);
}
