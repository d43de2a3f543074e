/**
 * The fleet at a glance: one row per keeper, asked now (status, health, overview of today, alerts) with a
 * deadline of a few seconds. A keeper that cannot be asked is a row with `reachable: false`, its figures
 * null and the reason in `error`: never zeros.
 */
import { ACTIVE_WAGER_STATES } from '../../src-shared/crank-vocabulary';
import type { KeeperEntryView, KeeperFleetRow } from '../../src-shared/contract/keepers';
import type { OperatorApi } from '../../src-shared/contract/operator-api';

export const FLEET_TIMEOUT_MS = 4_000;

const DAY_MS = 86_400_000;

const within = <T>(promise: Promise<T>, ms: number, label: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${label} did not answer within ${ms / 1000} s`)), ms).unref()),
  ]);

/** One keeper's row: its entry as the list shows it, and its figures if it answers in time. */
export async function fleetRow(entry: KeeperEntryView, api: Pick<OperatorApi, 'status' | 'health' | 'overview' | 'alerts'>, nowMs = Date.now(), timeoutMs = FLEET_TIMEOUT_MS): Promise<KeeperFleetRow> {
  const base = { id: entry.id, label: entry.label, state: entry.state };
  try {
    const dayStartMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
    const [status, health, overview, alerts] = await within(
      Promise.all([api.status(), api.health(), api.overview({ dayStartMs }), api.alerts()]),
      timeoutMs,
      entry.label,
    );
    return {
      ...base,
      reachable: true,
      phase: status.phase,
      paused: status.paused,
      keeper: status.keeper?.address ?? null,
      cluster: status.cluster?.name ?? null,
      lamports: health.lamports,
      runwayCranks: health.runway.cranks,
      runwayLow: health.runway.low,
      queue: ACTIVE_WAGER_STATES.reduce((sum, state) => sum + (overview.queueCounts[state] ?? 0), 0),
      cranksToday: Object.values(overview.cranksToday).reduce((sum, count) => sum + count, 0),
      netTodayLamports: String(overview.earnings.today.netLamports),
      activeAlerts: alerts.active.length,
      lastSeenMs: Date.now(),
      error: null,
    };
  } catch (error) {
    return {
      ...base,
      reachable: false,
      phase: null,
      paused: null,
      keeper: null,
      cluster: null,
      lamports: null,
      runwayCranks: null,
      runwayLow: null,
      queue: null,
      cranksToday: null,
      netTodayLamports: null,
      activeAlerts: null,
      lastSeenMs: entry.lastSeenMs,
      error: (error as Error).message,
    };
  }
}
