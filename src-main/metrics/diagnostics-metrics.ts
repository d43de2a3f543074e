/**
 * The metrics text for a diagnostics archive: what /metrics serves when --metrics-port is on, else the same
 * registry read once (its live gauges: balance, RPC latency, oracle wait; counters start at zero there).
 */
import { EventEmitter } from 'node:events';
import type { GuardianEvents } from '../keeper/guardian';
import type { KeeperEvents } from '../keeper/keeper-events';
import { operatorMetricReadings } from './metric-readings';
import { createKeeperMetrics } from './metrics';
import type { OperatorApi } from '../../src-shared/contract/operator-api';

export async function diagnosticsMetricsText(metricsUrl: string | null, api: OperatorApi): Promise<string> {
  if (metricsUrl) {
    const response = await fetch(`${metricsUrl}/metrics`, { signal: AbortSignal.timeout(5000) });
    return response.text();
  }
  const registry = createKeeperMetrics(
    { events: new EventEmitter<KeeperEvents>() },
    { events: new EventEmitter<GuardianEvents>() },
    operatorMetricReadings(api),
  );
  return `# no --metrics-port: read once for this archive (counters since this read only)\n${await registry.metrics()}`;
}
