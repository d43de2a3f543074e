/**
 * `wager-keeper service install [--system] [--dry-run] [keeper flags...]`: the keeper flags are checked by
 * the parser `keeper` uses, every FILE made absolute, the key file and the programs checked; only then are
 * the unit (or plist) and its drop-in written and the service started, where a service manager runs.
 */
import { chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from './cli-flags';
import { flagsOf } from './host-flags';
import { parseHostFlags } from './host-flag-parsing';
import { keyFileProblem, programProblem } from '../service/key-file-check';
import type { ServiceHost } from '../service/service-host';
import { serviceFiles, serviceLocation, type ServiceLocation } from '../service/service-location';
import { writableFolders, type ServiceScope, type ServiceSpec } from '../service/service-spec';
import { runManagerCommands } from './service-manager-output';

/** The keeper flags whose value is a file: made absolute, as the service does not start in this folder. */
const FILE_FLAGS = new Set(flagsOf('keeper').filter(([, flag]) => flag.value === 'FILE').map(([name]) => `--${name}`));
/** The key files a keeper reads: each must be its owner's alone. */
const KEY_FLAGS = ['keypair', 'guardian-keypair', 'faucet-authority'] as const;

/** A word as a POSIX shell reads it back (for the commands printed to copy). */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`);

/** `args` with every FILE flag's value resolved against `cwd` (`--flag value` and `--flag=value`). */
function withAbsoluteFiles(args: string[], cwd: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const equals = arg.indexOf('=');
    if (arg.startsWith('--') && equals > 0 && FILE_FLAGS.has(arg.slice(0, equals))) out.push(arg.slice(0, equals), resolve(cwd, arg.slice(equals + 1)));
    else if (FILE_FLAGS.has(arg) && i + 1 < args.length) out.push(arg, resolve(cwd, args[++i]!));
    else out.push(arg);
  }
  return out;
}

/** The service's spec from the keeper flags; throws the first reason to refuse, before anything is written. */
export function planService(host: ServiceHost, scope: ServiceScope, keeperFlags: string[]): { spec: ServiceSpec; location: ServiceLocation } {
  if (scope === 'system' && host.platform === 'darwin') throw new UsageError('--system: on macOS the keeper runs as a launchd agent of your login (drop --system)');
  if (scope === 'system' && !host.root) throw new UsageError('--system writes to /etc/systemd/system: run it with sudo (the keeper then runs as you); without --system, a user unit needs no root');
  const args = withAbsoluteFiles(keeperFlags, host.cwd);
  const { values } = parseHostFlags('keeper', args);
  if (!values.keypair)
    throw new UsageError(
      'a service needs --keypair FILE: a server has no Secret Service to keep the key (`wager-keeper key export --out FILE` writes the keychain\'s key to a file, mode 0600)',
    );
  for (const flag of KEY_FLAGS) {
    const file = values[flag];
    const problem = file ? keyFileProblem(`--${flag}`, file) : null;
    if (problem) throw new Error(problem);
  }
  const problem = programProblem('the node binary', host.node, true) ?? programProblem('the keeper program', host.bin, false);
  if (problem) throw new Error(problem);

  const account = host.account(scope);
  // A system unit of another account (sudo) uses that account's folders, not this shell's.
  const ownEnvironment = scope === 'user' || account.uid === process.getuid?.();
  const dataHome = (ownEnvironment && host.env.XDG_DATA_HOME) || join(account.home, '.local', 'share');
  const configHome = (ownEnvironment && host.env.XDG_CONFIG_HOME) || join(account.home, '.config');
  const dataFolder = values.db ? dirname(values.db) : join(dataHome, 'wager-keeper');
  const logFile = values['log-file'] ?? join(dataFolder, 'logs', 'keeper.log');
  const spec: ServiceSpec = {
    scope,
    node: host.node,
    bin: host.bin,
    keeperArgs: values['log-file'] ? args : [...args, '--log-file', logFile],
    ...(scope === 'system' ? { user: account.user } : {}),
    environment: { XDG_DATA_HOME: dataHome, XDG_CONFIG_HOME: configHome },
    dataFolder,
    logFolder: dirname(logFile),
    otherWritableFolders: [join(configHome, 'wager-keeper')],
  };
  return { spec, location: serviceLocation(host, scope, account) };
}

/** Writes the plan: the keeper's folders (0700, the account's), then the manager's files; nothing before the checks. */
function writeService(host: ServiceHost, scope: ServiceScope, spec: ServiceSpec, files: { path: string; text: string }[]): void {
  const account = host.account(scope);
  for (const folder of writableFolders(spec)) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (host.root && account.uid !== 0) chownSync(folder, account.uid, account.gid);
  }
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true, mode: 0o755 });
    writeFileSync(file.path, file.text, { mode: 0o644 });
  }
}

/** Runs `service install`; resolves to the exit code. */
export function serviceInstall(host: ServiceHost, scope: ServiceScope, dryRun: boolean, keeperFlags: string[]): number {
  const { spec, location } = planService(host, scope, keeperFlags);
  const files = serviceFiles(location, spec);
  if (dryRun) {
    for (const file of files) process.stdout.write(`# ${file.path}\n${file.text}\n`);
    process.stdout.write('--dry-run: nothing written\n');
    return 0;
  }
  writeService(host, scope, spec, files);
  for (const file of files) process.stdout.write(`wrote ${file.path}\n`);
  const code = runManagerCommands(host, location.start, 'to start the keeper now and at every start');
  if (code === 0 && location.manager === 'systemd' && scope === 'user')
    process.stdout.write(`A user unit runs only while you are logged in, unless: loginctl enable-linger ${host.account(scope).user}\n`);
  if (code === 0) process.stdout.write(`The console URL, once it runs: wager-keeper console-url${spec.keeperArgs.includes('--db') ? ` --db ${shellWord(join(spec.dataFolder, 'keeper.db'))}` : ''}\n`);
  return code;
}
