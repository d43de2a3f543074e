/**
 * A ServiceHost for tests: this machine's node and bin, every folder under `root` (the user's home and
 * config, the system unit folder), and a service manager that is never run (`unavailable`), so no test
 * starts or stops a real service, whether or not systemd runs where the tests do.
 */
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { ServiceHost } from '../service-host';

export const BIN = join(import.meta.dirname, '..', '..', '..', 'bin', 'wager-keeper.js');

/** The test host; `overrides` changes one thing (the platform, a missing bin, ...). */
export function testServiceHost(root: string, overrides: Partial<ServiceHost> = {}): ServiceHost {
  const me = userInfo();
  const home = join(root, 'home');
  return {
    platform: 'linux',
    env: { XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share') },
    cwd: root,
    node: process.execPath,
    bin: BIN,
    systemUnitFolder: join(root, 'etc', 'systemd', 'system'),
    root: false,
    account: () => ({ user: me.username, uid: me.uid, gid: me.gid, home }),
    manage: () => ({ unavailable: 'the tests start no service' }),
    ...overrides,
  };
}
