/** Support's search in the UI: where a search goes (its hash), how a found wager reads in the list, and its CSV. */
import type { AddressSearchView, FoundWagerView } from '@shared/contract/inspection';
import { baseUnitsDecimal, csvDocument } from '@shared/csv';
import { formatUsdc } from './format';

/** Wagers listed per page of the wallet search ("Show more" asks for this many more). */
export const SEARCH_PAGE = 50;

/** `#/search?address=X`: the search a link (or the search box) opens. */
export const searchHash = (address: string): string =>
  `#/search?address=${encodeURIComponent(address.trim())}`;

/** The address in `#/search?address=X` ('' when none). */
export const searchAddressFromHash = (hash: string): string =>
  new URLSearchParams(hash.split('?')[1] ?? '').get('address') ?? '';

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

/** How a wager ended, in one word for support (and the CSV): a payout is won, none is lost. */
export type WagerOutcomeName = 'won' | 'lost' | 'expired' | 'parked' | 'in progress' | 'unknown';

export function outcomeName(wager: Pick<FoundWagerView, 'status' | 'payout'>): WagerOutcomeName {
  switch (wager.status) {
    case 'settled':
      return wager.payout !== null && BigInt(wager.payout) > 0n ? 'won' : 'lost';
    case 'PayoutPending':
      return 'parked';
    case 'expired':
      return 'expired';
    case 'Open':
    case 'Requested':
    case 'queued':
    case 'requested':
    case 'fulfilled':
      return 'in progress';
    default:
      return 'unknown';
  }
}

export const WALLET_CSV_HEADER = [
  'wager',
  'outcome',
  'opened_at_utc',
  'final_at_utc',
  'stake_usdc',
  'payout_usdc',
  'bucket',
  'open_slot',
  'roles',
  'open_signature',
  'final_signature',
] as const;

/** Epoch ms → "2026-11-27T14:03:05Z" (ISO 8601 in UTC: what spreadsheets read as a time); null → ''. */
const isoUtc = (at: number | null): string | null =>
  at === null ? null : new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A wallet's wagers as CSV: UTC times, USDC with 6 decimals, addresses and signatures in full. */
export function walletCsv(wagers: readonly FoundWagerView[]): string {
  return csvDocument(
    WALLET_CSV_HEADER,
    wagers.map((wager) => [
      wager.address,
      outcomeName(wager),
      isoUtc(wager.openedAt),
      isoUtc(wager.finalAt),
      baseUnitsDecimal(wager.stake, 6),
      baseUnitsDecimal(wager.payout, 6),
      wager.bucket,
      wager.openSlot,
      wager.roles.join(' '),
      wager.openSignature,
      wager.finalSignature,
    ]),
  );
}

/** The CSV's file name: "wagers-<address>-<UTC time>.csv". */
export const walletCsvName = (address: string, nowMs: number): string =>
  `wagers-${address}-${new Date(nowMs).toISOString().replace(/[:.]/g, '-')}.csv`;
