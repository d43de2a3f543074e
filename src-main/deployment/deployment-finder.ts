/**
 * Finds the deployment for the cluster behind an RPC: the file the user named (checked against the
 * cluster's genesis hash), else the wager-keeper localnet's own (its manifest), else a file in the
 * user's data folder or the project's `deployments/` folder whose `cluster.genesisHash` matches. With
 * none, a NoDeploymentError names the cluster and both ways forward. Never a constant address.
 */
import { readdir, readFile, mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KNOWN_GENESIS_HASHES } from '../../src-shared/cluster-identity';
import { formatDeployment, parseDeploymentText, type Deployment, type DeploymentClusterName } from '../protocol/deployment';
import { projectPath } from '../project-root';

/** The project's own folder of deployments that were really made (docs/deploy.md: how one is added). */
export const PROJECT_DEPLOYMENTS_FOLDER = projectPath('deployments');

/** ~/.local/share/wager-keeper/deployments (or $XDG_DATA_HOME/wager-keeper/deployments): `deploy` copies its file here. */
export function userDeploymentsFolder(dataDir?: string): string {
  return join(dataDir ?? join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'wager-keeper'), 'deployments');
}

/** The name of a cluster from its genesis hash (public clusters are known; anything else is custom). */
export function clusterNameFromGenesis(genesisHash: string, wagerKeeperLocalnet = false): DeploymentClusterName {
  if (wagerKeeperLocalnet) return 'localnet';
  return KNOWN_GENESIS_HASHES[genesisHash] ?? 'custom';
}

/** No deployment is known for the cluster: says which cluster and how to pass or make one. */
export class NoDeploymentError extends Error {
  constructor(
    readonly genesisHash: string,
    readonly clusterName: DeploymentClusterName,
  ) {
    super(
      `no Wager Keeper deployment is known for cluster ${clusterName} (genesis hash ${genesisHash}): pass one with --deployment FILE, or make one with \`wager-keeper deploy --rpc URL --keypair FILE --out FILE\``,
    );
    this.name = 'NoDeploymentError';
  }
}

/** A deployment file for another cluster than the RPC's. */
export class DeploymentClusterMismatchError extends Error {
  constructor(source: string, deployment: Deployment, genesisHash: string) {
    super(
      `${source} is a deployment on cluster ${deployment.cluster.name} (genesis hash ${deployment.cluster.genesisHash}), but the RPC serves genesis hash ${genesisHash}: pass the deployment of this cluster, or the RPC of that one`,
    );
    this.name = 'DeploymentClusterMismatchError';
  }
}

export async function readDeploymentFile(path: string): Promise<Deployment> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`--deployment ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  return parseDeploymentText(text, path);
}

/** Every readable deployment in `folder` (a file that does not parse is skipped: another cluster's business). */
async function deploymentsIn(folder: string): Promise<{ deployment: Deployment; path: string }[]> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const found: { deployment: Deployment; path: string }[] = [];
  for (const name of names) {
    const path = join(folder, name);
    try {
      found.push({ deployment: parseDeploymentText(await readFile(path, 'utf8'), path), path });
    } catch {
      // not a deployment (or unreadable): ignored when searching, reported when named with --deployment
    }
  }
  return found;
}

export interface FindDeploymentOptions {
  /** The RPC's genesis hash (getGenesisHash). */
  genesisHash: string;
  /** --deployment FILE: used as is, after checking it is for this cluster. */
  file?: string;
  /** The localnet's own deployment when the RPC is a wager-keeper localnet (its manifest), else null. */
  localnetDeployment?: Deployment | null;
  /** Folders to search, in order; by default the user's data folder, then the project's deployments/. */
  folders?: string[];
  /** The RPC is a wager-keeper localnet (one started `--bare` has no deployment): names the cluster `localnet`. */
  wagerKeeperLocalnet?: boolean;
}

/** Where a deployment was found: the named file, the localnet's own, or a file in a searched folder. */
export type DeploymentSource = { kind: 'file'; path: string } | { kind: 'localnet' } | { kind: 'folder'; path: string };

/** The deployment for the cluster with `genesisHash` and where it was found, or a NoDeploymentError / mismatch error. */
export async function locateDeployment(options: FindDeploymentOptions): Promise<{ deployment: Deployment; source: DeploymentSource }> {
  const { genesisHash } = options;
  if (options.file) {
    const deployment = await readDeploymentFile(options.file);
    if (deployment.cluster.genesisHash !== genesisHash) throw new DeploymentClusterMismatchError(options.file, deployment, genesisHash);
    return { deployment, source: { kind: 'file', path: options.file } };
  }
  if (options.localnetDeployment) return { deployment: options.localnetDeployment, source: { kind: 'localnet' } };
  for (const folder of options.folders ?? [userDeploymentsFolder(), PROJECT_DEPLOYMENTS_FOLDER]) {
    const match = (await deploymentsIn(folder)).find((found) => found.deployment.cluster.genesisHash === genesisHash);
    if (match) return { deployment: match.deployment, source: { kind: 'folder', path: match.path } };
  }
  throw new NoDeploymentError(genesisHash, clusterNameFromGenesis(genesisHash, options.wagerKeeperLocalnet));
}

/** The deployment for the cluster with `genesisHash`, or a NoDeploymentError / mismatch error. */
export async function findDeployment(options: FindDeploymentOptions): Promise<Deployment> {
  return (await locateDeployment(options)).deployment;
}

/** Copies a deployment into the user's data folder, named by its genesis hash, so later commands find it. */
export async function saveDeploymentToFolder(deployment: Deployment, folder = userDeploymentsFolder()): Promise<string> {
  await mkdir(folder, { recursive: true });
  const path = join(folder, `${deployment.cluster.genesisHash}.json`);
  await writeFile(path, formatDeployment(deployment), { mode: 0o644 });
  return path;
}
