/**
 * What `wager-keeper service install` sets up, whatever the service manager: the command line the keeper
 * runs with (absolute paths), its environment, the folders it writes, and where the manager's files go.
 * systemd-unit.ts and launchd-plist.ts write it out; service-command.ts builds it from the flags.
 */

/** user: a systemd user unit or a launchd agent; system: a systemd system unit run as `user`. */
export type ServiceScope = 'user' | 'system';

/** The systemd unit's name and the launchd agent's label. */
export const SYSTEMD_UNIT_NAME = 'wager-keeper.service';
export const LAUNCHD_LABEL = 'dev.wagerkeeper.keeper';

/** Seconds the manager waits for a graceful stop: the keeper lets its cranks in flight land (up to 15 s), then closes. */
export const STOP_TIMEOUT_SECONDS = 60;
/** Seconds before a restart after the keeper exited. */
export const RESTART_DELAY_SECONDS = 5;

export interface ServiceSpec {
  scope: ServiceScope;
  /** The absolute node binary and the absolute bin/wager-keeper.js. */
  node: string;
  bin: string;
  /** The flags after `keeper`, with every FILE made absolute. */
  keeperArgs: string[];
  /** The account the system unit runs as (systemd `User=`). */
  user?: string;
  /** XDG_DATA_HOME and XDG_CONFIG_HOME as the keeper sees them, so `console-url` in a shell finds the same folder. */
  environment: Record<string, string>;
  /** The keeper's data folder (console-url.json, its SQLite file, alerts) and the log file's folder. */
  dataFolder: string;
  logFolder: string;
  /** Folders the keeper writes besides those two (its settings). */
  otherWritableFolders: string[];
}

/** Every folder the keeper writes, once each, in a stable order. */
export const writableFolders = (spec: ServiceSpec): string[] => [...new Set([spec.dataFolder, spec.logFolder, ...spec.otherWritableFolders])];

/** The command line, as an argument vector: node, the bin, `keeper`, the flags. */
export const commandLine = (spec: ServiceSpec): string[] => [spec.node, spec.bin, 'keeper', ...spec.keeperArgs];
