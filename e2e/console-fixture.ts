/**
 * Starts `wager-keeper serve --port 0 --rpc-port 0` as a person would (the real CLI, the embedded
 * localnet, keeper, /v1 and the console) once per spec file, and opens the console URL its ready line
 * prints. Settings live in a fresh directory, never the developer's own.
 */
import { appendFileSync } from 'node:fs';
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { withConsoleToken } from '../src-main/service/__tests__/ready-console-url';

export const BIN = join(import.meta.dirname, '..', 'bin', 'wager-keeper.js');
const run = promisify(execFile);

export interface ServeReady {
  event: 'ready';
  api: string;
  rpcUrl: string;
  keeper: string;
  console: string;
  genesisHash: string;
  /** The deployment the keeper runs against: its cluster name and wager program. */
  deployment: { cluster: string; wagerProgram: string };
  manifest: { paytables: { name: string }[]; wsUrl: string; usdcMint: string; programs: { wager: string; oracle: string } };
}

export interface RunningCommand<T> {
  ready: T;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Runs `wager-keeper ARGS` until its JSON ready line; `stop()` ends it with SIGTERM. `env` adds to its environment. */
export async function startCommand<T>(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningCommand<T>> {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Fresh settings and data folders: no spec sees another run's settings, records or alert mutes.
    env: {
      ...process.env,
      XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'wager-keeper-e2e-settings-')),
      XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'wager-keeper-e2e-data-')),
      ...env,
    },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  // E2E_SERVE_LOG=FILE keeps the command's whole log there (its stderr), for a failing spec's post-mortem.
  if (process.env.E2E_SERVE_LOG) child.stderr!.on('data', (chunk: Buffer) => appendFileSync(process.env.E2E_SERVE_LOG!, chunk));
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [string | null];
  // Keep draining stdout: on Linux a process's writes to a pipe are synchronous, so a full pipe nobody
  // reads would freeze the whole command (its RPC, slots and console) once its logs pass 64 KiB.
  lines.on('line', () => {});
  if (!first) throw new Error(`wager-keeper ${args[0]} exited before it was ready: ${stderr}`);
  return {
    // On a pipe the ready line names the file that holds the console token: put it back into `console`.
    ready: withConsoleToken(JSON.parse(first) as T & { console?: string; consoleUrlFile?: string }),
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** `wager-keeper serve` on its own embedded localnet, every port free (`extra` flags after those), until ready. */
export const startLocalServe = (extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<RunningCommand<ServeReady>> =>
  startCommand<ServeReady>(['serve', '--port', '0', '--rpc-port', '0', '--gateway-port', '0', ...extra], env);

/** `wager-keeper open` on the localnet at `rpcUrl`: the wager's address. */
export async function openWager(rpcUrl: string, paytable = 'coin-flip', amount = '1.00'): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, 'open', '--rpc', rpcUrl, '--paytable', paytable, '--amount', amount]);
  return (JSON.parse(stdout) as { wager: string }).wager;
}

/** Saves what the page shows now as an artifact of the test. */
export async function attachScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  // Kept on disk (test-results/<test>/<name>.png) as well as attached to the report.
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ fullPage: true, path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

export const test = base.extend<{ consolePage: Page }, { serve: RunningCommand<ServeReady> }>({
  serve: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object; this one has none
    async ({}, use) => {
      const serve = await startLocalServe([]);
      await use(serve);
      await serve.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  consolePage: async ({ page, serve }, use) => {
    await page.goto(serve.ready.console);
    await use(page);
  },
});

export { expect };
