/**
 * `wager-keeper serve` as a child process for the attack tests: its own data and settings folders (a
 * fresh embedded localnet, nothing shared with the user's), every port chosen free, and its ready line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { withConsoleToken } from '../../service/__tests__/ready-console-url';

const bin = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'bin', 'wager-keeper.js');

/** The ready line's fields these tests read. */
export interface ServeReady {
  api: string;
  rpcUrl: string;
  console: string;
  gateway: string;
  metrics?: string;
  manifest: { wsUrl: string };
}

export interface ServeProcess {
  ready: ServeReady;
  /** The per-run operator token (from the console URL). */
  token: string;
  stop(): Promise<void>;
}

/** Starts serve with `args` (beside --port 0 --rpc-port 0 --gateway-port 0) and resolves once it is ready. */
export async function startServe(args: string[]): Promise<ServeProcess> {
  const home = await mkdtemp(join(tmpdir(), 'wk-attack-serve-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, 'serve', '--port', '0', '--rpc-port', '0', '--gateway-port', '0', '--db', join(home, 'keeper.db'), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), WAGER_KEEPER_LOG: 'warn' } },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [string | null];
  // Keep draining stdout: a full pipe nobody reads would freeze serve.
  lines.on('line', () => {});
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await rm(home, { recursive: true, force: true });
  };
  if (!first) {
    await stop();
    throw new Error(`serve exited before it was ready: ${stderr}`);
  }
  const ready = withConsoleToken(JSON.parse(first) as ServeReady);
  const token = new URLSearchParams(new URL(ready.console).hash.slice(1)).get('token') ?? '';
  return { ready, token, stop };
}
