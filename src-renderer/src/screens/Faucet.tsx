/**
 * The faucet for testers: claim test USDC (and a SOL top-up) for a wallet, on test networks only. This
 * keeper grants it when it holds the test mint's authority; otherwise the deployment's public keeper is
 * asked (by the keeper's process, not the page); the screen says which one answered, or why there is none.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { FaucetClaimView, FaucetView } from '@shared/contract/faucet';
import { Address } from '../components/CopyButton';
import { TimeText } from '../components/TimeText';
import { formatUsdc } from '../model/format';
import { countdown } from '../model/oracle';
import { useBridge, useNow } from '../queries';

const answeredByText = (answeredBy: string) => (answeredBy === 'this keeper' ? 'this keeper' : `the deployment's keeper at ${answeredBy}`);

function Result({ result }: { result: FaucetClaimView }) {
  const now = useNow();
  if (result.ok)
    return (
      <div role="status" className="ok-box">
        Sent {formatUsdc(result.usdc)}
        {result.sol !== '0' ? ` and ${result.sol} SOL` : ''} (answered by {answeredByText(result.answeredBy)}). Transaction:{' '}
        <Address value={result.signature} label="Copy faucet transaction" />
      </div>
    );
  return (
    <div role="alert" className="error">
      Refused: {result.error} (answered by {answeredByText(result.answeredBy)}). You can claim again {countdown(result.retryAt, now)}
      {result.retryAt > now ? <> (at <TimeText at={result.retryAt} />)</> : ''}.
    </div>
  );
}

/** Which faucet serves this cluster, and its figures. */
function Source({ view }: { view: Exclude<FaucetView, { source: 'none' }> }) {
  const status = view.status;
  return (
    <>
      <p className="muted">
        {view.source === 'this keeper'
          ? "Granted by this keeper: it holds the test USDC mint's authority."
          : `This keeper does not hold the test USDC mint's authority: claims go to the deployment's public keeper at ${view.keeperApi}.`}
      </p>
      {status && (
        <p>
          {formatUsdc(status.usdc)} per claim; {status.remainingToday} of {status.perDay} claims left today. One claim per wallet every 5 minutes.
        </p>
      )}
      {view.source === 'deployment keeper' && view.error && (
        <div role="alert" className="error">
          {view.error}
        </div>
      )}
    </>
  );
}

export function Faucet() {
  const bridge = useBridge();
  const client = useQueryClient();
  const status = useQuery({ queryKey: ['faucet'], queryFn: () => bridge.call('faucetStatus', undefined) });
  const [owner, setOwner] = useState('');
  const claim = useMutation({
    mutationFn: () => bridge.call('faucetClaim', { owner }),
    onSettled: () => void client.invalidateQueries({ queryKey: ['faucet'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    claim.mutate();
  };
  if (status.data?.source === 'none')
    return (
      <section className="panel" aria-labelledby="faucet-title">
        <h1 id="faucet-title">Faucet</h1>
        <p>No faucet on this cluster: {status.data.reason}.</p>
      </section>
    );
  return (
    <section className="panel" aria-labelledby="faucet-title">
      <h1 id="faucet-title">Faucet</h1>
      {status.error && (
        <div role="alert" className="error">
          Cannot read the faucet: {status.error.message}
        </div>
      )}
      {status.data && <Source view={status.data} />}
      <form onSubmit={submit} className="form-grid">
        <label htmlFor="faucet-owner">Wallet address</label>
        <input id="faucet-owner" type="text" value={owner} placeholder="a Solana wallet address" onChange={(e) => setOwner(e.target.value)} />
        <span />
        <span>
          <button type="submit" className="primary" disabled={claim.isPending || !owner.trim()} aria-busy={claim.isPending}>
            {claim.isPending ? 'Sending…' : 'Claim test USDC'}
          </button>
        </span>
      </form>
      {claim.data && <Result result={claim.data} />}
      {claim.error && (
        <div role="alert" className="error">
          {claim.error.message}
        </div>
      )}
    </section>
  );
}
