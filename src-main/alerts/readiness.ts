/**
 * Readiness for outside monitors (GET /v1/ready, the heartbeat): ready unless a critical condition holds
 * now. Raw, with no debounce, so a monitor sees it at once: the RPC failing past rpcFailingSeconds, no loop
 * pass for loopStalledSeconds, the balance below critical, the oracle stalled at the critical level.
 */
import { CONDITIONS, type AlertSnapshot } from './alert-conditions';
import type { AlertName, AlertThresholds, Readiness } from '../../src-shared/alert-types';

export const READINESS_CONDITIONS: readonly AlertName[] = ['rpc-failing', 'loop-stalled', 'balance-low', 'oracle-stalled'];

export interface ReadinessInput {
  snapshot: AlertSnapshot;
  thresholds: AlertThresholds;
}

export function readinessOf({ snapshot, thresholds }: ReadinessInput): Readiness {
  if (!snapshot.health) return { ready: false, reasons: ['keeper-not-running: no keeper runs on this cluster yet; the status says why (a deployment to load, a key to fund)'] };
  const reasons = READINESS_CONDITIONS.flatMap((name) => {
    const reading = CONDITIONS[name](snapshot, thresholds);
    return reading.holds && reading.severity === 'critical' ? [`${name}: ${reading.summary}`] : [];
  });
  return { ready: reasons.length === 0, reasons };
}
