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
  /** The console URL with its token (read from console-url.json, as `console-url` prints it). */
  consoleUrl: string;
  /** Calls the keeper's operator API directly (not through SSH): what the test compares against. */
  call(method: string, args?: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

/** Starts the keeper (`serve` by default; `args` go after the port flags) and resolves once it is ready. */
export async function startServerKeeper(args: string[] = [], command: 'serve' | 'keeper' = 'serve'): Promise<ServerKeeperProcess> {
  const home = mkdtempSync(join(tmpdir(), 'wk-server-keeper-'));
  const dataHome = join(home, 'data');
  const child = spawn(process.execPath, [bin, command, '--port', '0', '--rpc-port', '0', '--gateway-port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: dataHome, WAGER_KEEPER_LOG: 'warn' },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [string | null];
  lines.on('line', () => {}); // keep draining: a full pipe would freeze the keeper
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(home, { recursive: true, force: true });
  };
  if (!first) {
    await stop();
    throw new Error(`the server keeper exited before it was ready: ${stderr}`);
  }
  const ready = JSON.parse(first) as { consoleUrlFile?: string; console?: string };
  const consoleUrl = ready.consoleUrlFile ? (JSON.parse(readFileSync(ready.consoleUrlFile, 'utf8')) as { url: string }).url : ready.console!;
  const origin = new URL(consoleUrl).origin;
  const token = new URLSearchParams(new URL(consoleUrl).hash.slice(1)).get('token') ?? '';
  return {
    dataHome,
    consoleUrl,
    async call(method, callArgs = {}) {
      const response = await fetch(`${origin}/operator/api/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(callArgs),
      });
      const body = (await response.json()) as unknown;
      if (!response.ok) throw new Error((body as { error: string }).error);
      return body;
    },
    stop,
  };
}
