/**
 * The typed stream the keeper core emits for the console (in process; the UI never scrapes /v1), and the
 * types its events carry. The keeper's parts share these from here, below them all, so no part imports
 * another for a type (that made a loop of eight files).
 */
import type { EarningsEntry } from '../store/earnings-ledger';
import type { CrankOutcome, CrankStep } from '../../src-shared/crank-vocabulary';
import type { WagerRecord } from '../store/wager-records';
import type { HealthRecord } from './keeper-service';

export interface OracleLatency {
  wager: string;
  requestedSlot: number;
  fulfilledSlot: number;
  /** Slots from the request landing to the fulfilment being seen. */
  slots: number;
}

export interface StepEvent {
  wager: string | null;
  step: CrankStep;
  outcome: CrankOutcome;
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

/** A crank left to another member of the fleet until `takeoverSlot`. */
export interface HeldForShard {
  /** The owner's shard, "I/N". */
  shard: string;
  takeoverSlot: number;
}

/** A wager still without a request OVERDUE_AFTER_SLOTS slots after it could be requested. */
export interface OverdueWager {
  wager: string;
  openSlot: number;
  expirySlot: number;
  /** Slots past the moment it could be requested (open + 2). */
  slotsLate: number;
  lastError: string | null;
  /** Another fleet member's wager: its shard, and the slot this keeper sends the request itself (null: this keeper's own). */
  heldFor: HeldForShard | null;
}
