/**
 * A headless keeper "on the server" for tests: `wager-keeper serve` on its embedded localnet, every port
 * free, its data and settings in temp folders (XDG_DATA_HOME, XDG_CONFIG_HOME). Hand `dataHome` to the
 * sshd fixture's `env.XDG_DATA_HOME` and `wager-keeper console-url` run over SSH finds it. No vitest
 * import: the desktop Playwright spec uses it too.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const bin = resolve(import.meta.dirname, '../../../bin/wager-keeper.js');

export interface ServerKeeperProcess {
  /** XDG_DATA_HOME of the keeper: its console-url.json is in `<dataHome>/wager-keeper/`. */
  dataHome: string;
  /** The console URL with its token (read from console-url.json, as `console-url` prints it); changes on restart. */
  consoleUrl: string;
  /** Calls the keeper's operator API directly (not through SSH): what the test compares against. */
  call(method: string, args?: unknown): Promise<unknown>;
  /** Stops it and starts it again on the same data (a new token and new ports, as a service restart gives). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** One run of the keeper in `home`: its console URL once ready, and how to stop it. */
async function runKeeper(home: string, command: string, args: string[]) {
  const child = spawn(process.execPath, [bin, command, '--port', '0', '--rpc-port', '0', '--gateway-port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), WAGER_KEEPER_LOG: 'warn' },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [string | null];
  lines.on('line', () => {}); // keep draining: a full pipe would freeze the keeper
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  if (!first) throw new Error(`the server keeper exited before it was ready: ${stderr}`);
  const ready = JSON.parse(first) as { consoleUrlFile?: string; console?: string };
  const consoleUrl = ready.consoleUrlFile ? (JSON.parse(readFileSync(ready.consoleUrlFile, 'utf8')) as { url: string }).url : ready.console!;
  return { consoleUrl, stop };
}

/** Starts the keeper (`serve` by default; `args` go after the port flags) and resolves once it is ready. */
export async function startServerKeeper(args: string[] = [], command: 'serve' | 'keeper' = 'serve'): Promise<ServerKeeperProcess> {
  const home = mkdtempSync(join(tmpdir(), 'wk-server-keeper-'));
  let run = await runKeeper(home, command, args).catch((error: unknown) => {
    rmSync(home, { recursive: true, force: true });
    throw error;
  });
  const fixture: ServerKeeperProcess = {
    dataHome: join(home, 'data'),
    consoleUrl: run.consoleUrl,
    async call(method, callArgs = {}) {
      const url = new URL(fixture.consoleUrl);
      const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
      const response = await fetch(`${url.origin}/operator/api/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(callArgs),
      });
      const body = (await response.json()) as unknown;
      if (!response.ok) throw new Error((body as { error: string }).error);
      return body;
    },
    async restart() {
      await run.stop();
      run = await runKeeper(home, command, args);
      fixture.consoleUrl = run.consoleUrl;
    },
    async stop() {
      await run.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
  return fixture;
}
