/**
 * Spec 4.4, step 3 (second half): for `PayoutPending` wagers (a payout the vault could not deliver at
 * settlement), retry `claim_payout` from time to time (10 s doubling to 10 min). Also the console's
 * "Claim payout now". A parked wager we did not settle gets its settle transaction from the history.
 */
import type { Address } from '@solana/kit';
import { WagerStatus, getClaimPayoutForWager, type Wager } from '../../protocol/wager';
import type { CrankResult } from '../crank-sender';
import type { KeeperContext } from '../keeper-context';
import type { SendPath } from '../send-path';
import type { WagerHistory } from '../wager-history';
import type { WagerStep } from './step';

export interface ClaimPayoutStep extends WagerStep {
  /** Sends the claim now, booked on the wager's record; also while paused (a person chose it). */
  claimNow(address: Address, wager: Wager): Promise<CrankResult>;
}

export function createClaimPayoutStep(ctx: KeeperContext, sendPath: SendPath, history: WagerHistory): ClaimPayoutStep {
  const { signer, program, now } = ctx;
  const claim = (address: Address, wager: Wager, onResult?: (result: CrankResult) => void) =>
    sendPath.sendForWager({
      step: 'claim_payout',
      address,
      build: async () => [await getClaimPayoutForWager({ caller: signer, wagerAddress: address, wager, programAddress: program })],
      onLanded: async (signature) => ({ claimSignature: signature, payoutPending: false }),
      onResult,
    });

  return {
    name: 'claim_payout',
    waitsOutBackoff: false,
    async advance({ address, record, wager }) {
      if (wager.status !== WagerStatus.PayoutPending) return false;
      if (record.state !== 'settled' || !record.payoutPending) {
        ctx.change(address, { state: 'settled', bucket: wager.bucket, payout: wager.payout.toString(), payoutPending: true });
      }
      if (!record.settleSignature) history.recordSettlementFromChain(address, wager.openSlot);
      // Its own backoff, never skipped: a payout waits for the vault, not for a deadline.
      if (record.nextAttemptAt > now()) return true;
      ctx.launch(() => claim(address, wager));
      return true;
    },
    async claimNow(address, wager) {
      let result: CrankResult = { outcome: 'skipped', reason: 'not sent' };
      await claim(address, wager, (sent) => (result = sent));
      return result;
    },
  };
}
