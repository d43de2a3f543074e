/**
 * The chain side of the console's core: the embedded localnet, or an RPC the operator picked, and what we
 * learned about it (its name, genesis hash, the deployment the keeper runs against, where its records go).
 */
import { createSolanaRpc } from '@solana/kit';
import { createHash } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultWebSocketUrl } from '../chain/rpc-connection';
import type { ChainEndpoints } from '../chain/rpc-endpoints';
import { scrubSecrets } from '../../src-shared/secret-scrub';
import { localnetListenError } from './listen-errors';
import type { Deployment } from '../protocol/deployment';
import { NoDeploymentError, type DeploymentSource } from '../deployment/deployment-finder';
import { oracleName, resolveDeploymentForRpc } from '../deployment/deployment-resolver';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import { loadEmbeddedLocalnet } from '../localnet/embedded-availability';
import type { Localnet, LocalnetManifest } from '../localnet/localnet';
import { clusterNameOf } from '../../src-shared/cluster-identity';
import type { ClusterName } from '../../src-shared/cluster-identity';
import type { ClusterSetting, ClusterView, DeploymentView } from '../../src-shared/contract/cluster';
import type { ResolvedOperatorOptions } from './operator-options';

export interface ChainSide {
  setting: ClusterSetting;
  localnet?: Localnet;
  rpcUrl: string;
  wsUrl: string;
  /** Every endpoint the keeper reads from (rpcUrl/wsUrl first, preferred) and sends to: connectToChain takes these. */
  endpoints: ChainEndpoints;
  manifest: LocalnetManifest | null;
  /** Where the service is on this cluster (null: none known; `view.noDeployment` says so and the keeper waits). */
  deployment: Deployment | null;
  deploymentSource: DeploymentSource | null;
  view: ClusterView;
  dbPath: string;
}

type ChainOptions = Pick<ResolvedOperatorOptions, 'flags' | 'host' | 'dataDir' | 'settings' | 'failFast'>;

/** Starts the chain side on `setting`; `initial`: the host's first start (flags apply, failFast may throw). */
export async function startChainSide(options: ChainOptions, setting: ClusterSetting, initial: boolean): Promise<ChainSide> {
  const { flags } = options;
  if (setting.kind === 'embedded') {
    const rpcPort = flags.embeddedRpcPort ?? (options.host === 'desktop' ? 0 : 8899);
    // Loaded only now: litesvm may have no native build here, and nothing else needs it. A command's
    // first start words the error for its command line, the console for Settings.
    const { startLocalnet } = await loadEmbeddedLocalnet(initial && options.failFast ? 'cli' : 'console');
    const localnet = await startLocalnet({ rpcPort, slotMs: flags.embeddedSlotMs }).catch((error: unknown) => {
      throw localnetListenError(error, rpcPort, undefined, 'the WebSocket port');
    });
    const dbPath = flags.dbPath ?? join(await mkdtemp(join(tmpdir(), 'wager-keeper-')), 'keeper.db');
    const genesisHash = localnet.manifest.genesisHash;
    // This app's own localnet: the deployment its genesis made.
    const deployment = localnet.manifest.deployment;
    const source: DeploymentSource = { kind: 'localnet' };
    return {
      setting,
      localnet,
      rpcUrl: localnet.rpcUrl,
      wsUrl: localnet.wsUrl,
      endpoints: { reads: [{ rpcUrl: localnet.rpcUrl, wsUrl: localnet.wsUrl }], sends: [] },
      manifest: localnet.manifest,
      deployment,
      deploymentSource: source,
      dbPath,
      view: {
        name: 'localnet',
        rpcUrl: localnet.rpcUrl,
        wsUrl: localnet.wsUrl,
        genesisHash,
        embedded: true,
        wagerKeeperLocalnet: true,
        deployment: deploymentView(deployment, source),
        noDeployment: null,
      },
    };
  }
  const rpcUrl = setting.rpcUrl;
  const anyManifest = await fetchLocalnetManifest(rpcUrl).catch(() => null);
  // A bare localnet has none of our programs, dev keys or mint: used like a public cluster.
  const manifest = anyManifest && !anyManifest.bare ? anyManifest : null;
  const wsUrl = setting.wsUrl ?? anyManifest?.wsUrl ?? defaultWebSocketUrl(rpcUrl);
  // The first read endpoint that answers names the cluster: the preferred one may be down at start (issue 27).
  let genesisHash: string | null = null;
  for (const url of [rpcUrl, ...(setting.fallbackRpcUrls ?? [])]) {
    genesisHash = await createSolanaRpc(url)
      .getGenesisHash()
      .send({ abortSignal: AbortSignal.timeout(8_000) })
      .catch(() => null);
    if (genesisHash !== null) break;
  }
  const name: ClusterName = clusterNameOf(genesisHash, anyManifest !== null);
  // Where the service is on this cluster. Headless commands exit with the resolver's own error (it names
  // the cluster and --deployment/deploy); the console says so and waits for a file to be loaded.
  const file = deploymentFileFor(options, setting, genesisHash);
  let deployment: Deployment | null = null;
  let deploymentSource: DeploymentSource | null = null;
  let noDeployment: string | null = null;
  try {
    const resolved = await resolveDeploymentForRpc(rpcUrl, { file: file?.path, manifest: anyManifest, ...(genesisHash ? { genesisHash } : {}) });
    deployment = resolved.deployment;
    deploymentSource = resolved.source;
  } catch (error) {
    if ((initial && options.failFast) || !(error instanceof Error)) throw error;
    if (genesisHash === null) throw error; // unreachable, and no file to go by: the core fails with the reason
    noDeployment =
      error instanceof NoDeploymentError
        ? noDeploymentText(name, genesisHash)
        : `${noDeploymentText(name, genesisHash)} The deployment file ${file?.named ? 'named by --deployment' : 'loaded for it before'} cannot be used: ${error.message}`;
  }
  // Records per cluster: a localnet's chain is new every run (a fresh file); a long-lived cluster keeps its
  // file, so a restart resumes every wager. `serve --rpc`/`keeper --rpc` keep the documented keeper.db.
  const clusterFile = `keeper-${name}-${createHash('sha256').update(genesisHash ?? rpcUrl).digest('hex').slice(0, 8)}.db`;
  const dbPath =
    flags.dbPath ??
    (initial && options.host === 'headless'
      ? join(options.dataDir, 'keeper.db')
      : anyManifest
        ? join(await mkdtemp(join(tmpdir(), 'wager-keeper-')), 'keeper.db')
        : join(options.dataDir, clusterFile));
  return {
    setting,
    rpcUrl,
    wsUrl,
    // The flags' own endpoints keep their --ws pairing; saved fallbacks get a derived WebSocket.
    endpoints: flags.endpoints && JSON.stringify(setting) === JSON.stringify(flags.cluster) ? flags.endpoints : clusterEndpoints(setting, wsUrl),
    manifest,
    deployment,
    deploymentSource,
    dbPath,
    view: {
      name,
      // Shown in the status line and Overview (also the desktop window): by its masked label; the URL stays in `rpcUrl` above.
      rpcUrl: scrubSecrets(rpcUrl),
      wsUrl: scrubSecrets(wsUrl),
      genesisHash,
      embedded: false,
      wagerKeeperLocalnet: anyManifest !== null,
      deployment: deployment && deploymentSource ? deploymentView(deployment, deploymentSource) : null,
      noDeployment,
      endpointsByFlags: JSON.stringify(setting) === JSON.stringify(flags.cluster),
    },
  };
}

/**
 * The read and send endpoints of an RPC cluster: its own URL first (preferred, with `wsUrl`), then the
 * fallbacks saved in Settings → RPC (or given by repeated --rpc), each with the WebSocket derived from its
 * URL, since a fallback is usually another provider.
 */
export function clusterEndpoints(setting: Extract<ClusterSetting, { kind: 'rpc' }>, wsUrl: string): ChainEndpoints {
  return {
    reads: [{ rpcUrl: setting.rpcUrl, wsUrl }, ...(setting.fallbackRpcUrls ?? []).map((rpcUrl) => ({ rpcUrl, wsUrl: defaultWebSocketUrl(rpcUrl) }))],
    sends: [...(setting.sendRpcUrls ?? [])],
  };
}

/** The deployment file for `setting`'s cluster: --deployment for the flags' cluster, else the one loaded in Settings for this genesis. */
function deploymentFileFor(options: ChainOptions, setting: ClusterSetting, genesisHash: string | null): { path: string; named: boolean } | null {
  const { flags } = options;
  if (flags.deploymentFile && JSON.stringify(setting) === JSON.stringify(flags.cluster)) return { path: flags.deploymentFile, named: true };
  const remembered = genesisHash ? options.settings.store.deploymentFiles?.find((entry) => entry.genesisHash === genesisHash) : undefined;
  return remembered ? { path: remembered.path, named: false } : null;
}

/** What Settings → Cluster shows of a deployment. */
export function deploymentView(deployment: Deployment, source: DeploymentSource): DeploymentView {
  return {
    clusterName: deployment.cluster.name,
    genesisHash: deployment.cluster.genesisHash,
    wagerProgram: deployment.programs.wager,
    oracleProgram: deployment.programs.oracle,
    oracleName: oracleName(deployment.programs.oracle),
    usdcMint: deployment.usdcMint,
    pool: deployment.pool,
    config: deployment.config,
    paytables: deployment.paytables,
    keeperApi: deployment.keeperApi ?? null,
    source,
  };
}

/** The console's words for a cluster without a deployment: which cluster, and both ways forward. */
function noDeploymentText(name: ClusterName, genesisHash: string): string {
  return `No Wager Keeper deployment is known for cluster ${name} (genesis hash ${genesisHash}). Load its deployment file (Settings → Cluster), or make one with \`wager-keeper deploy\`.`;
}
