/**
 * What `wager-keeper service` needs to know about the machine it runs on, in one object so tests hand in
 * their own folders and never start a real service: the platform, environment, the account the keeper
 * will run as, the programs the unit starts, where system units go, and how to run systemctl/launchctl.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { ServiceScope } from './service-spec';

/** The account the keeper runs as. */
export interface ServiceAccount {
  user: string;
  uid: number;
  gid: number;
  home: string;
}

/** A manager command's result; `unavailable`: it was not run, and why (no systemd as PID 1, ...). */
export type ManagerResult = { ok: boolean; output: string } | { unavailable: string };

export interface ServiceHost {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The absolute node binary and bin/wager-keeper.js the unit starts. */
  node: string;
  bin: string;
  /** Where system units go (/etc/systemd/system). */
  systemUnitFolder: string;
  /** Whether this process runs as root (it then hands the folders it makes to the account). */
  root: boolean;
  account(scope: ServiceScope): ServiceAccount;
  /** Runs systemctl or launchctl with these arguments (argv[0] is the program). */
  manage(argv: string[]): ManagerResult;
}

/** The passwd entry of `user`, or null. */
function passwdEntry(user: string): ServiceAccount | null {
  const text = existsSync('/etc/passwd') ? readFileSync('/etc/passwd', 'utf8') : '';
  for (const line of text.split('\n')) {
    const [name, , uid, gid, , home] = line.split(':');
    if (name === user && uid !== undefined && gid !== undefined && home !== undefined) return { user, uid: Number(uid), gid: Number(gid), home };
  }
  return null;
}

/** Whether `program` can be driven here: systemd must run as PID 1 (containers often have none). */
function whyUnavailable(program: string, platform: NodeJS.Platform): string | null {
  if (program === 'systemctl' && !existsSync('/run/systemd/system')) return 'systemd is not running on this machine (not PID 1, as in many containers)';
  if (program === 'launchctl' && platform !== 'darwin') return 'launchd runs on macOS only';
  return null;
}

/** This machine, this process: the real host. */
export function realServiceHost(node: string, bin: string): ServiceHost {
  const me = userInfo();
  const root = process.getuid?.() === 0;
  return {
    platform: process.platform,
    env: process.env,
    cwd: process.cwd(),
    node,
    bin,
    systemUnitFolder: '/etc/systemd/system',
    root,
    account(scope) {
      // `sudo wager-keeper service install --system`: the unit runs as the person who typed it, not root.
      const sudoUser = process.env.SUDO_USER;
      if (scope === 'system' && root && sudoUser && sudoUser !== 'root') {
        const entry = passwdEntry(sudoUser);
        if (entry) return entry;
      }
      return { user: me.username, uid: me.uid, gid: me.gid, home: process.env.HOME ?? me.homedir };
    },
    manage(argv) {
      const why = whyUnavailable(argv[0]!, process.platform);
      if (why) return { unavailable: why };
      const result = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 120_000 });
      const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? result.error.message : ''}`.trim();
      return { ok: result.status === 0, output };
    },
  };
}
