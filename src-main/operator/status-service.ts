/**
 * The status area of the console (the status line, the keeper card): status and health as keeper control
 * answers them, pausing the crank loop, and loading a deployment file for the current cluster (read,
 * checked against the cluster's genesis hash, then the core restarted on it by keeper control).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { StatusApi } from '../../src-shared/contract/status';
import { DeploymentClusterMismatchError } from '../deployment/deployment-finder';
import { parseDeploymentText } from '../protocol/deployment';
import type { KeeperControl } from '../runtime/keeper-control';

export function createStatusService(control: KeeperControl): StatusApi {
  return {
    status: async () => control.status(),
    health: () => control.health(),
    async setPaused({ paused }) {
      if (typeof paused !== 'boolean') throw new Error('paused must be true or false');
      control.setPaused(paused);
      return control.status();
    },
    async loadDeployment({ path }) {
      if (typeof path !== 'string' || path.trim() === '') throw new Error('give the path of a deployment file (the JSON `wager-keeper deploy` writes) on the machine that runs the keeper');
      const file = resolve(path.trim().replace(/^~(?=\/)/, process.env.HOME ?? '~'));
      const side = control.chain;
      const genesisHash = side?.view.genesisHash;
      if (!side || !genesisHash) throw new Error('no cluster is running to load a deployment for: switch to one first (Settings → Cluster)');
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new Error(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): give the path of a deployment file on the machine that runs the keeper`, { cause: error });
      }
      const deployment = parseDeploymentText(text, file);
      if (deployment.cluster.genesisHash !== genesisHash) throw new DeploymentClusterMismatchError(file, deployment, genesisHash);
      await control.useDeployment(side, deployment, file);
      return control.status();
    },
  };
}
