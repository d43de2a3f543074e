/**
 * Where the service manager's files go and which commands drive it: a systemd unit (user: under
 * $XDG_CONFIG_HOME/systemd/user; system: /etc/systemd/system) with its drop-in folder, or on macOS a
 * launchd agent in ~/Library/LaunchAgents, bootstrapped into the login session (gui/UID).
 */
import { join } from 'node:path';
import { launchdPlist } from './launchd-plist';
import type { ServiceAccount, ServiceHost } from './service-host';
import { LAUNCHD_LABEL, SYSTEMD_UNIT_NAME, type ServiceScope, type ServiceSpec } from './service-spec';
import { ENVIRONMENT_DROP_IN, systemdEnvironmentDropIn, systemdUnit } from './systemd-unit';

export interface ServiceLocation {
  manager: 'systemd' | 'launchd';
  /** The unit or the plist. */
  mainFile: string;
  /** systemd's wager-keeper.service.d/ (removed whole on uninstall). */
  dropInFolder: string | null;
  /** Run after the files are written, to start the keeper now and at every boot or login. */
  start: string[][];
  /** Run before the files are removed, then after. */
  stop: string[][];
  afterRemoval: string[][];
  /** Asks whether it runs ("active") and starts at boot ("enabled"). */
  isActive: string[];
  isEnabled: string[] | null;
}

/** Where `scope`'s service lives on this host, and its manager's commands. */
export function serviceLocation(host: ServiceHost, scope: ServiceScope, account: ServiceAccount): ServiceLocation {
  if (host.platform === 'darwin') {
    const domain = `gui/${account.uid}`;
    const mainFile = join(account.home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
    return {
      manager: 'launchd',
      mainFile,
      dropInFolder: null,
      start: [['launchctl', 'bootstrap', domain, mainFile]],
      stop: [['launchctl', 'bootout', `${domain}/${LAUNCHD_LABEL}`]],
      afterRemoval: [],
      isActive: ['launchctl', 'print', `${domain}/${LAUNCHD_LABEL}`],
      isEnabled: null,
    };
  }
  const folder = scope === 'system' ? host.systemUnitFolder : join(host.env.XDG_CONFIG_HOME || join(account.home, '.config'), 'systemd', 'user');
  const systemctl = scope === 'system' ? ['systemctl'] : ['systemctl', '--user'];
  return {
    manager: 'systemd',
    mainFile: join(folder, SYSTEMD_UNIT_NAME),
    dropInFolder: join(folder, `${SYSTEMD_UNIT_NAME}.d`),
    start: [
      [...systemctl, 'daemon-reload'],
      [...systemctl, 'enable', '--now', 'wager-keeper'],
    ],
    stop: [[...systemctl, 'disable', '--now', 'wager-keeper']],
    afterRemoval: [[...systemctl, 'daemon-reload']],
    isActive: [...systemctl, 'is-active', 'wager-keeper'],
    isEnabled: [...systemctl, 'is-enabled', 'wager-keeper'],
  };
}

/** The files the service is made of, with their text. */
export function serviceFiles(location: ServiceLocation, spec: ServiceSpec): { path: string; text: string }[] {
  if (location.manager === 'launchd') return [{ path: location.mainFile, text: launchdPlist(spec) }];
  return [
    { path: location.mainFile, text: systemdUnit(spec) },
    { path: join(location.dropInFolder!, ENVIRONMENT_DROP_IN), text: systemdEnvironmentDropIn(spec) },
  ];
}
