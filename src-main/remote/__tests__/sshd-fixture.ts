/**
 * A real OpenSSH server for tests (Debian's /usr/sbin/sshd): on 127.0.0.1 on a free port, with its own
 * ed25519 host key, config, pid file and authorized_keys (one generated client key) in a temp folder,
 * root login by key only, and a `wager-keeper` on its PATH that runs this checkout's bin/wager-keeper.js.
 * It can be stopped (the listener and every session it serves) and started again on the same port and
 * key, or started presenting ANOTHER host key. No vitest import: the desktop Playwright spec uses it too.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

const SSHD = '/usr/sbin/sshd';
const repo = resolve(import.meta.dirname, '../../..');

export interface SshdOptions {
  /** Extra `SetEnv` variables of every session (e.g. XDG_DATA_HOME, so `wager-keeper console-url` finds the keeper). */
  env?: Record<string, string>;
}

export interface SshdFixture {
  host: '127.0.0.1';
  port: number;
  /** The user the client logs in as (the one running the tests). */
  user: string;
  /** `user@127.0.0.1:port`, as the Keepers list's Add takes it. */
  target: string;
  /** The client's private key (unencrypted) whose public half is authorized. */
  clientKeyFile: string;
  /** `SHA256:…` of the server's own host key, as `ssh-keygen -lf` prints it. */
  hostKeyFingerprint: string;
  /** `SHA256:…` of the other host key startWithOtherHostKey presents. */
  otherHostKeyFingerprint: string;
  /** The folder holding the `wager-keeper` shim (first on the sessions' PATH). */
  binDir: string;
  /** Starts again (after stop) on the same port with the server's own host key; resolves once it listens. */
  start(): Promise<void>;
  /** Starts (after stop) on the same port presenting another host key: an impersonator, or a reinstall. */
  startWithOtherHostKey(): Promise<void>;
  /** Kills the server and every session it serves (connections drop at once); resolves once it is gone. */
  stop(): Promise<void>;
  /** stop, and the temp folder removed. */
  dispose(): Promise<void>;
}

const keygen = (file: string, comment: string) =>
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file], { stdio: 'ignore' });

const fingerprint = (pubFile: string) => execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', pubFile], { encoding: 'utf8' }).split(' ')[1]!;

/** A port free now on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** Resolves once 127.0.0.1:port accepts a TCP connection; rejects at the deadline or if `exited` first. */
async function waitForListen(port: number, exited: () => string | null, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const gone = exited();
    if (gone !== null) throw new Error(`sshd exited before listening: ${gone}`);
    const ok = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), done(true)));
      socket.once('error', () => done(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`sshd did not listen on 127.0.0.1:${port} within ${deadlineMs / 1000} s`);
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

/**
 * Every process below `pid` (Linux /proc). sshd's per-connection processes call setsid(), so they leave
 * its process group: killing the group alone would leave the sessions up.
 */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const child of parents.get(parent) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** Starts sshd; the caller disposes it. */
export async function startSshd(options: SshdOptions = {}): Promise<SshdFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'wk-sshd-'));
  chmodSync(dir, 0o700);
  const binDir = join(dir, 'bin');
  mkdirSync(binDir);
  // sshd refuses to start without its privilege separation folder (Debian makes it at boot).
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  keygen(join(dir, 'host_ed25519'), 'wk-test-host');
  keygen(join(dir, 'other_host_ed25519'), 'wk-test-impostor');
  keygen(join(dir, 'client_ed25519'), 'wk-test-client');
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_ed25519.pub')), { mode: 0o600 });
  const shim = join(binDir, 'wager-keeper');
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${join(repo, 'bin', 'wager-keeper.js')}' "$@"\n`, { mode: 0o755 });
  const port = await freePort();
  const user = userInfo().username;
  const env = { PATH: `${binDir}:/usr/local/bin:/usr/bin:/bin`, ...options.env };
  const quote = (value: string) => (/[\s"]/.test(value) ? `"${value.replace(/"/g, '\\"')}"` : value);
  const config = (hostKey: string) => {
    const file = join(dir, `sshd_config.${hostKey}`);
    writeFileSync(
      file,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${join(dir, hostKey)}`,
        `PidFile ${join(dir, 'sshd.pid')}`,
        `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
        'PermitRootLogin prohibit-password',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'StrictModes no',
        'UsePAM no',
        'AllowTcpForwarding yes',
        'LogLevel ERROR',
        `SetEnv ${Object.entries(env).map(([name, value]) => `${name}=${quote(value)}`).join(' ')}`,
        '',
      ].join('\n'),
    );
    return file;
  };

  let child: ChildProcess | null = null;
  const run = async (hostKey: string) => {
    if (child) throw new Error('sshd is already running: stop it first');
    let stderr = '';
    let exit: string | null = null;
    const started = spawn(SSHD, ['-D', '-e', '-f', config(hostKey)], { stdio: ['ignore', 'ignore', 'pipe'] });
    started.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    started.on('exit', (code, signal) => (exit = `exit ${code ?? signal}: ${stderr.trim()}`));
    child = started;
    await waitForListen(port, () => exit);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const gone = once(running, 'exit');
    // The sessions first (found through the listener), then the listener: every connection drops at once.
    for (const pid of [...descendantsOf(running.pid!), running.pid!]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await gone;
  };

  await run('host_ed25519');
  return {
    host: '127.0.0.1',
    port,
    user,
    target: `${user}@127.0.0.1:${port}`,
    clientKeyFile: join(dir, 'client_ed25519'),
    hostKeyFingerprint: fingerprint(join(dir, 'host_ed25519.pub')),
    otherHostKeyFingerprint: fingerprint(join(dir, 'other_host_ed25519.pub')),
    binDir,
    start: () => run('host_ed25519'),
    startWithOtherHostKey: () => run('other_host_ed25519'),
    stop,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
