/**
 * Support's search results (`#/search?address=X`): a wallet's or token account's wagers, newest first, with
 * their times (opened, ended), stake, outcome and payout, each opening in the Inspector, a page at a time
 * ("Show more"), and "Export CSV" of all of them. What the address is when it is nothing of this service. A
 * wager goes straight to the Inspector and the pool to Liquidity.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { AddressSearchView, FoundWagerView } from '@shared/contract/inspection';
import { Address } from '../components/CopyButton';
import { TimeText } from '../components/TimeText';
import {
  foundWagerOutcome,
  outcomeName,
  SEARCH_PAGE,
  searchAddressFromHash,
  searchHash,
  searchRedirect,
  walletCsv,
  walletCsvName,
} from '../model/address-search';
import { formatUsdc, groupDigits } from '../model/format';
import { useBridge } from '../queries';
import { saveCsvFile } from '../save-csv';

type WalletView = Extract<AddressSearchView, { kind: 'wallet' | 'tokenAccount' }>;

function WagerList({ wagers }: { wagers: FoundWagerView[] }) {
  if (wagers.length === 0)
    return (
      <p className="empty">
        No wagers of this service found for this address (open ones on chain, closed ones in its history).
      </p>
    );
  return (
    <table className="found-wagers" aria-label="Wagers found">
      <thead>
        <tr>
          <th scope="col">Wager</th>
          <th scope="col">Opened</th>
          <th scope="col">Ended</th>
          <th scope="col">Stake</th>
          <th scope="col">Outcome</th>
          <th scope="col">Payout</th>
          <th scope="col">This address is</th>
          <th scope="col" aria-label="Open" />
        </tr>
      </thead>
      <tbody>
        {wagers.map((wager) => {
          const outcome = outcomeName(wager);
          return (
            <tr key={wager.address}>
              <td>
                <Address value={wager.address} label="Copy wager address" />
              </td>
              <td>
                <TimeText at={wager.openedAt} />
                <div className="muted">
                  slot {wager.openSlot === null ? '—' : groupDigits(wager.openSlot)}
                </div>
              </td>
              <td>
                {outcome === 'in progress' ? (
                  <span className="muted">in progress</span>
                ) : (
                  <TimeText at={wager.finalAt} />
                )}
              </td>
              <td>{formatUsdc(wager.stake)}</td>
              <td className={`status-${wager.status}`}>
                <strong className={`outcome outcome-${outcome.replace(' ', '-')}`}>{outcome}</strong>
                <div className="muted">{foundWagerOutcome(wager)}</div>
              </td>
              <td>
                {outcome === 'won' || outcome === 'lost' || outcome === 'parked'
                  ? formatUsdc(wager.payout)
                  : '—'}
              </td>
              <td>{wager.roles.join(', ')}</td>
              <td>
                <a href={`#/inspector?wager=${wager.address}`}>Open in Inspector</a>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** "Export CSV": every wager found (the page shown, or all of them asked for once more), with UTC times. */
function ExportCsv({ view }: { view: WalletView }) {
  const bridge = useBridge();
  const exportCsv = useMutation({
    mutationFn: async () => {
      const all =
        view.total <= view.wagers.length
          ? view
          : await bridge.call('searchAddress', { address: view.address, limit: view.total });
      if (all.kind !== 'wallet' && all.kind !== 'tokenAccount')
        throw new Error(`the address now reads as ${all.kind}`);
      saveCsvFile(walletCsvName(view.address, Date.now()), walletCsv(all.wagers));
      return all.wagers.length;
    },
  });
  if (view.total === 0) return null;
  return (
    <p>
      <button
        type="button"
        onClick={() => exportCsv.mutate()}
        disabled={exportCsv.isPending}
        title="Downloads every wager found: UTC times, USDC amounts with 6 decimals, addresses and signatures in full"
      >
        {exportCsv.isPending ? 'Preparing CSV…' : 'Export CSV'}
      </button>{' '}
      {exportCsv.isSuccess && (
        <span role="status">
          {exportCsv.data === 1 ? '1 wager' : `${groupDigits(exportCsv.data)} wagers`} exported.
        </span>
      )}
      {exportCsv.error && (
        <span role="alert" className="error">
          Cannot export: {exportCsv.error.message}. Check the keeper is running (Overview), then try again.
        </span>
      )}
    </p>
  );
}

function Answer({
  view,
  onMore,
  loadingMore,
}: {
  view: AddressSearchView;
  onMore: () => void;
  loadingMore: boolean;
}) {
  if (view.kind === 'notOurs')
    return (
      <div role="alert" className="error">
        {view.message}
      </div>
    );
  if (view.kind !== 'wallet' && view.kind !== 'tokenAccount') return <p aria-busy="true">Opening…</p>;
  const left = view.total - view.wagers.length;
  return (
    <section aria-label="Search result">
      <h2>
        {view.kind === 'wallet' ? 'Wallet' : 'USDC token account'}{' '}
        <Address value={view.address} label="Copy searched address" />
      </h2>
      {view.owner && (
        <p>
          Owned by wallet <Address value={view.owner} label="Copy owner wallet" />{' '}
          <a href={searchHash(view.owner)}>Search the owner wallet</a>
        </p>
      )}
      <p className="muted">
        {view.total === 1 ? '1 wager' : `${groupDigits(view.total)} wagers`} where it is stake owner,
        beneficiary or app (integrator) authority, newest first
        {left > 0 ? ` (the newest ${groupDigits(view.wagers.length)} shown)` : ''}. Read:{' '}
        {view.searched.length === 1
          ? 'its history and the open wagers'
          : `the history of the wallet and its ${view.searched.length - 1} USDC account(s), and the open wagers`}
        .
      </p>
      {view.note && <p className="warn">{view.note}</p>}
      <ExportCsv view={view} />
      <WagerList wagers={view.wagers} />
      {left > 0 && (
        <p>
          <button type="button" onClick={onMore} disabled={loadingMore}>
            {loadingMore
              ? 'Reading more…'
              : `Show more (${groupDigits(Math.min(left, SEARCH_PAGE))} of ${groupDigits(left)} more)`}
          </button>
        </p>
      )}
    </section>
  );
}

export function Search() {
  const bridge = useBridge();
  const [address, setAddress] = useState(() => searchAddressFromHash(window.location.hash));
  const [limit, setLimit] = useState(SEARCH_PAGE);
  useEffect(() => {
    const follow = () => {
      setAddress(searchAddressFromHash(window.location.hash));
      setLimit(SEARCH_PAGE);
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  const search = useQuery({
    queryKey: ['searchAddress', address, limit],
    queryFn: () => bridge.call('searchAddress', { address, limit }),
    enabled: address !== '',
    staleTime: 0,
    // "Show more" keeps the list shown while the longer page is read (never another address's list).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === address ? previous : undefined,
  });
  // A wager belongs in the Inspector, the pool in Liquidity: go there (replacing the search in the history).
  const redirect = search.data ? searchRedirect(search.data) : null;
  useEffect(() => {
    if (redirect) window.location.replace(redirect);
  }, [redirect]);
  const loadingMore = search.isPlaceholderData;
  return (
    <section className="panel search-screen" aria-labelledby="search-heading">
      <h1 id="search-heading">Search</h1>
      {address === '' && (
        <p>
          Type any address a user gave you in the search box above (press / or Ctrl+K): a wallet or token
          account lists its wagers; a wager opens the Inspector.
        </p>
      )}
      {address !== '' && (
        <p>
          Address <code className="full-address">{address}</code>
        </p>
      )}
      {search.isFetching && !loadingMore && (
        <p aria-busy="true">Searching the chain and the keeper&apos;s records…</p>
      )}
      {search.error && (
        <p role="alert" className="error">
          Cannot search: {search.error.message}
        </p>
      )}
      {search.data && (!search.isFetching || loadingMore) && (
        <Answer
          view={search.data}
          onMore={() => setLimit((current) => current + SEARCH_PAGE)}
          loadingMore={loadingMore}
        />
      )}
    </section>
  );
}
