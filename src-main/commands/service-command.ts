/**
 * `wager-keeper service install|status|uninstall [--system]`: the keeper as a service of this machine's
 * service manager (a systemd user or system unit; a launchd agent on macOS), issue 36. install is in
 * service-install.ts; status prints one JSON line; uninstall stops it and removes what install wrote.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { UsageError } from './cli-flags';
import { projectPath } from '../project-root';
import { readRunningConsoleUrl } from '../service/console-url-file';
import { dataFolderOfPlist } from '../service/launchd-plist';
import { realServiceHost, type ServiceHost } from '../service/service-host';
import { serviceLocation } from '../service/service-location';
import type { ServiceScope } from '../service/service-spec';
import { dataFolderOfUnit } from '../service/systemd-unit';
import { serviceInstall } from './service-install';
import { runManagerCommands } from './service-manager-output';

/** The flags of `service` itself (the keeper's follow install; the usage text lists each, a test checks). */
export const SERVICE_OPTIONS = { system: { type: 'boolean' }, 'dry-run': { type: 'boolean' } } as const;

/** `service status`: where the unit is, whether it is installed, running and enabled, and its console URL while it runs. */
function serviceStatus(host: ServiceHost, scope: ServiceScope): number {
  const location = serviceLocation(host, scope, host.account(scope));
  const installed = existsSync(location.mainFile);
  const ask = (argv: string[] | null) => {
    const result = argv && installed ? host.manage(argv) : null;
    return result && !('unavailable' in result) ? result : null;
  };
  const active = ask(location.isActive);
  const enabled = ask(location.isEnabled);
  const text = installed ? readFileSync(location.mainFile, 'utf8') : '';
  const dataFolder = location.manager === 'systemd' ? dataFolderOfUnit(text) : dataFolderOfPlist(text);
  const running = dataFolder ? readRunningConsoleUrl(dataFolder) : null;
  const status = {
    manager: location.manager,
    scope,
    unit: location.mainFile,
    installed,
    ...(active ? { active: location.manager === 'systemd' ? active.output : active.ok ? 'loaded' : 'not loaded' } : {}),
    ...(enabled ? { enabled: enabled.output } : {}),
    ...(dataFolder ? { dataFolder } : {}),
    ...(running ? { console: running.url, pid: running.pid, startedAt: running.startedAt } : {}),
  };
  process.stdout.write(`${JSON.stringify(status)}\n`);
  return 0;
}

/** `service uninstall`: stops and disables it where a manager runs, removes the unit and its drop-ins, reloads. */
function serviceUninstall(host: ServiceHost, scope: ServiceScope): number {
  const location = serviceLocation(host, scope, host.account(scope));
  if (!existsSync(location.mainFile)) {
    process.stdout.write(`nothing to remove: ${location.mainFile} is not there\n`);
    return 0;
  }
  const stopped = runManagerCommands(host, location.stop);
  if (stopped !== 0) return stopped;
  rmSync(location.mainFile, { force: true });
  process.stdout.write(`removed ${location.mainFile}\n`);
  if (location.dropInFolder && existsSync(location.dropInFolder)) {
    rmSync(location.dropInFolder, { recursive: true, force: true });
    process.stdout.write(`removed ${location.dropInFolder}\n`);
  }
  return runManagerCommands(host, location.afterRemoval);
}

/** Runs `wager-keeper service ...`; `host` is this machine unless a test hands in its own. */
export function serviceCommand(args: string[], host: ServiceHost = realServiceHost(process.execPath, projectPath('bin', 'wager-keeper.js'))): Promise<number> {
  const [action, ...rest] = args;
  // --system and --dry-run are the service's; every other flag goes to the keeper (before a `--`, as parseArgs reads).
  const end = rest.indexOf('--');
  const own = (name: string) => rest.some((arg, i) => arg === `--${name}` && (end < 0 || i < end));
  const scope: ServiceScope = own('system') ? 'system' : 'user';
  const dryRun = own('dry-run');
  const keeperFlags = rest.filter((arg, i) => !((arg === '--system' || arg === '--dry-run') && (end < 0 || i < end)));
  if (action === 'install') return Promise.resolve(serviceInstall(host, scope, dryRun, keeperFlags));
  if (keeperFlags.length > 0 || dryRun) throw new UsageError(`service ${action ?? ''} takes only --system (got ${[...keeperFlags, ...(dryRun ? ['--dry-run'] : [])].join(' ')})`);
  if (action === 'status') return Promise.resolve(serviceStatus(host, scope));
  if (action === 'uninstall') return Promise.resolve(serviceUninstall(host, scope));
  throw new UsageError(`service needs install, status or uninstall (got ${action === undefined ? 'nothing' : `'${action}'`})`);
}
