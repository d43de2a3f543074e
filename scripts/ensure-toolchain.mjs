#!/usr/bin/env node
// Installs what the tests and the program build need and a fresh machine lacks, from Debian's packages.
// Runs before `npm test` and `npm run build:programs`. Plain .mjs: it must run before anything is compiled.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** Commands the project needs, and the Debian package that provides each (`path`: looked for there, not on PATH). */
const REQUIRED = [
  { command: 'clang-19', debianPackage: 'clang-19' }, // builds the on-chain programs
  { command: 'dbus-run-session', debianPackage: 'dbus' }, // a session bus for the OS keychain tests
  { command: 'gnome-keyring-daemon', debianPackage: 'gnome-keyring' }, // the Secret Service behind @napi-rs/keyring
  { command: 'chromium', debianPackage: 'chromium' }, // the console's browser tests (Playwright drives /usr/bin/chromium)
  { command: 'promtool', debianPackage: 'prometheus' }, // checks and unit-tests monitoring/'s alert rules
  // A real SSH server for the desktop app's remote keepers (issue 36); /usr/sbin is not on every user's PATH.
  { command: 'sshd', path: '/usr/sbin/sshd', debianPackage: 'openssh-server' },
  { command: 'systemd-analyze', debianPackage: 'systemd' }, // verifies the units `wager-keeper service install` writes
];

const isOnPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const isInstalled = ({ command, path }) => (path ? existsSync(path) : isOnPath(command));

const missing = REQUIRED.filter((required) => !isInstalled(required));
if (missing.length > 0) {
  const packages = missing.map((m) => m.debianPackage);
  const asRoot = process.getuid?.() === 0;
  const prefix = asRoot ? [] : isOnPath('sudo') ? ['sudo', '-n'] : null;
  if (prefix === null || !isOnPath('apt-get')) {
    console.error(`ensure-toolchain: missing ${missing.map((m) => m.command).join(', ')}; install Debian packages: ${packages.join(' ')}`);
    process.exit(1);
  }
  console.error(`ensure-toolchain: installing ${packages.join(' ')} from Debian`);
  const run = (args) => execFileSync(prefix[0] ?? args[0], prefix.length ? [...prefix.slice(1), ...args] : args.slice(1), {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages]);
}

// The committed programs are reproducible only with the clang that built them (program/toolchain/
// CLANG_VERSION): Debian point releases of clang-19 may change code generation. Said here, not refused:
// the reproducible-build test fails, naming the same cause, if the bytes really differ.
const recordFile = new URL('../program/toolchain/CLANG_VERSION', import.meta.url);
const recorded = existsSync(recordFile) ? readFileSync(recordFile, 'utf8').split('\n')[0].trim() : '';
const version = spawnSync('clang-19', ['--version'], { encoding: 'utf8' });
const installed = version.status === 0 ? version.stdout.split('\n')[0].trim() : '';
if (recorded && installed && installed !== recorded) {
  console.error(
    `ensure-toolchain: warning: the installed clang-19 is "${installed}" but the committed programs were built ` +
      `with "${recorded}" (program/toolchain/CLANG_VERSION): rebuilt .so files may differ from the committed ones`,
  );
}

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  console.error(`ensure-toolchain: running on Node ${process.version}; the project needs the pinned Node 24 (run through npm scripts)`);
  process.exit(1);
}
