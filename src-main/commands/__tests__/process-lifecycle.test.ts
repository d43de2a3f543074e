/**
 * The commands as a supervisor (systemd, pm2, a shell's `kill PID`) runs them: a signal to the PID it
 * started stops the whole service, also when bin/wager-keeper.js re-runs itself on the pinned Node (the
 * real server is then a child of that PID), and a command whose server cannot listen exits 1 with a
 * one-line error instead of hanging with half a service running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));

const started: ChildProcess[] = [];
const extraPids: number[] = [];

afterEach(() => {
  // Whatever a failed test left running.
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of extraPids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

/** Starts `wager-keeper ARGS` as its own process, with its stdout and stderr collected. */
function startCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  started.push(child);
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, output, exited };
}

/** The first stdout line of `child`, parsed (null if it exits first). */
async function firstLine(child: ChildProcess): Promise<Record<string, unknown> | null> {
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [string | null];
  lines.close();
  return line === null ? null : (JSON.parse(line) as Record<string, unknown>);
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The PIDs of `pid`'s children (Linux /proc). */
async function childrenOf(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text.split(/\s+/).filter(Boolean).map(Number);
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const waitUntil = async (check: () => boolean | Promise<boolean>, what: string) => {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** A port something else already listens on. */
async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as { port: number }).port, server };
}

describe.skipIf(process.platform !== 'linux')('bin/wager-keeper.js re-running itself on the pinned Node', () => {
  // The test runner already runs on the pinned Node: WAGER_KEEPER_FORCE_REEXEC takes the re-run path.
  const reexec = { WAGER_KEEPER_FORCE_REEXEC: '1' };

  it('forwards SIGTERM to the localnet it runs, which stops cleanly; nothing is left serving', async () => {
    const { child, output, exited } = startCli(['localnet', '--rpc-port', '0', '--ws-port', '0'], reexec);
    const ready = await firstLine(child);
    expect(ready, output.stderr).toMatchObject({ event: 'ready', rpcUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    const [server] = await childrenOf(child.pid!);
    expect(server).toBeDefined();
    extraPids.push(server!);
    const rpcPort = Number(new URL(String(ready!.rpcUrl)).port);
    expect(await accepts(rpcPort)).toBe(true);

    process.kill(child.pid!, 'SIGTERM');
    const [code, signal] = await exited;
    expect([code, signal]).toEqual([0, null]);
    expect(output.stdout).toContain('{"event":"stopped"}');
    await waitUntil(() => !isAlive(server!), 'the re-run localnet to end');
    expect(await accepts(rpcPort)).toBe(false);
  });

  it('stops the localnet when the wrapper is killed outright (SIGKILL), and forwards SIGINT and SIGHUP too', async () => {
    const { child, exited } = startCli(['localnet', '--rpc-port', '0', '--ws-port', '0'], reexec);
    const ready = await firstLine(child);
    const [server] = await childrenOf(child.pid!);
    extraPids.push(server!);
    const rpcPort = Number(new URL(String(ready!.rpcUrl)).port);
    process.kill(child.pid!, 'SIGKILL');
    await exited;
    await waitUntil(() => !isAlive(server!), 'the orphaned localnet to stop');
    expect(await accepts(rpcPort)).toBe(false);

    for (const signal of ['SIGINT', 'SIGHUP'] as const) {
      const run = startCli(['localnet', '--rpc-port', '0', '--ws-port', '0'], reexec);
      const line = await firstLine(run.child);
      const [inner] = await childrenOf(run.child.pid!);
      extraPids.push(inner!);
      process.kill(run.child.pid!, signal);
      expect(await run.exited, signal).toEqual([0, null]);
      await waitUntil(() => !isAlive(inner!), `the localnet to end on ${signal}`);
      expect(await accepts(Number(new URL(String(line!.rpcUrl)).port))).toBe(false);
    }
  });

  it("exits with the command's exit code", async () => {
    const usage = startCli(['open', '--amount', '1.999', '--paytable', 'dice'], reexec);
    expect((await usage.exited)[0]).toBe(2);
    expect(usage.output.stderr).toMatch(/--amount is a USDC amount with at most two decimals/);
    const help = startCli(['open', '--help'], reexec);
    expect((await help.exited)[0]).toBe(0);
    expect(help.output.stdout).toMatch(/^Usage: wager-keeper open /);
  });
});

describe('a command whose server cannot listen exits 1 with a one-line error', () => {
  let localnet: Localnet;
  let dir: string;
  let taken: { port: number; server: Server };
  beforeAll(async () => {
    localnet = await startLocalnet({ rpcPort: 0 });
    dir = await mkdtemp(join(tmpdir(), 'wager-keeper-listen-'));
    taken = await takenPort();
  });
  afterAll(async () => {
    taken.server.close();
    await localnet.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const expectFailedStart = async (run: ReturnType<typeof startCli>, message: RegExp) => {
    const [code] = await run.exited;
    expect(code, run.output.stderr).toBe(1);
    expect(run.output.stdout).not.toContain('"ready"');
    const errorLines = run.output.stderr.split('\n').filter((line) => line.startsWith('wager-keeper '));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toMatch(message);
  };

  it('keeper --port <in use>', async () => {
    const keypair = join(dir, 'keeper.json');
    await writeFile(keypair, JSON.stringify([...(await generateKeypairWithBytes()).secretKey]));
    const run = startCli(['keeper', '--rpc', localnet.rpcUrl, '--keypair', keypair, '--db', join(dir, 'keeper.db'), '--port', String(taken.port)]);
    await expectFailedStart(run, new RegExp(`^wager-keeper keeper: --port ${taken.port}: 127\\.0\\.0\\.1:${taken.port} is already in use`));
  });

  it('keeper --metrics-port <in use>', async () => {
    const keypair = join(dir, 'keeper2.json');
    await writeFile(keypair, JSON.stringify([...(await generateKeypairWithBytes()).secretKey]));
    const run = startCli(['keeper', '--rpc', localnet.rpcUrl, '--keypair', keypair, '--db', join(dir, 'keeper2.db'), '--port', '0', '--metrics-port', String(taken.port)]);
    await expectFailedStart(run, new RegExp(`^wager-keeper keeper: --metrics-port ${taken.port}: .* is already in use`));
  });

  it('localnet --rpc-port <in use>', async () => {
    const run = startCli(['localnet', '--rpc-port', String(taken.port), '--ws-port', '0']);
    await expectFailedStart(run, new RegExp(`^wager-keeper localnet: --rpc-port ${taken.port}: 127\\.0\\.0\\.1:${taken.port} is already in use`));
  });

  it('localnet --ws-port <in use>', async () => {
    const run = startCli(['localnet', '--rpc-port', '0', '--ws-port', String(taken.port)]);
    await expectFailedStart(run, new RegExp(`^wager-keeper localnet: --ws-port ${taken.port}: .* is already in use`));
  });

  it('serve --port <in use> (its embedded localnet stops too)', async () => {
    const free = await takenPort();
    free.server.close();
    await once(free.server, 'close');
    const run = startCli(['serve', '--rpc-port', String(free.port), '--port', String(taken.port), '--gateway-port', '0'], { XDG_DATA_HOME: dir });
    await expectFailedStart(run, new RegExp(`^wager-keeper serve: --port ${taken.port}: 127\\.0\\.0\\.1:${taken.port} is already in use`));
    expect(await accepts(free.port)).toBe(false);
  });

  it('serve --rpc-port <in use>', async () => {
    const run = startCli(['serve', '--rpc-port', String(taken.port), '--port', '0', '--gateway-port', '0'], { XDG_DATA_HOME: dir });
    await expectFailedStart(run, new RegExp(`^wager-keeper serve: --rpc-port ${taken.port}: .* is already in use`));
  });
});
