/**
 * The commands on a cluster that is not a wager-keeper localnet (a plain JSON-RPC proxy in front of a
 * started localnet, refusing `localnet_*`): with no deployment known, each one exits 1 with one line
 * naming the cluster (name and genesis hash), saying no Wager Keeper deployment is known for it, and how
 * to pass one (--deployment FILE) or make one (deploy). With a deployment file made from the cluster's
 * own addresses, every one of them works end to end there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startForeignCluster, writeLocalnetDeploymentFile, type ForeignCluster } from '../../deployment/__tests__/foreign-cluster';
import { fundLocalGateway } from '../../gateway/local-gateway-funding';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));

let localnet: Localnet;
let foreign: ForeignCluster;
let dir: string;
let env: NodeJS.ProcessEnv;
let deploymentFile: string;
const keyFiles: Record<'app' | 'keeper', string> = { app: '', keeper: '' };
const running: ChildProcess[] = [];

/** Runs `wager-keeper ARGS` to its end (asynchronously: the localnet runs in this process). */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, ...output })));
}

/** Starts a long-running command and resolves with its ready line (the process is stopped after the test). */
async function ready<T>(args: string[]): Promise<T> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  running.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [string | null];
  lines.on('line', () => {}); // keep draining stdout
  if (!first) throw new Error(`wager-keeper ${args[0]} exited before it was ready: ${stderr}`);
  return JSON.parse(first) as T;
}

const writeKey = async (name: string, bytes: ArrayLike<number>) => {
  const path = join(dir, `${name}.json`);
  await writeFile(path, JSON.stringify(Array.from(bytes)));
  return path;
};

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, slotMs: 100 });
  foreign = await startForeignCluster(localnet.rpcUrl);
  dir = await mkdtemp(join(tmpdir(), 'wk-deployment-commands-'));
  // Nothing in the user's data folder or console settings: only what a test names is known.
  env = { ...process.env, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
  deploymentFile = await writeLocalnetDeploymentFile(localnet.manifest, dir);
  keyFiles.app = await writeKey('app', localnet.manifest.devKeys.app.keypair);
  keyFiles.keeper = await writeKey('keeper', localnet.manifest.devKeys.keeper.keypair);
}, 60_000);

afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

afterAll(async () => {
  await foreign?.close();
  await localnet?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('a cluster with no known deployment', () => {
  it('every command exits 1 with one line naming the cluster and both ways forward, and starts nothing', async () => {
    const seed = '00'.repeat(32);
    const randomness = '00'.repeat(64);
    const commands = [
      ['keeper', '--rpc', foreign.url, '--keypair', keyFiles.keeper, '--port', '0', '--db', join(dir, 'none-keeper.db')],
      ['serve', '--rpc', foreign.url, '--keypair', keyFiles.keeper, '--port', '0', '--gateway-port', '0', '--db', join(dir, 'none-serve.db')],
      ['gateway', '--rpc', foreign.url, '--keypair', keyFiles.app, '--port', '0', '--db', join(dir, 'none-gateway.db')],
      ['open', '--rpc', foreign.url, '--keypair', keyFiles.app, '--paytable', 'coin-flip', '--amount', '1.00'],
      ['inspect', localnet.manifest.pool, '--rpc', foreign.url],
      ['verify-randomness', '--rpc', foreign.url, '--seed', seed, '--randomness', randomness],
    ];
    const results = await Promise.all(commands.map((args) => cli(args)));
    const line = `no Wager Keeper deployment is known for cluster custom (genesis hash ${localnet.manifest.genesisHash}): pass one with --deployment FILE, or make one with \`wager-keeper deploy`;
    results.forEach((result, i) => {
      const command = commands[i]![0]!;
      expect(result.code, `${command}: ${result.stderr}`).toBe(1);
      expect(result.stdout, command).toBe('');
      const errorLines = result.stderr.split('\n').filter((text) => text.startsWith('wager-keeper '));
      expect(errorLines, command).toHaveLength(1);
      expect(errorLines[0], command).toContain(`wager-keeper ${command}: ${line}`);
    });
  }, 180_000);

  it('a deployment file for another cluster is refused, naming both genesis hashes', async () => {
    const other = join(dir, 'devnet.json');
    const { readFile } = await import('node:fs/promises');
    const document = JSON.parse(await readFile(deploymentFile, 'utf8')) as { cluster: { name: string; genesisHash: string } };
    await writeFile(other, JSON.stringify({ ...document, cluster: { name: 'devnet', genesisHash: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG' } }));
    const result = await cli(['inspect', localnet.manifest.pool, '--rpc', foreign.url, '--deployment', other]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`wager-keeper inspect: ${other} is a deployment on cluster devnet (genesis hash EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG), but the RPC serves genesis hash ${localnet.manifest.genesisHash}`);
  }, 60_000);
});

describe('--deployment FILE on that cluster', () => {
  const deploymentLine = () => ({ cluster: 'localnet', wagerProgram: localnet.manifest.programs.wager });

  it('open, keeper, inspect and verify-randomness use the file: a wager opened there is settled by the keeper and inspected', async () => {
    const opened = await cli(['open', '--rpc', foreign.url, '--deployment', deploymentFile, '--keypair', keyFiles.app, '--paytable', 'coin-flip', '--amount', '1.00']);
    expect(opened.code, opened.stderr).toBe(0);
    const { wager } = JSON.parse(opened.stdout) as { wager: string };

    const keeper = await ready<{ api: string; deployment: unknown; genesisHash: string }>([
      'keeper',
      '--rpc',
      foreign.url,
      '--ws',
      localnet.wsUrl,
      '--deployment',
      deploymentFile,
      '--keypair',
      keyFiles.keeper,
      '--port',
      '0',
      '--db',
      join(dir, 'keeper.db'),
      '--no-console',
    ]);
    expect(keeper.deployment).toEqual(deploymentLine());
    expect(keeper.genesisHash).toBe(localnet.manifest.genesisHash);
    const posted = await fetch(`${keeper.api}/v1/wagers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wager }) });
    expect(posted.status).toBe(202);
    let state = 'queued';
    for (let i = 0; i < 300 && state !== 'settled'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      state = ((await (await fetch(`${keeper.api}/v1/wagers/${wager}`)).json()) as { state: string }).state;
    }
    expect(state).toBe('settled');

    const inspected = await cli(['inspect', wager, '--rpc', foreign.url, '--deployment', deploymentFile]);
    expect(inspected.code, inspected.stderr).toBe(0);
    expect(JSON.parse(inspected.stdout)).toMatchObject({ wager, ended: 'settled' });

    // Nonsense randomness: invalid, but checked against the deployment oracle's one fulfilment authority.
    const verified = await cli(['verify-randomness', '--rpc', foreign.url, '--deployment', deploymentFile, '--seed', '11'.repeat(32), '--randomness', '22'.repeat(64)]);
    expect(verified.code, verified.stderr).toBe(1);
    expect(JSON.parse(verified.stdout)).toEqual({ valid: false, authoritiesTried: 1 });
  }, 180_000);

  it('gateway and serve --rpc start on it and print the deployment in their ready lines', async () => {
    const gatewayKey = await generateKeypairWithBytes();
    await fundLocalGateway(localnet.rpcUrl, localnet.manifest, gatewayKey.signer);
    const gateway = await ready<{ gateway: string; deployment: unknown; paytables: string[] }>([
      'gateway',
      '--rpc',
      foreign.url,
      '--deployment',
      deploymentFile,
      '--keypair',
      await writeKey('gateway', gatewayKey.secretKey),
      '--port',
      '0',
      '--db',
      join(dir, 'gateway.db'),
    ]);
    expect(gateway.deployment).toEqual(deploymentLine());
    expect(gateway.paytables).toEqual(localnet.manifest.paytables.map((p) => p.name));
    expect(((await (await fetch(`${gateway.gateway}/health`)).json()) as { canFund: boolean }).canFund).toBe(true);

    const serve = await ready<{ deployment: unknown; manifest: unknown; gateway: unknown }>([
      'serve',
      '--rpc',
      foreign.url,
      '--deployment',
      deploymentFile,
      '--keypair',
      keyFiles.keeper,
      '--port',
      '0',
      '--gateway-port',
      '0',
      '--db',
      join(dir, 'serve.db'),
      '--no-console',
    ]);
    expect(serve).toMatchObject({ deployment: deploymentLine(), manifest: null, gateway: null });
  }, 180_000);
});
