/**
 * The console as `serve` offers it: the ready line keeps its fields and adds the console URL with a per-run
 * token (on a pipe, as here, the token is in the file `consoleUrlFile`: console-url.test.ts); the operator API answers that token only, loopback peers only (also with --host 0.0.0.0), and
 * the token never appears in the logs; --no-console leaves the console out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { withConsoleToken } from '../../service/__tests__/ready-console-url';

const bin = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'bin', 'wager-keeper.js');
const running: ChildProcess[] = [];

afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

async function serve(args: string[]) {
  // Each serve its own data folder: its console-url.json is its own.
  const env = { ...process.env, XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'wk-serve-console-')) };
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--rpc-port', '0', '--gateway-port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  running.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [line] = (await Promise.race([once(createInterface({ input: child.stdout! }), 'line'), once(child, 'exit').then(() => [null])])) as [string | null];
  if (!line) throw new Error(`serve exited: ${stderr}`);
  return { ready: withConsoleToken(JSON.parse(line) as Record<string, unknown> & { api: string; console?: string }), stderr: () => stderr };
}

const lanAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;

describe('the console of `wager-keeper serve`', () => {
  it('prints the console URL with a token beside every field the ready line had, and never logs the token', async () => {
    const { ready, stderr } = await serve([]);
    expect(Object.keys(ready)).toEqual(expect.arrayContaining(['event', 'api', 'rpcUrl', 'keeper', 'db', 'corsOrigins', 'manifest', 'console', 'consoleUrlFile']));
    const url = new URL(ready.console!);
    expect(url.origin).toBe(ready.api);
    expect(url.pathname).toBe('/console/');
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    expect(token).toMatch(/^[\w-]{32,}$/);
    const status = await fetch(`${ready.api}/operator/api/status`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(status.status).toBe(200);
    expect(((await status.json()) as { keeper: { address: string } }).keeper.address).toBe(ready.keeper);
    // Two serves never share a token.
    const other = await serve([]);
    expect(other.ready.console).not.toBe(ready.console);
    expect(stderr()).not.toContain(token);
  });

  it.skipIf(!lanAddress())('answers the operator API to loopback only when --host exposes /v1 to the network', async () => {
    const { ready } = await serve(['--host', '0.0.0.0']);
    const url = new URL(ready.console!);
    expect(url.hostname).toBe('127.0.0.1');
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    const viaLan = `http://${lanAddress()}:${url.port}`;
    expect((await fetch(`${viaLan}/v1/health`)).status).toBe(200);
    const refused = await fetch(`${viaLan}/operator/api/status`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/loopback/);
    expect((await fetch(`${viaLan}/console/`)).status).toBe(403);
    expect((await fetch(`${url.origin}/operator/api/status`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('leaves the console out with --no-console', async () => {
    const { ready } = await serve(['--no-console']);
    expect(ready.console).toBeUndefined();
    const response = await fetch(`${ready.api}/operator/api/status`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not found' });
  });
});
