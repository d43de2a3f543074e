/**
 * Settings → Cluster: the deployment the keeper runs against (each address copyable, with an Explorer
 * link on public clusters), or, on a cluster with none known, that plain fact; and "Load a deployment
 * file…": the system's file picker in the desktop app, a path field in the browser (the file is read by
 * the keeper's process, on its machine).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import type { ClusterView, DeploymentView } from '@shared/contract/cluster';
import { explorerUrl } from '../model/format';
import { useBridge } from '../queries';
import { CopyButton } from './CopyButton';
import { PathField, usePathField } from './FieldRow';

function AddressValue({ cluster, value, label }: { cluster: ClusterView; value: string; label: string }) {
  const url = explorerUrl(cluster.name, 'address', value);
  return (
    <>
      <code>{value}</code> <CopyButton text={value} label={`Copy ${label}`} />
      {url && (
        <>
          {' '}
          <a href={url} target="_blank" rel="noreferrer" aria-label={`${label} in Explorer`}>
            open in Explorer
          </a>
        </>
      )}
    </>
  );
}

const sourceText = (source: DeploymentView['source']) =>
  source.kind === 'localnet'
    ? "this localnet's own (its manifest)"
    : source.kind === 'file'
      ? `the file ${source.path}`
      : `found by its genesis hash in ${source.path}`;

function Details({ cluster, deployment }: { cluster: ClusterView; deployment: DeploymentView }) {
  return (
    <dl className="kv" aria-label="Deployment in use">
      <dt>cluster</dt>
      <dd>
        {deployment.clusterName} <span className="muted">(genesis {deployment.genesisHash})</span>
      </dd>
      <dt>wager program</dt>
      <dd>
        <AddressValue cluster={cluster} value={deployment.wagerProgram} label="wager program" />
      </dd>
      <dt>USDC mint</dt>
      <dd>
        <AddressValue cluster={cluster} value={deployment.usdcMint} label="USDC mint" />
      </dd>
      <dt>oracle</dt>
      <dd>
        {deployment.oracleName}:{' '}
        <AddressValue cluster={cluster} value={deployment.oracleProgram} label="oracle program" />
      </dd>
      <dt>pool</dt>
      <dd>
        <AddressValue cluster={cluster} value={deployment.pool} label="pool" />
      </dd>
      <dt>paytables</dt>
      <dd>{deployment.paytables.map((paytable) => paytable.name).join(', ') || 'none'}</dd>
      {deployment.keeperApi && (
        <>
          <dt>public keeper</dt>
          <dd>
            <code>{deployment.keeperApi}</code>
          </dd>
        </>
      )}
      <dt>from</dt>
      <dd>{sourceText(deployment.source)}</dd>
    </dl>
  );
}

function LoadDeployment({ onPicked }: { onPicked?: () => void }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const deploymentPath = usePathField(
    'Enter the path of a deployment file (the JSON `wager-keeper deploy` writes) on the machine that runs the keeper',
  );
  const load = useMutation({
    mutationFn: (file: string) => bridge.call('loadDeployment', { path: file }),
    onSuccess: async (status) => {
      client.setQueryData(['status'], status);
      await client.invalidateQueries();
      onPicked?.();
    },
  });
  const pick = bridge.pickDeploymentFile?.bind(bridge);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    load.reset();
    if (pick) {
      const picked = await pick().catch((error: Error) => (deploymentPath.setError(error.message), null));
      if (picked) load.mutate(picked);
      return;
    }
    const entered = deploymentPath.take();
    if (entered) load.mutate(entered);
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      {!pick && (
        <div className="form-grid">
          <PathField
            id="deployment-path"
            label="Deployment file path"
            placeholder="~/deployments/devnet.json"
            field={deploymentPath}
          />
        </div>
      )}
      <div className="actions">
        <button type="submit" disabled={load.isPending} aria-busy={load.isPending}>
          Load a deployment file…
        </button>
        {load.isPending && (
          <span role="status" aria-busy="true">
            Checking the file and restarting the keeper against it…
          </span>
        )}
      </div>
      {pick && deploymentPath.error && (
        <div role="alert" className="error">
          {deploymentPath.error}
        </div>
      )}
      {load.error && (
        <div role="alert" className="error">
          {load.error.message}
        </div>
      )}
      {load.isSuccess && !load.isPending && (
        <p role="status" className="ok-box">
          Deployment loaded: the keeper {load.data.phase === 'running' ? 'now runs' : 'restarts'} against it,
          and it is remembered for this cluster.
        </p>
      )}
    </form>
  );
}

/** The deployment part of Settings → Cluster. */
export function DeploymentDetails({ cluster }: { cluster: ClusterView | null }) {
  if (!cluster) return null;
  return (
    <div className="deployment">
      <h3>Deployment in use</h3>
      {cluster.deployment ? (
        <Details cluster={cluster} deployment={cluster.deployment} />
      ) : (
        <div role="alert" className="warn-box">
          {cluster.noDeployment ??
            `No Wager Keeper deployment is known for cluster ${cluster.name} (genesis hash ${cluster.genesisHash ?? 'unknown'}).`}
        </div>
      )}
      <LoadDeployment />
    </div>
  );
}
