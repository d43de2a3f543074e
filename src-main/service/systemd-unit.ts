/**
 * The systemd unit `wager-keeper service install` writes: the keeper restarted always, a stop timeout
 * long enough for the graceful stop, logs to the journal, and the sandboxing a careful admin expects (the
 * filesystem read-only but for the keeper's own folders). Its environment goes into a drop-in, so an
 * admin's `systemctl edit` overrides sit beside it. No MemoryDenyWriteExecute: Node's JIT needs W+X pages.
 */
import { commandLine, RESTART_DELAY_SECONDS, STOP_TIMEOUT_SECONDS, writableFolders, type ServiceSpec } from './service-spec';

/** The drop-in's file name inside wager-keeper.service.d/. */
export const ENVIRONMENT_DROP_IN = '10-environment.conf';

/** A key an installed unit carries for `service status`: systemd ignores keys starting with X-. */
export const DATA_FOLDER_KEY = 'X-WagerKeeper-DataFolder';

/**
 * One word of a systemd command line or list, as systemd reads it back: plain when it can be, else in
 * double quotes with `\` and `"` escaped; `%` (specifiers) doubled, and on a command line (ExecStart=,
 * where systemd expands variables) `$` doubled too.
 */
export function systemdWord(word: string, onCommandLine = false): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  if (/[\u0000-\u001f\u007f]/.test(word)) throw new Error(`cannot put ${JSON.stringify(word)} in a systemd unit: it holds a control character`);
  const escaped = onCommandLine ? word.replaceAll('%', '%%').replaceAll('$', '$$$$') : word.replaceAll('%', '%%');
  if (word !== '' && /^[\w@%+=:,./$-]+$/.test(word)) return escaped;
  return `"${escaped.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

const lines = (...rows: (string | false | undefined)[]) => `${rows.filter((row) => typeof row === 'string').join('\n')}\n`;

/** The unit file's text. */
export function systemdUnit(spec: ServiceSpec): string {
  const system = spec.scope === 'system';
  return lines(
    '# Written by `wager-keeper service install` (docs/keeper.md, Running on a server). Its environment is in',
    `# wager-keeper.service.d/${ENVIRONMENT_DROP_IN}; add your own overrides with \`systemctl${system ? '' : ' --user'} edit wager-keeper\`.`,
    '[Unit]',
    'Description=Wager Keeper: the keeper that cranks wagers',
    'Wants=network-online.target',
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    system && `User=${systemdWord(spec.user!)}`,
    `ExecStart=${commandLine(spec).map((word) => systemdWord(word, true)).join(' ')}`,
    'Restart=always',
    `RestartSec=${RESTART_DELAY_SECONDS}`,
    // SIGTERM starts the graceful stop (cranks in flight land first); SIGKILL only after this long.
    'KillSignal=SIGTERM',
    `TimeoutStopSec=${STOP_TIMEOUT_SECONDS}`,
    'StandardOutput=journal',
    'StandardError=journal',
    'SyslogIdentifier=wager-keeper',
    `${DATA_FOLDER_KEY}=${spec.dataFolder}`,
    'UMask=0077',
    'NoNewPrivileges=yes',
    'ProtectSystem=strict',
    'ProtectHome=read-only',
    `ReadWritePaths=${writableFolders(spec).map((folder) => systemdWord(folder)).join(' ')}`,
    'PrivateTmp=yes',
    'PrivateDevices=yes',
    'ProtectKernelTunables=yes',
    'ProtectKernelModules=yes',
    'ProtectControlGroups=yes',
    'RestrictSUIDSGID=yes',
    'LockPersonality=yes',
    'RestrictRealtime=yes',
    'RestrictNamespaces=yes',
    'SystemCallArchitectures=native',
    '',
    '[Install]',
    `WantedBy=${system ? 'multi-user.target' : 'default.target'}`,
  );
}

/** The drop-in with the keeper's environment (its data and settings folders). */
export function systemdEnvironmentDropIn(spec: ServiceSpec): string {
  return lines(
    '# Written by `wager-keeper service install`: the folders the keeper (and `wager-keeper console-url`) use.',
    '[Service]',
    ...Object.entries(spec.environment).map(([name, value]) => `Environment=${systemdWord(`${name}=${value}`)}`),
  );
}

/** The installed unit's data folder (from its X- key), or null. */
export const dataFolderOfUnit = (unitText: string): string | null =>
  new RegExp(`^${DATA_FOLDER_KEY}=(.+)$`, 'm').exec(unitText)?.[1] ?? null;
