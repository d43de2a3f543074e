/**
 * `wager-keeper console-url` against one real `serve` (embedded localnet, keeper, console) whose stdout is a
 * pipe: the ready line carries no token, the 0600 file it names does, and console-url prints that URL,
 * which opens the operator API; once serve stops, the file is gone and console-url prints nothing (exit 1).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleReadyFields } from '../console-host';

const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'wager-keeper.js');
let home: string;
let env: NodeJS.ProcessEnv;
let child: ChildProcess;
let ready: { api: string; console: string; consoleUrlFile: string };

/** `wager-keeper console-url ARGS` with serve's environment: exit code, stdout, stderr. */
function consoleUrl(args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [bin, 'console-url', ...args], { env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'wk-console-url-'));
  env = { ...process.env, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), WAGER_KEEPER_LOG: 'warn' };
  child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--rpc-port', '0', '--gateway-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [string | null];
  lines.on('line', () => {});
  if (!first) throw new Error(`serve exited before it was ready: ${stderr}`);
  ready = JSON.parse(first) as typeof ready;
}, 60_000);

afterAll(async () => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(home, { recursive: true, force: true });
});

describe('wager-keeper console-url', () => {
  it('finds the console URL of the running keeper in a 0600 file, while the ready line on a pipe carries no token', async () => {
    expect(ready.console).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/$/);
    expect(ready.consoleUrlFile).toBe(join(home, 'data', 'wager-keeper', 'console-url.json'));
    expect(statSync(ready.consoleUrlFile).mode & 0o777).toBe(0o600);

    const printed = await consoleUrl();
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/^[^\n]+\n$/); // exactly one line
    const url = new URL(printed.stdout.trim());
    expect(`${url.origin}${url.pathname}`).toBe(ready.console);
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    expect(token).toMatch(/^[\w-]{32,}$/);
    const status = await fetch(`${url.origin}/operator/api/status`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(status.status).toBe(200);
    // --db names the data folder by its SQLite file (a name in that folder, existing or not).
    expect((await consoleUrl(['--db', join(home, 'data', 'wager-keeper', 'keeper.db')])).stdout).toBe(printed.stdout);
  });

  it('keeps the token in the ready line on a terminal, as before', () => {
    const url = 'http://127.0.0.1:7300/console/#token=abc';
    expect(consoleReadyFields(url, '/data/console-url.json', true)).toEqual({ console: url });
    expect(consoleReadyFields(url, '/data/console-url.json', false)).toEqual({ console: 'http://127.0.0.1:7300/console/', consoleUrlFile: '/data/console-url.json' });
  });

  it('prints nothing and exits 1 once the keeper stopped, its file removed', async () => {
    child.kill('SIGTERM');
    expect(await once(child, 'exit')).toEqual([0, null]);
    expect(existsSync(ready.consoleUrlFile)).toBe(false);
    const after = await consoleUrl();
    expect(after).toMatchObject({ code: 1, stdout: '' });
    expect(after.stderr).toContain(`no keeper with a console runs with data folder ${join(home, 'data', 'wager-keeper')}`);
  });
});
