/**
 * Liquidity, for LPs: the pool, the live epoch, requests with Claim, an LP's position, share price history.
 * Strike and Claim are enabled only when the chain would accept them (the core simulates the instruction);
 * otherwise the refusal is said in words with when it changes.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Address } from '../components/CopyButton';
import { CrankResult } from '../components/CrankResult';
import type { LiquidityRequestView } from '@shared/contract/liquidity';
import { formatDuration, formatLamports, formatUsdc } from '../model/format';
import { describePreview, describeRefusal, formatShares, formatSlot } from '../model/liquidity-text';
import { useBridge, useSlotPace } from '../queries';

export function Liquidity() {
  const bridge = useBridge();
  const client = useQueryClient();
  const pace = useSlotPace();
  const [owner, setOwner] = useState('');
  const [filter, setFilter] = useState<string | null>(null);
  const view = useQuery({ queryKey: ['liquidity', filter], queryFn: () => bridge.call('liquidity', { owner: filter }), refetchInterval: 3_000 });
  const refresh = () => void client.invalidateQueries({ queryKey: ['liquidity'] });
  // The epoch on screen goes along: if it was struck meanwhile, the answer says so instead of striking the next.
  const strike = useMutation({ mutationFn: (epoch: number) => bridge.call('strikeEpoch', { epoch }), onSettled: refresh });
  const claim = useMutation({ mutationFn: (request: string) => bridge.call('claimLiquidity', { request }), onSettled: refresh });
  const data = view.data;
  const strikeWhy = data ? describeRefusal(data.epoch.strike, pace.ms, pace.measured) : null;
  const history = (data?.history ?? []).filter((h) => h.sharePrice !== null).map((h) => ({ epoch: h.epoch, price: Number(h.sharePrice) }));
  return (
    <div className="grid">
      <h1 className="sr-only">Liquidity</h1>
      {view.error && (
        <div role="alert" className="error panel wide">
          Cannot read the pool: {view.error.message}
        </div>
      )}
      {data && (
        <>
          <section className="panel" aria-labelledby="pool-title">
            <h2 id="pool-title">Pool</h2>
            <dl className="kv">
              <dt>free liquidity</dt>
              <dd>{formatUsdc(data.pool.freeLiquidity)}</dd>
              <dt>locked liability</dt>
              <dd>{formatUsdc(data.pool.lockedLiability)}</dd>
              <dt>share price</dt>
              <dd>{data.pool.sharePrice ? `${data.pool.sharePrice} USDC per share` : '— (no shares yet)'}</dd>
              <dt>share supply</dt>
              <dd>{formatShares(data.pool.totalShares)}</dd>
              <dt>pending deposits</dt>
              <dd>{formatUsdc(data.pool.pendingDeposits)}</dd>
              <dt>pending withdrawals</dt>
              <dd>{formatShares(data.pool.pendingWithdrawShares)}</dd>
            </dl>
          </section>
          <section className="panel" aria-labelledby="epoch-title">
            <h2 id="epoch-title">Live epoch {data.epoch.epoch}</h2>
            {/* The close and its time are said once: in the refusal's "when" while the strike waits for it. */}
            {data.epoch.strike.when?.kind === 'close' ? (
              <p>Now at slot {formatSlot(data.epoch.currentSlot)}.</p>
            ) : (
              <p>
                Closes at slot {formatSlot(data.epoch.closeSlot)} (now {formatSlot(data.epoch.currentSlot)})
                {data.epoch.closeSlot >= data.epoch.currentSlot
                  ? `, in about ${formatDuration((data.epoch.closeSlot - data.epoch.currentSlot + 1) * pace.ms)}${pace.measured ? '' : ' at 400 ms per slot'}`
                  : ''}
                .
              </p>
            )}
            <p id="strike-why">
              {strikeWhy === null
                ? `It can be struck now (the chain accepts the strike); it pays ${data.epoch.strikeFeeLamports > 0 ? formatLamports(data.epoch.strikeFeeLamports) : 'no fee (the epoch had no requests)'}.`
                : `It cannot be struck yet. ${strikeWhy}`}
            </p>
            <button
              type="button"
              className="primary"
              disabled={strike.isPending || strikeWhy !== null}
              aria-busy={strike.isPending}
              aria-describedby="strike-why"
              onClick={() => strike.mutate(data.epoch.epoch)}
            >
              Strike epoch
            </button>
            {strike.data && <CrankResult result={strike.data} what="Strike" />}
            {strike.error && <p role="alert" className="error">{strike.error.message}</p>}
          </section>
          <section className="panel wide" aria-labelledby="requests-title">
            <h2 id="requests-title">Deposit and withdrawal requests</h2>
            <form
              className="toolbar"
              onSubmit={(event) => {
                event.preventDefault();
                setFilter(owner.trim() || null);
              }}
            >
              <label htmlFor="lp-owner">Owner address</label>
              <input id="lp-owner" type="text" value={owner} placeholder="all owners" onChange={(e) => setOwner(e.target.value)} />
              <button type="submit">Filter</button>
            </form>
            {data.requests.length === 0 ? (
              <p className="muted">No requests{filter ? ' for this owner' : ''} in the live or struck epochs.</p>
            ) : (
              <table className="plain" aria-label="Liquidity requests">
                <thead>
                  <tr>
                    <th>Kind</th>
                    <th>Request</th>
                    <th>Owner</th>
                    <th>Epoch</th>
                    <th>Amount</th>
                    <th>Status</th>
                    <th>Claim</th>
                  </tr>
                </thead>
                <tbody>
                  {data.requests.map((request) => (
                    <tr key={request.address}>
                      <td>{request.kind}</td>
                      <td>
                        <Address value={request.address} label="Copy request" />
                      </td>
                      <td>
                        <Address value={request.owner} label="Copy owner" />
                      </td>
                      <td>{request.epoch}</td>
                      <td>{request.kind === 'deposit' ? formatUsdc(request.amount) : formatShares(request.amount)}</td>
                      <td>{request.status}</td>
                      <td className="wrap">
                        {request.preview && <p>{describePreview(request.kind, request.preview)}</p>}
                        <ClaimButton request={request} pending={claim.isPending} onClaim={() => claim.mutate(request.address)} slotMs={pace.ms} measured={pace.measured} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {claim.data && <CrankResult result={claim.data} what="Claim" />}
            {claim.error && <p role="alert" className="error">{claim.error.message}</p>}
          </section>
          {data.position && (
            <section className="panel wide" aria-labelledby="position-title">
              <h2 id="position-title">Position of {data.position.owner}</h2>
              <dl className="kv">
                <dt>shares</dt>
                <dd>{formatShares(data.position.shares)}</dd>
                <dt>value now</dt>
                <dd>{formatUsdc(data.position.valueNow)} (at the pool's price now; a withdrawal is priced at its epoch's strike)</dd>
                <dt>deposits pending</dt>
                <dd>{formatUsdc(data.position.pendingDeposits)}</dd>
                <dt>withdrawals pending</dt>
                <dd>{formatShares(data.position.pendingWithdrawShares)}</dd>
                <dt>USDC held</dt>
                <dd>{formatUsdc(data.position.usdc)}</dd>
              </dl>
            </section>
          )}
          <section className="panel wide" aria-labelledby="history-title">
            <h2 id="history-title">Share price per struck epoch</h2>
            {history.length === 0 && <p className="muted">No epoch struck with shares yet: the chart starts at the first strike.</p>}
            <div className="chart" role="img" aria-label={`Share price over ${history.length} struck epoch${history.length === 1 ? '' : 's'}`}>
              {history.length > 0 && (
                <ResponsiveContainer width="100%" height={200}>
                  <LineChart data={history} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
                    <CartesianGrid stroke="#2a3340" />
                    <XAxis dataKey="epoch" stroke="#8a96a8" />
                    <YAxis stroke="#8a96a8" domain={['auto', 'auto']} label={{ value: 'USDC/share', angle: -90, position: 'insideLeft', fill: '#8a96a8' }} />
                    <Tooltip formatter={(value) => [`${Number(value).toFixed(6)} USDC per share`, 'share price']} contentStyle={{ background: '#161b22', border: '1px solid #2a3340' }} />
                    <Line dataKey="price" stroke="#3fb950" isAnimationActive={false} />
                  </LineChart>
                </ResponsiveContainer>
              )}
            </div>
          </section>
        </>
      )}
    </div>
  );
}

/** Claim, enabled only when the chain would accept it; otherwise why not, in words. */
function ClaimButton({ request, pending, onClaim, slotMs, measured }: { request: LiquidityRequestView; pending: boolean; onClaim: () => void; slotMs: number; measured: boolean }) {
  if (!request.claim) return <span className="muted">not checked: filter by owner to check it</span>;
  const why = describeRefusal(request.claim, slotMs, measured);
  const id = `claim-why-${request.address}`;
  return (
    <>
      <button type="button" disabled={pending || why !== null} aria-describedby={why ? id : undefined} onClick={onClaim}>
        Claim
      </button>
      {why && (
        <p id={id} className="muted">
          {why}
        </p>
      )}
    </>
  );
}
