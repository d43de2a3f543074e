/**
 * `wager-keeper keeper --guardian-keypair FILE` as an operator runs it: a key that is not the deployment's
 * guardian (the config on chain names another) exits 1 with one line saying so, before the keeper runs;
 * the guardian's key runs the guardian beside the keeper (ready line, metrics, the console's view).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';
import { withConsoleToken } from '../../service/__tests__/ready-console-url';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));

let localnet: Localnet;
let dir: string;
let env: NodeJS.ProcessEnv;
const files = { keeper: '', guardian: '', stranger: '' };
let stranger: string;
const running: ChildProcess[] = [];

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, ...output })));
}

async function ready<T>(args: string[]): Promise<T> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  running.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [string | null];
  lines.on('line', () => {}); // keep draining stdout
  if (!first) throw new Error(`wager-keeper ${args[0]} exited before it was ready: ${stderr}`);
  return withConsoleToken(JSON.parse(first) as T & { console?: string });
}

const keeperArgs = (name: string, ...more: string[]) => ['keeper', '--rpc', localnet.rpcUrl, '--keypair', files.keeper, '--port', '0', '--db', join(dir, `${name}.db`), ...more];

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, slotMs: 100 });
  dir = await mkdtemp(join(tmpdir(), 'wk-keeper-guardian-'));
  env = { ...process.env, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
  const write = async (name: string, bytes: ArrayLike<number>) => {
    const path = join(dir, `${name}.json`);
    await writeFile(path, JSON.stringify(Array.from(bytes)));
    return path;
  };
  files.keeper = await write('keeper', localnet.manifest.devKeys.keeper.keypair);
  files.guardian = await write('guardian', localnet.manifest.devKeys.guardian.keypair);
  const other = await generateKeypairWithBytes();
  stranger = other.signer.address;
  files.stranger = await write('stranger', other.secretKey);
}, 60_000);

afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

afterAll(async () => {
  await localnet?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('keeper --guardian-keypair', () => {
  it("exits 1 with one line when the key is not the deployment's guardian", async () => {
    const result = await cli(keeperArgs('stranger', '--guardian-keypair', files.stranger));
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    const errorLines = result.stderr.split('\n').filter((line) => line.startsWith('wager-keeper '));
    expect(errorLines).toEqual([
      `wager-keeper keeper: --guardian-keypair ${files.stranger}: the key ${stranger} is not this deployment's guardian (its config on chain names ${localnet.manifest.devKeys.guardian.address}): only that key can pause new wagers`,
    ]);
  }, 60_000);

  it('exits 1 with one line when the file is not a keypair, and 2 for thresholds without a key', async () => {
    const missing = join(dir, 'missing.json');
    const [unreadable, usage, late] = await Promise.all([
      cli(keeperArgs('missing', '--guardian-keypair', missing)),
      cli(keeperArgs('usage', '--guardian-pause-after-slots', '30')),
      cli(keeperArgs('late', '--guardian-keypair', files.guardian, '--guardian-pause-after-slots', '150')),
    ]);
    expect(unreadable.code).toBe(1);
    expect(unreadable.stderr.split('\n').filter((line) => line.startsWith('wager-keeper '))).toEqual([
      expect.stringMatching(new RegExp(`^wager-keeper keeper: --guardian-keypair ${missing}: cannot read keypair file ${missing}: ENOENT`)),
    ]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('wager-keeper keeper: --guardian-pause-after-slots and --guardian-resume-after-slots go with --guardian-keypair FILE');
    expect(late.code).toBe(2);
    expect(late.stderr).toContain('--guardian-pause-after-slots must be below 150');
  }, 60_000);

  it("runs the guardian beside the keeper with the guardian's key: ready line, metrics and the console's view", async () => {
    const line = await ready<{ guardian: string; metrics: string; console: string }>(
      keeperArgs('guardian', '--guardian-keypair', files.guardian, '--guardian-resume-after-slots', '30', '--metrics-port', '0'),
    );
    expect(line.guardian).toBe(localnet.manifest.devKeys.guardian.address);
    const metrics = await (await fetch(line.metrics)).text();
    expect(metrics).toMatch(/^wager_keeper_guardian_actions_total\{action="pause",by="guardian"\} 0$/m);
    const { origin, hash } = new URL(line.console);
    const token = new URLSearchParams(hash.slice(1)).get('token')!;
    const response = await fetch(`${origin}/operator/api/guardian`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' });
    expect(await response.json()).toMatchObject({
      guardian: localnet.manifest.devKeys.guardian.address,
      paused: false,
      key: { address: localnet.manifest.devKeys.guardian.address, source: 'file' },
      keyProblem: null,
      automatic: { enabled: true, running: true, pauseAfterSlots: 60, resumeAfterSlots: 30 },
      actions: [],
    });
  }, 60_000);
});
