/**
 * The deployment behind an RPC URL, for every command and the console: asks the RPC its genesis hash
 * and (a wager-keeper localnet) its manifest, then finds the deployment (deployment-finder.ts). The one
 * place that turns "an RPC URL" into "the addresses to use there"; nothing falls back to a constant.
 */
import { address, type Address } from '@solana/kit';
import { createChainRpc } from '../chain/rpc-connection';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import type { AnyLocalnetManifest, LocalnetManifest } from '../localnet/localnet';
import { describeRpcFailure } from '../../src-shared/cluster-identity';
import { parseDeployment, type Deployment, type DeploymentClusterName } from '../protocol/deployment';
import { clusterNameFromGenesis, locateDeployment, readDeploymentFile, type DeploymentSource } from './deployment-finder';

/** ORAO's VRF program on the public clusters: a deployment that names it uses the real oracle. */
export const ORAO_VRF_PROGRAM = 'VRFzZoJdhFWL8rkvu87LpKM3RbcVezpMEc6X5GVDr7y';

/** "ORAO VRF" for ORAO's program, else "local oracle" (the project's own, deployed beside the wager program). */
export const oracleName = (oracleProgram: string): 'ORAO VRF' | 'local oracle' => (oracleProgram === ORAO_VRF_PROGRAM ? 'ORAO VRF' : 'local oracle');

export interface ResolvedDeployment {
  deployment: Deployment;
  source: DeploymentSource;
  /** The RPC's genesis hash (null only when a named file was taken while the RPC could not be reached). */
  genesisHash: string | null;
  clusterName: DeploymentClusterName;
  /** The RPC is a wager-keeper localnet (full or `--bare`): its manifest answers. */
  wagerKeeperLocalnet: boolean;
  /** The manifest of a full wager-keeper localnet (dev keys, mint authority), else null. */
  manifest: LocalnetManifest | null;
}

export interface ResolveDeploymentOptions {
  /** --deployment FILE (or the console's remembered file for this cluster). */
  file?: string;
  /** Folders to search (default: the user's data folder, then the project's deployments/). */
  folders?: string[];
  /** Already fetched (the caller asked the localnet for its manifest): saves a round trip. */
  manifest?: AnyLocalnetManifest | null;
  /** Already asked: the RPC's genesis hash. */
  genesisHash?: string;
}

/**
 * The localnet's own deployment: its manifest's `deployment` (checked like any document), or null on a
 * `--bare` localnet, which has no programs of ours.
 */
export function localnetDeployment(rpcUrl: string, manifest: AnyLocalnetManifest): Deployment | null {
  if (manifest.bare) return null;
  return parseDeployment(manifest.deployment, `${rpcUrl}'s localnet manifest`);
}

/**
 * Finds the deployment for the cluster at `rpcUrl`: `file` (checked against the cluster), else the
 * localnet's own, else the data folders. Throws NoDeploymentError (naming the cluster and both ways
 * forward), DeploymentClusterMismatchError, DeploymentFileError, or an unreachable-RPC error that says so.
 * A named file is taken unchecked when the RPC cannot be reached (a keeper may start before its RPC).
 */
export async function resolveDeploymentForRpc(rpcUrl: string, options: ResolveDeploymentOptions = {}): Promise<ResolvedDeployment> {
  let genesisHash = options.genesisHash ?? null;
  if (genesisHash === null) {
    try {
      genesisHash = await createChainRpc(rpcUrl).getGenesisHash().send({ abortSignal: AbortSignal.timeout(10_000) });
    } catch (error) {
      if (options.file) {
        const deployment = await readDeploymentFile(options.file);
        return { deployment, source: { kind: 'file', path: options.file }, genesisHash: null, clusterName: deployment.cluster.name, wagerKeeperLocalnet: false, manifest: null };
      }
      throw new Error(`${describeRpcFailure(rpcUrl, error)} (a deployment is found by the cluster's genesis hash; --deployment FILE names one without asking)`, { cause: error });
    }
  }
  const manifest = options.manifest !== undefined ? options.manifest : await fetchLocalnetManifest(rpcUrl).catch(() => null);
  const located = await locateDeployment({
    genesisHash,
    file: options.file,
    localnetDeployment: manifest ? localnetDeployment(rpcUrl, manifest) : null,
    folders: options.folders,
    wagerKeeperLocalnet: manifest !== null,
  });
  return { ...located, genesisHash, clusterName: clusterNameFromGenesis(genesisHash, manifest !== null), wagerKeeperLocalnet: manifest !== null, manifest: manifest && !manifest.bare ? manifest : null };
}

/** The deployment's paytable named `name`, or an error listing the ones it has. */
export function deploymentPaytable(deployment: Pick<Deployment, 'paytables'>, name: string): Address {
  const paytable = deployment.paytables.find((entry) => entry.name === name);
  if (!paytable) throw new Error(`unknown paytable '${name}': this deployment has ${deployment.paytables.map((entry) => entry.name).join(', ') || 'none'}`);
  return address(paytable.address);
}
