/**
 * Settings: what is in force (saved, with this run's flags on top, which Settings shows read-only),
 * saving changes (and restarting what they affect: the cluster, the crank loop, the guardian, the demo),
 * and testing an RPC before switching to it.
 */
import type { HeartbeatUrlStore } from '../alerts/heartbeat-url-store';
import { maskUrl } from '../../src-shared/mask-url';
import { testRpcConnection } from '../runtime/rpc-connection-test';
import { validateSettingsChanges } from '../runtime/console-settings';
import type { KeeperControl } from '../runtime/keeper-control';
import type { ClusterSetting } from '../../src-shared/contract/cluster';
import type { KeyView } from '../../src-shared/contract/keys';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { OperatorEvent } from '../../src-shared/contract/events';
import { settingsFixedByFlags, type ResolvedOperatorOptions } from '../runtime/operator-options';

export type SettingsApi = Pick<OperatorApi, 'settings' | 'saveSettings' | 'testConnection'>;

export function createSettingsService(
  control: KeeperControl,
  options: Pick<ResolvedOperatorOptions, 'flags' | 'settings'>,
  service: { keyView(): Promise<KeyView>; emit(event: OperatorEvent): void; fleetMembersChanged(): void; heartbeatUrls: Pick<HeartbeatUrlStore, 'save'> },
): SettingsApi {
  const fixedByFlags = () => settingsFixedByFlags(options.flags);
  const settingsApi: SettingsApi = {
    async settings() {
      return { settings: control.settings(), key: await service.keyView(), fixedByFlags: fixedByFlags() };
    },
    async saveSettings({ changes }) {
      const checked = validateSettingsChanges(changes ?? {});
      for (const key of fixedByFlags()) if (key in checked) throw new Error(`${key} is set by a command-line flag for this run; restart without the flag to change it here`);
      const before = control.settings();
      // Switching to the same RPC from Settings → Cluster keeps the endpoints Settings → RPC added to it.
      if (checked.cluster) checked.cluster = keepExtraEndpoints(checked.cluster, changes?.cluster, before.cluster);
      // Compared with the cluster running now (headless hosts start on their flags, not on the saved one).
      const clusterChanged = checked.cluster !== undefined && JSON.stringify(checked.cluster) !== JSON.stringify(control.chain?.setting);
      if (checked.cluster?.kind === 'rpc' && clusterChanged) {
        // Refuse a cluster we cannot reach before anything stops: the running keeper keeps running.
        const test = await testRpcConnection(checked.cluster.rpcUrl);
        if (!test.ok) throw new Error(`${test.error} Nothing was changed: the keeper keeps running on ${control.chain?.rpcUrl ?? 'its current cluster'}.`);
        const running = control.chain?.setting;
        const known = running?.kind === 'rpc' ? (running.fallbackRpcUrls ?? []) : [];
        const problem = await fallbackProblem(test.genesisHash, (checked.cluster.fallbackRpcUrls ?? []).filter((url) => !known.includes(url)));
        if (problem) throw new Error(`${problem} Nothing was changed: the keeper keeps running on ${control.chain?.rpcUrl ?? 'its current cluster'}.`);
      }
      // The heartbeat URL is a secret: it goes to the secret store, the settings get only its masked label.
      const { heartbeatUrl, ...plainChanges } = checked;
      options.settings.set(plainChanges);
      if (heartbeatUrl !== undefined) service.heartbeatUrls.save(heartbeatUrl);
      const after = control.settings();
      if (checked.paused !== undefined) control.keeperSide?.core.keeper.setPaused(after.paused);
      if (checked.guardianAutomatic !== undefined || checked.guardianPauseAfterSlots !== undefined || checked.guardianResumeAfterSlots !== undefined) {
        // At once, beside the running keeper (no restart).
        control.keeperSide?.core.guardian?.configure({ automatic: after.guardianAutomatic, pauseAfterSlots: after.guardianPauseAfterSlots, resumeAfterSlots: after.guardianResumeAfterSlots });
        service.emit({ type: 'guardian' });
      }
      await control.syncDemo();
      if (checked.fleetMembers !== undefined) service.fleetMembersChanged();
      const loopChanged =
        before.priorityFeeMicroLamports !== after.priorityFeeMicroLamports ||
        before.priorityFeeAuto !== after.priorityFeeAuto ||
        before.maxInFlight !== after.maxInFlight ||
        before.shard !== after.shard ||
        before.shardTakeoverSlots !== after.shardTakeoverSlots;
      let restarted = false;
      if (clusterChanged && checked.cluster) {
        await control.switchCluster(checked.cluster);
        restarted = true;
      } else if (loopChanged && control.chain) {
        await control.restartKeeper();
        restarted = true;
      } else control.emitStatus();
      return { view: await settingsApi.settings(), restarted };
    },
    testConnection: async ({ rpcUrl }) => testRpcConnection(rpcUrl),
  };
  return settingsApi;
}

/** A cluster saved without endpoint lists (Settings → Cluster's form) keeps those of the saved cluster on the same RPC. */
function keepExtraEndpoints(cluster: ClusterSetting, asked: ClusterSetting | undefined, saved: ClusterSetting): ClusterSetting {
  if (cluster.kind !== 'rpc' || saved.kind !== 'rpc' || saved.rpcUrl !== cluster.rpcUrl) return cluster;
  const given = (asked ?? {}) as Partial<Record<'fallbackRpcUrls' | 'sendRpcUrls', unknown>>;
  return {
    ...cluster,
    ...(given.fallbackRpcUrls === undefined && saved.fallbackRpcUrls ? { fallbackRpcUrls: saved.fallbackRpcUrls } : {}),
    ...(given.sendRpcUrls === undefined && saved.sendRpcUrls ? { sendRpcUrls: saved.sendRpcUrls } : {}),
  };
}

/**
 * Why a new fallback read endpoint cannot be added, or null: each must answer, and be the same cluster (genesis hash)
 * as the RPC itself, or reads would come from another chain. Send endpoints are not asked: sender services
 * often answer sendTransaction only.
 */
async function fallbackProblem(genesisHash: string, added: string[]): Promise<string | null> {
  for (const url of added) {
    const test = await testRpcConnection(url);
    if (!test.ok) return `The fallback endpoint ${maskUrl(url)} cannot be used: ${test.error}`;
    if (test.genesisHash !== genesisHash)
      return `The fallback endpoint ${maskUrl(url)} is another cluster (${test.cluster}, genesis hash ${test.genesisHash}, not ${genesisHash}): give an endpoint of the same cluster.`;
  }
  return null;
}
