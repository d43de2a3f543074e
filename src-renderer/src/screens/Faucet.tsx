/** The faucet for testers: claim test USDC (and a SOL top-up) for a wallet, on test networks only. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { FaucetClaimView } from '../../../src-main/operator/operator-interface';
import { Address } from '../components/CopyButton';
import { formatUsdc } from '../model/format';
import { countdown } from '../model/oracle';
import { useBridge, useNow } from '../queries';

function Result({ result }: { result: FaucetClaimView }) {
  const now = useNow();
  if (result.ok)
    return (
      <div role="status" className="ok-box">
        Sent {formatUsdc(result.usdc)}
        {result.sol !== '0' ? ` and ${result.sol} SOL` : ''}. Transaction: <Address value={result.signature} label="Copy faucet transaction" />
      </div>
    );
  return (
    <div role="alert" className="error">
      Refused: {result.error}. You can claim again {countdown(result.retryAt, now)}
      {result.retryAt > now ? ` (at ${new Date(result.retryAt).toLocaleTimeString()})` : ''}.
    </div>
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
  if (status.data === null)
    return (
      <section className="panel">
        <h1>Faucet</h1>
        <p>This keeper serves no faucet: only test networks have one (a wager-keeper localnet, or a devnet keeper started with --faucet-mint and --faucet-authority).</p>
      </section>
    );
  return (
    <section className="panel" aria-labelledby="faucet-title">
      <h1 id="faucet-title">Faucet</h1>
      {status.data && (
        <p>
          {formatUsdc(status.data.usdc)} per claim; {status.data.remainingToday} of {status.data.perDay} claims left today. One claim per wallet every 5 minutes.
        </p>
      )}
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
