/**
 * The console on a cluster that is not a wager-keeper localnet (a JSON-RPC proxy refusing `localnet_*`
 * in front of a second localnet): with no deployment known it says so and the keeper waits; a deployment
 * file loaded by path is checked against the cluster, remembered for it, and the keeper runs against it
 * without the host restarting. The faucet is the deployment keeper's (asked by the core, answered as it
 * said); the demo app stays off there unless asked for.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForeignCluster, writeLocalnetDeploymentFile, type ForeignCluster } from '../../deployment/__tests__/foreign-cluster';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { openHeadlessSettings } from '../../runtime/console-settings';
import type { FaucetClaimView, FaucetView } from '../../../src-shared/contract/faucet';
import type { StatusView } from '../../../src-shared/contract/status';
import { createOperatorService, type OperatorService } from '../../console-core/operator-service';

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

let second: Localnet;
let foreign: ForeignCluster;
let faucetKeeper: Server;
let faucetKeeperUrl: string;
let service: OperatorService;
let settingsDir: string;
let deploymentFile: string;
const claims: string[] = [];

/** The deployment's public keeper, as far as its faucet goes (docs/keeper-api.md): one claim per wallet, then 429. */
function startFaucetKeeper(): Server {
  return createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.url !== '/v1/faucet') return response.writeHead(404).end(JSON.stringify({ error: 'not found' }));
      if (request.method === 'GET') return response.end(JSON.stringify({ usdc: '1000000000', perDay: 500, remainingToday: 500 - claims.length }));
      const { owner } = JSON.parse(body) as { owner: string };
      if (claims.includes(owner))
        return response.writeHead(429).end(JSON.stringify({ error: 'this wallet already claimed in the last 5 minutes', retryAt: Date.now() + 300_000 }));
      claims.push(owner);
      response.end(JSON.stringify({ signature: '5'.repeat(87), usdc: '1000000000', sol: '0.01' }));
    });
  });
}

const api = () => service.api;
const status = () => api().status();

beforeAll(async () => {
  second = await startLocalnet({ rpcPort: 0, slotMs: 100 });
  foreign = await startForeignCluster(second.rpcUrl);
  faucetKeeper = startFaucetKeeper();
  faucetKeeper.listen(0, '127.0.0.1');
  await once(faucetKeeper, 'listening');
  faucetKeeperUrl = `http://127.0.0.1:${(faucetKeeper.address() as AddressInfo).port}`;
  const dir = tempDir('wk-console-deployment-');
  deploymentFile = await writeLocalnetDeploymentFile(second.manifest, dir, 'deployment.json', { keeperApi: faucetKeeperUrl });
  // The keeper key from a file: off a wager-keeper localnet the keychain would be asked otherwise.
  const keypairFile = join(dir, 'keeper.json');
  writeFileSync(keypairFile, JSON.stringify(second.manifest.devKeys.keeper.keypair));
  settingsDir = tempDir('wk-settings-');
  service = createOperatorService({
    host: 'headless',
    settings: openHeadlessSettings(settingsDir),
    dataDir: tempDir('wk-data-'),
    flags: { embeddedRpcPort: 0, apiPort: 0, embeddedSlotMs: 100, keypairFile },
    failFast: true,
  });
  await service.start();
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await foreign?.close();
  faucetKeeper?.close();
  await second?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the console on a cluster without a known deployment', () => {
  it("shows the embedded localnet's own deployment first", async () => {
    const { cluster, phase } = await status();
    expect(phase).toBe('running');
    expect(cluster?.deployment).toMatchObject({ clusterName: 'localnet', oracleName: 'local oracle', source: { kind: 'localnet' } });
  });

  it('says no deployment is known for it, naming the cluster and its genesis hash; the keeper waits and nothing fails', async () => {
    const saved = await api().saveSettings({ changes: { cluster: { kind: 'rpc', rpcUrl: foreign.url, wsUrl: second.wsUrl } } });
    expect(saved.restarted).toBe(true);
    const now = await status();
    expect(now.phase).toBe('noDeployment');
    expect(now.keeper).toBeNull();
    expect(now.cluster).toMatchObject({ name: 'custom', genesisHash: second.manifest.genesisHash, deployment: null, wagerKeeperLocalnet: false });
    expect(now.cluster?.noDeployment).toBe(
      `No Wager Keeper deployment is known for cluster custom (genesis hash ${second.manifest.genesisHash}). Load its deployment file (Settings → Cluster), or make one with \`wager-keeper deploy\`.`,
    );
    expect(now.demo).toMatchObject({ available: false });
    expect((await api().faucetStatus()) as FaucetView).toMatchObject({ source: 'none', reason: expect.stringMatching(/no deployment is known/) });
    await expect(api().liquidity({ owner: null })).rejects.toThrow(/No Wager Keeper deployment is known/);
  });

  it('refuses a file it cannot read and one made for another cluster, then loads the right one: the keeper runs against it', async () => {
    await expect(api().loadDeployment({ path: join(settingsDir, 'missing.json') })).rejects.toThrow(/cannot read .*missing\.json \(ENOENT\)/);
    const other = join(settingsDir, 'devnet.json');
    const document = JSON.parse((await import('node:fs')).readFileSync(deploymentFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(other, JSON.stringify({ ...document, cluster: { name: 'devnet', genesisHash: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG' } }));
    await expect(api().loadDeployment({ path: other })).rejects.toThrow(/is a deployment on cluster devnet .* but the RPC serves genesis hash/);

    const loaded: StatusView = await api().loadDeployment({ path: deploymentFile });
    expect(loaded.phase).toBe('running');
    expect(loaded.keeper?.address).toBe(second.manifest.devKeys.keeper.address);
    expect(loaded.cluster?.deployment).toMatchObject({
      clusterName: 'localnet',
      wagerProgram: second.manifest.programs.wager,
      usdcMint: second.manifest.usdcMint,
      pool: second.manifest.pool,
      oracleName: 'local oracle',
      keeperApi: faucetKeeperUrl,
      source: { kind: 'file', path: deploymentFile },
    });
    expect(openHeadlessSettings(settingsDir).store.deploymentFiles).toEqual([{ genesisHash: second.manifest.genesisHash, path: deploymentFile }]);
    expect((await api().liquidity({ owner: null })).pool.liquidity).not.toBe('0');
  });

  it("asks the deployment keeper's faucet from the core, and says who answered", async () => {
    expect(await api().faucetStatus()).toEqual({ source: 'deployment keeper', keeperApi: faucetKeeperUrl, status: { usdc: '1000000000', perDay: 500, remainingToday: 500 }, error: null });
    const owner = second.manifest.devKeys.app.address;
    const first: FaucetClaimView = await api().faucetClaim({ owner });
    expect(first).toMatchObject({ ok: true, usdc: '1000000000', sol: '0.01', answeredBy: faucetKeeperUrl });
    expect(await api().faucetClaim({ owner })).toMatchObject({ ok: false, status: 429, error: 'this wallet already claimed in the last 5 minutes', answeredBy: faucetKeeperUrl });
  });

  it('keeps the demo app off there unless asked for explicitly', async () => {
    expect((await status()).demo).toMatchObject({ available: false, reason: expect.stringMatching(/Demo app on test networks/) });
    await api().saveSettings({ changes: { demoOnTestNetworks: true } });
    expect((await status()).demo.available).toBe(true);
    await api().saveSettings({ changes: { demoOnTestNetworks: false, demoEnabled: false } });
    expect((await status()).demo.available).toBe(false);
  });

  it('finds the remembered file again when the console comes back to that cluster', async () => {
    await api().saveSettings({ changes: { cluster: { kind: 'rpc', rpcUrl: second.rpcUrl, wsUrl: second.wsUrl } } });
    // The same cluster by its own URL: the file loaded for it (by genesis hash) still wins over its manifest's.
    expect((await status()).cluster).toMatchObject({ wagerKeeperLocalnet: true, deployment: { source: { kind: 'file', path: deploymentFile } } });
    await api().saveSettings({ changes: { cluster: { kind: 'embedded' } } });
    expect((await status()).cluster?.deployment?.source).toEqual({ kind: 'localnet' });
    await api().saveSettings({ changes: { cluster: { kind: 'rpc', rpcUrl: foreign.url, wsUrl: second.wsUrl } } });
    const back = await status();
    expect(back.phase).toBe('running');
    expect(back.cluster?.deployment?.source).toEqual({ kind: 'file', path: deploymentFile });
  });
});
