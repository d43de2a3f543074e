/** The typed stream the keeper core emits for the console (in process; the UI never scrapes /v1). */
import type { EarningsEntry, CrankStep } from '../store/earnings-ledger';
import type { WagerRecord } from '../store/wager-records';
import type { HealthRecord } from './keeper-service';
import type { OverdueWager } from './overdue';

export interface OracleLatency {
  wager: string;
  requestedSlot: number;
  fulfilledSlot: number;
  /** Slots from the request landing to the fulfilment being seen. */
  slots: number;
}

/** landed; lost to another keeper; skipped (not the right moment any more); failed (retried with backoff). */
export type StepOutcome = 'landed' | 'lost' | 'skipped' | 'failed';

export interface StepEvent {
  wager: string | null;
  step: CrankStep;
  outcome: StepOutcome;
  signature?: string;
  error?: string;
}

export interface KeeperEvents {
  record: [WagerRecord];
  earnings: [EarningsEntry];
  latency: [OracleLatency];
  health: [HealthRecord];
  step: [StepEvent];
  /** A wager just found overdue (no request 10 slots after it could be requested). */
  overdue: [OverdueWager];
}
