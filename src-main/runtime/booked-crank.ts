/** A crank the operator asked for (a payout, a strike, a liquidity claim), answered with what it did. */
import type { CrankResult, Keeper } from '../keeper/keeper';
import type { KeeperEvents } from '../keeper/keeper-events';
import { explainCode } from '../protocol/program-error-sentences';
import type { CrankActionView } from '../../src-shared/contract/liquidity';

/** Runs one crank and answers what it did, with the fee its booking recorded (or the refusal's sentence). */
export async function bookedCrank(keeper: Keeper, send: () => Promise<CrankResult>): Promise<CrankActionView> {
  // The fee is known only from the earnings booking, which the keeper emits while it sends.
  const fees = new Map<string, number>();
  const onEarnings: (...args: KeeperEvents['earnings']) => void = (entry) => void (entry.signature && fees.set(entry.signature, entry.receivedLamports));
  keeper.events.on('earnings', onEarnings);
  try {
    const result = await send();
    if (result.outcome !== 'landed') {
      const error = 'error' in result ? result.error : result.reason;
      return { outcome: result.outcome, error, sentence: explainCode(error) };
    }
    return { outcome: 'landed', signature: result.signature, feeLamports: fees.get(result.signature) ?? 0 };
  } finally {
    keeper.events.off('earnings', onEarnings);
  }
}
