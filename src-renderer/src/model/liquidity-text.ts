/** The Liquidity screen's sentences: why an action waits and when that changes, what a claim will pay. */
import type { ActionCheckView, ClaimPreviewView, WhenView } from '@shared/contract/liquidity';
import { formatDuration, formatLamports, formatUsdc } from './format';

/** 123456 → "123 456": slot numbers read in groups of three. */
export const formatSlot = (slot: number): string => slot.toLocaleString('en-US').replace(/,/g, ' ');

export const formatShares = (base: string): string => formatUsdc(base).replace('USDC', 'shares');

/** When a refused action may be accepted, in words; slots become time at the measured pace. */
export function describeWhen(when: WhenView, slotMs: number, measured: boolean): string {
  if (when.kind === 'close') {
    const pace = measured ? '' : ' at 400 ms per slot';
    return `Epoch ${when.epoch} closes at slot ${formatSlot(when.closeSlot)} (in about ${formatDuration(Math.max(when.slotsLeft, 0) * slotMs)}${pace}).`;
  }
  if (when.kind === 'openWagers')
    return `${when.count} wager${when.count === 1 ? '' : 's'} opened before the close ${when.count === 1 ? 'is' : 'are'} still open: waiting for ${when.count === 1 ? 'it' : 'them'} to settle or expire.`;
  return `Already struck: epoch ${when.epoch} was struck.`;
}

/** Why an action is disabled: the program's refusal in words, then when it changes (null when allowed). */
export function describeRefusal(check: ActionCheckView, slotMs: number, measured: boolean): string | null {
  if (check.allowed) return null;
  const why = check.refusal?.sentence ?? 'The chain would refuse it now.';
  return check.when ? `${why} ${describeWhen(check.when, slotMs, measured)}` : why;
}

/** What a claim will pay and its fees: "Pays 24.99 USDC (20.00 shares at 1.250000 USDC per share)". */
export function describePreview(kind: 'deposit' | 'withdraw', preview: ClaimPreviewView): string {
  const price = preview.sharePrice ? ` at ${preview.sharePrice} USDC per share` : '';
  const pays =
    kind === 'deposit'
      ? `Mints ${formatShares(preview.shares)} (worth ${formatUsdc(preview.usdc)}${price})`
      : `Pays ${formatUsdc(preview.usdc)} (${formatShares(preview.shares)}${price})`;
  return `${pays}; fee: the claimer earns ${formatLamports(preview.callerFeeLamports)} and pays ${formatLamports(preview.transactionFeeLamports)} for the transaction.`;
}
