/**
 * A wager step: one rule of spec 4.4 (request, settle, claim payout, expire), one file each. The
 * scheduler shows every step, in order, each wager it takes in a pass (with the wager as read this pass);
 * the first step that takes the wager ends its pass. A step sends through the send path only (ctx.launch +
 * sendPath.sendForWager), never its own transaction.
 */
import type { Address } from '@solana/kit';
import type { SlotHash, Wager } from '../../protocol/wager';
import type { CrankStep } from '../../../src-shared/crank-vocabulary';
import type { WagerRecord } from '../../store/wager-records';

/** One wager in one pass, as read from the chain this pass. */
export interface WagerPass {
  /** The confirmed slot of the pass. */
  slot: bigint;
  address: Address;
  record: WagerRecord;
  wager: Wager;
  /** Its oracle request is fulfilled (only when Requested). */
  fulfilled: boolean;
  /** Within URGENT_SLOTS of its expiry: sent whatever the backoff, with a raised priority fee. */
  urgent: boolean;
  /** The SlotHashes sysvar, read once per pass and only when a step needs it. */
  slotHashes: () => Promise<SlotHash[]>;
}

export interface WagerStep {
  readonly name: CrankStep;
  /**
   * The step waits out the wager's backoff (record.nextAttemptAt) unless urgent: the scheduler checks it
   * before asking. False for a step with its own pace (the payout claim).
   */
  readonly waitsOutBackoff: boolean;
  /** True when the step takes the wager this pass (sent, or it is its turn and waits); later steps do not look. */
  advance(pass: WagerPass): Promise<boolean>;
}
