/** Support's search in the UI: where a search goes (its hash), and how a found wager reads in the list. */
import type { AddressSearchView, FoundWagerView } from '../../../src-main/operator/operator-interface';
import { formatUsdc } from './format';

/** `#/search?address=X`: the search a link (or the search box) opens. */
export const searchHash = (address: string): string => `#/search?address=${encodeURIComponent(address.trim())}`;

/** The address in `#/search?address=X` ('' when none). */
export const searchAddressFromHash = (hash: string): string => new URLSearchParams(hash.split('?')[1] ?? '').get('address') ?? '';

/** Where an answer belongs elsewhere: a wager to the Inspector, the pool to Liquidity (null: shown on the search screen). */
export function searchRedirect(view: AddressSearchView): string | null {
  if (view.kind === 'wager') return `#/inspector?wager=${view.address}`;
  if (view.kind === 'pool') return '#/liquidity';
  return null;
}

/** "settled: bucket 1, payout 1.96 USDC", "expired: stake forfeited to the pool", "open (Requested)". */
export function foundWagerOutcome(wager: FoundWagerView): string {
  switch (wager.status) {
    case 'settled':
      return `settled: bucket ${wager.bucket ?? '—'}, payout ${formatUsdc(wager.payout)}`;
    case 'PayoutPending':
      return `payout parked: ${formatUsdc(wager.payout)} waiting in the escrow (bucket ${wager.bucket ?? '—'})`;
    case 'expired':
      return 'expired: the randomness never came, the stake stayed in the pool';
    case 'Open':
    case 'Requested':
      return `open (${wager.status})`;
    case 'queued':
    case 'requested':
    case 'fulfilled':
      return `open (${wager.status})`;
    default:
      return 'unknown: its history is no longer available from this RPC';
  }
}
