/**
 * The live readings behind the metrics that no keeper event carries (RPC round trip, oracle requests
 * waiting, new wagers paused, fleet members answering), read at each scrape from the operator service that
 * `keeper`, `serve` and the desktop app all run: its once-a-second RPC probe, Settings → Guardian's view of
 * the config on chain, and its fleet watch.
 */
import type { LiveMetricSource } from './metrics';
import type { OperatorApi } from '../../src-shared/contract/operator-api';

export function operatorMetricReadings(
  api: Pick<OperatorApi, 'health' | 'guardian' | 'fleet'> & Partial<Pick<OperatorApi, 'status'>>,
): LiveMetricSource {
  return async () => {
    const [health, guardian, fleet, status] = await Promise.all([
      api.health(),
      api.guardian().catch(() => null),
      api.fleet().catch(() => []),
      api.status?.().catch(() => null) ?? null,
    ]);
    return {
      rpcLatencyMs: health.rpcLatencyMs,
      oracleWait: health.oracleWait,
      newWagersPaused: guardian?.paused ?? null,
      fleetMembers: fleet.map((member) => ({ url: member.url, shard: member.shard, silent: member.stale })),
      rpcEndpoints: (status?.rpc?.endpoints ?? []).map((e) => ({ label: e.label, role: e.role, inUse: e.inUse, healthy: e.state === 'healthy' })),
    };
  };
}
