/**
 * Test helper: runs commands inside a private D-Bus session with an unlocked gnome-keyring (the Secret
 * Service behind the OS keychain on Linux), with HOME and XDG dirs in a temp directory so no real keyring is
 * touched. Each command prints JSON lines; the answers are returned in order.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((command) => !has(command));
/** Whether a Secret Service can be started here, and the note a skipped test's name carries. */
export const secretServiceMissing = missing.length > 0;
export const secretServiceNote = missing.length
  ? ` [SKIPPED: ${missing.join(' and ')} not installed; scripts/ensure-toolchain.mjs installs them (Debian packages dbus, gnome-keyring)]`
  : '';

/** An isolated home (removed by `cleanUp`); no D-Bus session address is inherited. */
export function isolatedEnv(dirs: string[]) {
  const home = mkdtempSync(join(tmpdir(), 'keeper-key-'));
  dirs.push(home);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_RUNTIME_DIR: join(home, 'run') };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  return { home, env };
}

export const cleanUp = (dirs: string[]) => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
};

/** `node --import tsx FIXTURE ARGS...`, quoted for sh. */
export const fixtureCommand = (fixture: string, args: string[] = []) => [process.execPath, '--import', 'tsx', fixture, ...args].map((part) => `'${part}'`).join(' ');

export const jsonLines = <T>(stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as T);

const sessionScript = (commands: string[]) =>
  ['mkdir -p -m 700 "$XDG_RUNTIME_DIR"', 'echo -n test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null', ...commands].join('; ');

/**
 * Like inSecretServiceSession, without blocking this process (so a server the commands talk to, here on
 * loopback, can answer them). Resolves with the session's stdout once it has ended.
 */
export function inSecretServiceSessionAsync(env: NodeJS.ProcessEnv, commands: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('dbus-run-session', ['--', 'sh', '-c', sessionScript(commands)], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`dbus-run-session failed (${code}): ${stderr}`))));
  });
}

/** Runs `commands` one after another inside one private D-Bus session with an unlocked gnome-keyring. */
export function inSecretServiceSession<T>(env: NodeJS.ProcessEnv, commands: string[]): T[] {
  const script = sessionScript(commands);
  const result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], { cwd: projectRoot, env, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`dbus-run-session failed (${result.status}): ${result.stderr}`);
  return jsonLines<T>(result.stdout);
}
