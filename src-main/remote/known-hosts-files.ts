/**
 * The two known_hosts files the desktop app checks a server's host key against: the user's own
 * `~/.ssh/known_hosts` (read only) and the app's `<userData>/known_hosts`.
 *
 * Why a file of its own: the app never edits the user's ssh files. A key the operator accepts in the app
 * is appended to the app's file only, so `ssh` keeps its own trust decisions, a hand-kept (or hashed,
 * or managed) ~/.ssh/known_hosts is never rewritten, and removing a server from the app can forget the
 * key the app accepted for it without touching anything ssh relies on. Both files are read on every
 * connect: a key added with `ssh` later counts at once.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { hostsFieldMatches, knownHostLine, parseKnownHosts, preferredHostKeyAlgorithms, verifyHostKey, type HostKeyVerdict, type KnownHostLine } from './known-hosts';

export interface KnownHostsFiles {
  /** The user's file first, then the app's. */
  readonly paths: { user: string; app: string };
  verify(host: string, port: number, key: Buffer): Promise<HostKeyVerdict>;
  /** The host key algorithms known for `host:port`, to ask for first (preferredHostKeyAlgorithms). */
  knownAlgorithms(host: string, port: number): Promise<string[]>;
  /** Appends the accepted key to the app's own file (0600). */
  accept(host: string, port: number, key: Buffer): Promise<void>;
  /** Drops the app's own lines for `host:port` (a removed server); the user's file is never edited. */
  forget(host: string, port: number): Promise<void>;
}

const readLines = async (path: string): Promise<KnownHostLine[]> =>
  existsSync(path) ? parseKnownHosts(await readFile(path, 'utf8').catch(() => ''), path) : [];

/** Writes `text` to `path` through a temporary file and a rename, so a crash never leaves half a file. */
export async function writeFileAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

/** The known_hosts files of this user and of the app (`appFile`: `<userData>/known_hosts`). */
export function knownHostsFiles(appFile: string, userFile = join(homedir(), '.ssh', 'known_hosts')): KnownHostsFiles {
  // Writes one at a time: two accepts at once must both land.
  let writing: Promise<void> = Promise.resolve();
  const rewrite = (change: (text: string) => string) => {
    const next = writing.then(async () => {
      const text = existsSync(appFile) ? await readFile(appFile, 'utf8') : '';
      await writeFileAtomically(appFile, change(text));
    });
    writing = next.catch(() => undefined);
    return next;
  };
  return {
    paths: { user: userFile, app: appFile },
    async verify(host, port, key) {
      const lines = [...(await readLines(userFile)), ...(await readLines(appFile))];
      return verifyHostKey(lines, host, port, key);
    },
    async knownAlgorithms(host, port) {
      return preferredHostKeyAlgorithms([...(await readLines(userFile)), ...(await readLines(appFile))], host, port);
    },
    accept: (host, port, key) =>
      rewrite((text) => `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${knownHostLine(host, port, key)}\n`),
    forget: (host, port) =>
      rewrite((text) =>
        text
          .split('\n')
          .filter((line) => {
            const [hosts] = line.trim().split(/\s+/);
            return !hosts || hosts.startsWith('#') || hosts.startsWith('@') || !hostsFieldMatches(hosts, host, port);
          })
          .join('\n'),
      ),
  };
}
