/**
 * Finding the deployment behind an RPC URL, as every command and the console do: a wager-keeper
 * localnet answers with its own; a cluster that is not one is found in a deployments folder by its
 * genesis hash, or named with a file (checked against the cluster); with none, the error names the
 * cluster and both ways forward. Nothing falls back to the localnet's constant addresses.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { formatDeployment } from '../../protocol/deployment';
import { DeploymentClusterMismatchError, NoDeploymentError } from '../deployment-finder';
import { oracleName, resolveDeploymentForRpc } from '../deployment-resolver';
import { startForeignCluster, writeLocalnetDeploymentFile, type ForeignCluster } from './foreign-cluster';

let localnet: Localnet;
let foreign: ForeignCluster;
let dir: string;
let emptyFolder: string;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0 });
  foreign = await startForeignCluster(localnet.rpcUrl);
  dir = await mkdtemp(join(tmpdir(), 'wk-resolver-'));
  emptyFolder = await mkdtemp(join(tmpdir(), 'wk-resolver-empty-'));
}, 60_000);

afterAll(async () => {
  await foreign?.close();
  await localnet?.stop();
  await rm(dir, { recursive: true, force: true });
  await rm(emptyFolder, { recursive: true, force: true });
});

describe('the deployment behind an RPC', () => {
  it("is a wager-keeper localnet's own: its programs, mint, pool and paytables, for its genesis hash", async () => {
    const resolved = await resolveDeploymentForRpc(localnet.rpcUrl, { folders: [emptyFolder] });
    expect(resolved.source).toEqual({ kind: 'localnet' });
    expect(resolved).toMatchObject({ genesisHash: localnet.manifest.genesisHash, clusterName: 'localnet', wagerKeeperLocalnet: true });
    expect(resolved.deployment).toMatchObject({
      cluster: { genesisHash: localnet.manifest.genesisHash, name: 'localnet' },
      programs: localnet.manifest.programs,
      usdcMint: localnet.manifest.usdcMint,
      pool: localnet.manifest.pool,
      paytables: localnet.manifest.paytables.map(({ name, address }) => ({ name, address })),
    });
    expect(oracleName(resolved.deployment.programs.oracle)).toBe('local oracle');
    expect(oracleName('VRFzZoJdhFWL8rkvu87LpKM3RbcVezpMEc6X5GVDr7y')).toBe('ORAO VRF');
  });

  it('on a cluster that is not a wager-keeper localnet, with none known, names the cluster (name and genesis hash), --deployment FILE and deploy', async () => {
    const failure = await resolveDeploymentForRpc(foreign.url, { folders: [emptyFolder] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NoDeploymentError);
    expect((failure as Error).message).toBe(
      `no Wager Keeper deployment is known for cluster custom (genesis hash ${localnet.manifest.genesisHash}): pass one with --deployment FILE, or make one with \`wager-keeper deploy --rpc URL --keypair FILE --out FILE\``,
    );
  });

  it('takes a named file for that cluster, and finds one in a deployments folder by genesis hash', async () => {
    const file = await writeLocalnetDeploymentFile(localnet.manifest, dir);
    const named = await resolveDeploymentForRpc(foreign.url, { file, folders: [emptyFolder] });
    expect(named).toMatchObject({ source: { kind: 'file', path: file }, clusterName: 'custom', wagerKeeperLocalnet: false, manifest: null });
    expect(named.deployment.programs.wager).toBe(localnet.manifest.programs.wager);
    const found = await resolveDeploymentForRpc(foreign.url, { folders: [emptyFolder, dir] });
    expect(found.source).toEqual({ kind: 'folder', path: file });
  });

  it("refuses a file made for another cluster, naming both genesis hashes", async () => {
    const file = await writeLocalnetDeploymentFile(localnet.manifest, dir, 'other.json');
    const other = JSON.parse(formatDeployment({ ...(await resolveDeploymentForRpc(foreign.url, { file })).deployment, cluster: { name: 'devnet', genesisHash: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG' } }));
    await writeFile(file, JSON.stringify(other));
    const failure = await resolveDeploymentForRpc(foreign.url, { file }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DeploymentClusterMismatchError);
    expect((failure as Error).message).toMatch(new RegExp(`deployment on cluster devnet \\(genesis hash EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG\\), but the RPC serves genesis hash ${localnet.manifest.genesisHash}`));
  });

  it('says when the RPC cannot be reached, and how to start without it', async () => {
    await expect(resolveDeploymentForRpc('http://127.0.0.1:1', { folders: [emptyFolder] })).rejects.toThrow(/cannot reach the RPC at http:\/\/127\.0\.0\.1:1.*--deployment FILE/);
  });
});
