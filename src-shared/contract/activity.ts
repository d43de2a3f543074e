/**
 * The console contract, activity: what the keeper has done (Overview, Queue, Earnings, Oracle latency).
 * Read-only.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */
import type { WagerState, CrankOutcome, CrankStep } from '../crank-vocabulary';

/** The queue keeps a finished wager this long after it finished (then it leaves the list). */
export const FINISHED_ROW_TTL_MS = 10 * 60_000;

export interface EarningsTotals {
  receivedLamports: number;
  feeLamports: number;
  /** received - fee. */
  netLamports: number;
  cranks: number;
}

export interface OverviewView {
  queueCounts: Record<WagerState, number>;
  /** Settled wagers whose payout is parked in escrow (claim_payout pending). */
  parkedPayouts: number;
  /** Cranks since `dayStartMs` by outcome. */
  cranksToday: Record<CrankOutcome, number>;
  earnings: { today: EarningsTotals; week: EarningsTotals; all: EarningsTotals };
}

/** One crank step over a window (Overview's per-step table): tried, how each ended, failures and skips by reason, fees. */
export type StepTallyView = StepTally;

export interface EarningsPoint {
  bucketStart: number;
  receivedLamports: number;
  feeLamports: number;
  netLamports: number;
  cranks: number;
}

/** An earnings report: the CSV text, its file name, the sums of its rows (lamports) and what pruning left out. */
export interface EarningsReportView {
  csv: string;
  fileName: string;
  rows: number;
  totals: { cranks: number; earnedLamports: number; spentLamports: number; netLamports: number; sweeps: number; sentToWalletLamports: number };
  /** Rows of the range pruned by --keep-history, and what to do; null when the report is whole. */
  notice: string | null;
}

/** One wager as the queue and its detail show it: the keeper's record plus what the account said. */
export interface QueueRow {
  address: string;
  state: WagerState;
  paytable: string | null;
  paytableName: string | null;
  /** USDC base units. */
  stake: string | null;
  openSlot: number | null;
  expirySlot: number | null;
  oracleRequest: string | null;
  requestSignature: string | null;
  requestedSlot: number | null;
  fulfilledSlot: number | null;
  settleSignature: string | null;
  expireSignature: string | null;
  claimSignature: string | null;
  bucket: number | null;
  payout: string | null;
  payoutPending: boolean;
  attempts: number;
  /** Unix ms before which the keeper does not retry (0: no backoff). */
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface StepView {
  at: number;
  wager: string | null;
  step: CrankStep;
  outcome: CrankOutcome;
  signature: string | null;
  error: string | null;
}

export interface OracleLatencyView {
  wager: string;
  requestedSlot: number;
  fulfilledSlot: number;
  slots: number;
  at: string;
}

export interface StepTally {
  step: CrankStep;
  tried: number;
  landed: number;
  /** Landed by another keeper first. */
  lost: number;
  /** Not sent: not the right moment any more, or its fee would exceed what it pays. */
  skipped: number;
  failed: number;
  /** Failures by reason (the refusal's code or the error's first words), most frequent first. */
  failures: { reason: string; count: number }[];
  /** Skips by reason (e.g. the fee would exceed what the step pays), most frequent first. */
  skips: { reason: string; count: number }[];
  /** Crank fees received by this keeper. */
  receivedLamports: number;
  /** Transaction fees this keeper paid for them. */
  feeLamports: number;
}

/** Activity's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface ActivityApi {
  overview(args: { dayStartMs: number }): Promise<OverviewView>;
  /**
   * Wagers in progress and parked payouts (all of them; the UI virtualizes), plus up to 500 that finished
   * (settled, expired, unknown) in the last 10 minutes, so a cranker sees each one end.
   */
  queue(): Promise<QueueRow[]>;
  /** One wager's record, or null when the keeper has none. */
  wager(args: { address: string }): Promise<QueueRow | null>;
  earningsSeries(args: { sinceMs: number; bucketMs: number }): Promise<EarningsPoint[]>;
  /** The earnings CSV for accounting over [sinceMs, untilMs): per crank or per UTC day, sweeps as their own rows (src-main/reports). */
  earningsReport(args: { sinceMs: number; untilMs: number; per: 'crank' | 'day' }): Promise<EarningsReportView>;
  recentSteps(args: { limit: number }): Promise<StepView[]>;
  /** Per crank step since `sinceMs`: tried, landed, lost, skipped and failed (by reason), fees earned and spent. */
  stepTally(args: { sinceMs: number }): Promise<StepTallyView[]>;
  oracleLatency(args: { limit: number }): Promise<OracleLatencyView[]>;
}

/** Activity's method names, in the order the transports list them. */
export const ACTIVITY_METHODS = ['overview', 'queue', 'wager', 'earningsSeries', 'earningsReport', 'recentSteps', 'stepTally', 'oracleLatency'] as const satisfies readonly (keyof ActivityApi)[];
