/**
 * What the keeper has done, as the Overview, Queue, Earnings and Oracle screens read it: counts, the
 * queue, one wager's record, earnings over time, recent steps and oracle latency. Read-only.
 */
import { earningsReportYielding } from '../reports/earnings-report';
import { IN_PROGRESS_STATES } from '../store/wager-records';
import type { KeeperControl } from '../runtime/keeper-control';
import { FINISHED_ROW_TTL_MS, type EarningsTotals } from '../../src-shared/contract/activity';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { QueueRows } from '../runtime/queue-rows';
import { DAY_MS } from '../../src-shared/units';

/** The queue also lists wagers that finished this recently (at most this many), so their end is seen. */
export const RECENTLY_FINISHED_MS = FINISHED_ROW_TTL_MS;
const RECENTLY_FINISHED_LIMIT = 500;
/** A per-crank download is built in the keeper's memory (read in pages): past this many rows, per day or the CLI instead. */
const CONSOLE_REPORT_MAX_ROWS = 200_000;

export type KeeperActivityApi = Pick<
  OperatorApi,
  'overview' | 'queue' | 'wager' | 'earningsSeries' | 'earningsReport' | 'recentSteps' | 'stepTally' | 'oracleLatency'
>;

export function createKeeperActivity(control: KeeperControl, rows: QueueRows): KeeperActivityApi {
  return {
    async overview({ dayStartMs }) {
      const keeperSide = control.keeperSide;
      const now = Date.now();
      if (!keeperSide) {
        return {
          queueCounts: { queued: 0, requested: 0, fulfilled: 0, settled: 0, expired: 0, unknown: 0 },
          parkedPayouts: 0,
          cranksToday: { landed: 0, lost: 0, skipped: 0, failed: 0 },
          earnings: { today: emptyTotals(), week: emptyTotals(), all: emptyTotals() },
        };
      }
      const keeper = keeperSide.core.keeper;
      const counts = keeper.records.countsByState();
      return {
        queueCounts: counts.states,
        parkedPayouts: counts.parkedPayouts,
        cranksToday: keeperSide.stepLog.countsSince(dayStartMs),
        earnings: {
          today: totals(keeper.earnings.summary(dayStartMs)),
          week: totals(keeper.earnings.summary(now - 7 * DAY_MS)),
          all: totals(keeper.earnings.summary()),
        },
      };
    },
    async queue() {
      const keeperSide = control.keeperSide;
      if (!keeperSide) return [];
      const keeper = keeperSide.core.keeper;
      // In progress, parked payouts, and what finished in the last few minutes (so a cranker sees it end).
      const records = [
        ...keeper.records.byState(IN_PROGRESS_STATES),
        ...keeper.records.withParkedPayout(),
        ...keeper.records.finishedSince(new Date(Date.now() - RECENTLY_FINISHED_MS), RECENTLY_FINISHED_LIMIT),
      ];
      await rows.nameUnknownPaytables(keeperSide.core.connection.rpc, records);
      return records.map(rows.toRow);
    },
    async wager({ address }) {
      const record = control.keeperSide?.core.keeper.records.get(address);
      return record ? rows.toRow(record) : null;
    },
    async earningsSeries({ sinceMs, bucketMs }) {
      const keeper = control.keeperSide?.core.keeper;
      if (!keeper) return [];
      if (!(bucketMs >= 1_000)) throw new Error('bucketMs must be at least 1000 (one second)');
      return keeper.earnings.totals(sinceMs, bucketMs).map((point) => ({
        bucketStart: Number(point.bucketStart),
        receivedLamports: Number(point.receivedLamports),
        feeLamports: Number(point.feeLamports),
        netLamports: Number(point.receivedLamports) - Number(point.feeLamports),
        cranks: Number(point.cranks),
      }));
    },
    async earningsReport({ sinceMs, untilMs, per }) {
      const core = control.keeperSide?.core;
      if (!core) throw new Error('no keeper is running: start it (Overview) or pick a cluster in Settings, then download again');
      if (!Number.isFinite(sinceMs) || !Number.isFinite(untilMs) || untilMs <= sinceMs) throw new Error('choose a range whose end is after its start');
      if (per !== 'crank' && per !== 'day') throw new Error("per must be 'crank' or 'day'");
      const report = await earningsReportYielding(core.db, { sinceMs, untilMs, per, maxCrankRows: CONSOLE_REPORT_MAX_ROWS });
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      return { ...report, fileName: `earnings-${per === 'day' ? 'per-day' : 'per-crank'}-${day(sinceMs)}-to-${day(untilMs - 1)}.csv` };
    },
    async recentSteps({ limit }) {
      const keeperSide = control.keeperSide;
      if (!keeperSide) return [];
      return keeperSide.stepLog.recent(Math.min(Math.max(1, limit), 1_000)).map((entry) => ({
        at: entry.atMs,
        wager: entry.wager,
        step: entry.step,
        outcome: entry.outcome,
        signature: entry.signature,
        error: entry.error,
      }));
    },
    async stepTally({ sinceMs }) {
      if (!Number.isFinite(sinceMs)) throw new Error('sinceMs must be a time in Unix milliseconds');
      return control.keeperSide?.stepTally.since(sinceMs) ?? [];
    },
    async oracleLatency({ limit }) {
      return control.keeperSide?.core.keeper.oracleLatency.history(Math.min(Math.max(1, limit), 1_000)) ?? [];
    },
  };
}

const emptyTotals = (): EarningsTotals => ({ receivedLamports: 0, feeLamports: 0, netLamports: 0, cranks: 0 });
const totals = (summary: { receivedLamports: number; feeLamports: number; cranks: number }): EarningsTotals => ({
  ...summary,
  netLamports: summary.receivedLamports - summary.feeLamports,
});
