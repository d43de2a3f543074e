/**
 * Support's search results (`#/search?address=X`): a wallet's or token account's wagers, newest first, each
 * opening in the Inspector; what the address is when it is nothing of this service. A wager goes straight
 * to the Inspector and the pool to Liquidity.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { AddressSearchView, FoundWagerView } from '../../../src-main/operator/operator-interface';
import { Address } from '../components/CopyButton';
import { foundWagerOutcome, searchAddressFromHash, searchHash, searchRedirect } from '../model/address-search';
import { formatUsdc } from '../model/format';
import { useBridge } from '../queries';

function WagerList({ wagers }: { wagers: FoundWagerView[] }) {
  if (wagers.length === 0) return <p className="empty">No wagers of this service found for this address (open ones on chain, closed ones in its history).</p>;
  return (
    <table className="found-wagers" aria-label="Wagers found">
      <thead>
        <tr>
          <th scope="col">Wager</th>
          <th scope="col">Open slot</th>
          <th scope="col">Stake</th>
          <th scope="col">Status and payout</th>
          <th scope="col">This address is</th>
          <th scope="col" aria-label="Open" />
        </tr>
      </thead>
      <tbody>
        {wagers.map((wager) => (
          <tr key={wager.address}>
            <td>
              <Address value={wager.address} label="Copy wager address" />
            </td>
            <td>{wager.openSlot?.toLocaleString('en-US') ?? '—'}</td>
            <td>{formatUsdc(wager.stake)}</td>
            <td className={`status-${wager.status}`}>{foundWagerOutcome(wager)}</td>
            <td>{wager.roles.join(', ')}</td>
            <td>
              <a href={`#/inspector?wager=${wager.address}`}>Open in Inspector</a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Answer({ view }: { view: AddressSearchView }) {
  if (view.kind === 'notOurs')
    return (
      <div role="alert" className="error">
        {view.message}
      </div>
    );
  if (view.kind !== 'wallet' && view.kind !== 'tokenAccount') return <p aria-busy="true">Opening…</p>;
  return (
    <section aria-label="Search result">
      <h2>
        {view.kind === 'wallet' ? 'Wallet' : 'USDC token account'} <Address value={view.address} label="Copy searched address" />
      </h2>
      {view.owner && (
        <p>
          Owned by wallet <Address value={view.owner} label="Copy owner wallet" /> <a href={searchHash(view.owner)}>Search the owner wallet</a>
        </p>
      )}
      <p className="muted">
        {view.wagers.length === 1 ? '1 wager' : `${view.wagers.length.toLocaleString('en-US')} wagers`} where it is stake owner, beneficiary or app (integrator) authority, newest
        first. Read: {view.searched.length === 1 ? 'its history and the open wagers' : `the history of the wallet and its ${view.searched.length - 1} USDC account(s), and the open wagers`}.
      </p>
      {view.note && <p className="warn">{view.note}</p>}
      <WagerList wagers={view.wagers} />
    </section>
  );
}

export function Search() {
  const bridge = useBridge();
  const [address, setAddress] = useState(() => searchAddressFromHash(window.location.hash));
  useEffect(() => {
    const follow = () => setAddress(searchAddressFromHash(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  const search = useQuery({ queryKey: ['searchAddress', address], queryFn: () => bridge.call('searchAddress', { address }), enabled: address !== '', staleTime: 0 });
  // A wager belongs in the Inspector, the pool in Liquidity: go there (replacing the search in the history).
  const redirect = search.data ? searchRedirect(search.data) : null;
  useEffect(() => {
    if (redirect) window.location.replace(redirect);
  }, [redirect]);
  return (
    <section className="panel search-screen" aria-labelledby="search-heading">
      <h1 id="search-heading">Search</h1>
      {address === '' && <p>Type any address a user gave you in the search box above (press / or Ctrl+K): a wallet or token account lists its wagers; a wager opens the Inspector.</p>}
      {address !== '' && (
        <p>
          Address <code className="full-address">{address}</code>
        </p>
      )}
      {search.isFetching && <p aria-busy="true">Searching the chain and the keeper&apos;s records…</p>}
      {search.error && (
        <p role="alert" className="error">
          Cannot search: {search.error.message}
        </p>
      )}
      {search.data && !search.isFetching && <Answer view={search.data} />}
    </section>
  );
}
