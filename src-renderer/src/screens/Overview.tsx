/** Overview, for crankers: is the keeper running, does it earn, does its balance last, what is it doing. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { EarningsTotals } from '../../../src-main/operator/operator-interface';
import { CopyButton } from '../components/CopyButton';
import { cumulativeNetSol, describeRunway, formatAge, formatLamports, formatSol, sumEarnings } from '../model/format';
import { EARNINGS_RANGES, useBridge, useEarnings, useHealth, useNow, useOverview, useStatus } from '../queries';

function KeeperCard() {
  const status = useStatus().data;
  const health = useHealth().data;
  if (!status?.keeper) return <section className="panel">No keeper is running yet.</section>;
  const address = status.keeper.address;
  const devnet = status.cluster?.name === 'devnet';
  return (
    <section className="panel" aria-labelledby="keeper-title">
      <h2 id="keeper-title">Keeper</h2>
      <p className="address-line">
        <code className="full-address">{address}</code> <CopyButtonInline address={address} />
        <span className="muted"> key: {status.keeper.keySource}</span>
      </p>
      <p className="big">{health ? formatSol(health.lamports) : '—'}</p>
      <p className="muted">{health ? `Runway: ${describeRunway(health.runway)}` : ''}</p>
      {health?.runway.low && (
        <div role="alert" className="error">
          Low balance: {formatSol(health.lamports)} left. Send SOL to <code>{address}</code> (the keeper pays each crank's transaction fee up front).
          {devnet && (
            <>
              {' '}
              On devnet: <code>solana airdrop 1 {address} --url devnet</code>
            </>
          )}
        </div>
      )}
      <p className={status.paused ? 'warn' : 'muted'}>
        {status.paused
          ? 'Paused: no new cranks are sent; in-flight ones finish. Resume from the switch at the top.'
          : 'Cranking: every slot moves wagers forward. The switch at the top pauses it.'}
      </p>
    </section>
  );
}

/** The keeper address's copy button, named for screen readers and tests. */
function CopyButtonInline({ address }: { address: string }) {
  return <CopyButton text={address} label="Copy keeper address" />;
}

function Counts() {
  const overview = useOverview().data;
  const counts = overview?.queueCounts;
  const today = overview?.cranksToday;
  return (
    <section className="panel" aria-labelledby="queue-title">
      <h2 id="queue-title">Queue and cranks today</h2>
      <dl className="stats">
        <div>
          <dt>queued</dt>
          <dd>{counts?.queued ?? '—'}</dd>
        </div>
        <div>
          <dt>requested</dt>
          <dd>{counts?.requested ?? '—'}</dd>
        </div>
        <div>
          <dt>fulfilled</dt>
          <dd>{counts?.fulfilled ?? '—'}</dd>
        </div>
        <div>
          <dt>parked payouts</dt>
          <dd>{overview?.parkedPayouts ?? '—'}</dd>
        </div>
      </dl>
      <dl className="stats">
        <div>
          <dt>landed</dt>
          <dd>{today?.landed ?? '—'}</dd>
        </div>
        <div>
          <dt>lost to another keeper</dt>
          <dd>{today?.lost ?? '—'}</dd>
        </div>
        <div>
          <dt>skipped</dt>
          <dd>{today?.skipped ?? '—'}</dd>
        </div>
        <div>
          <dt>failed</dt>
          <dd className={today?.failed ? 'error' : undefined}>{today?.failed ?? '—'}</dd>
        </div>
      </dl>
    </section>
  );
}

const totalsText = (totals: EarningsTotals | undefined) =>
  totals ? `${formatSol(totals.netLamports)} (${totals.cranks} cranks, ${formatLamports(totals.feeLamports)} in fees)` : '—';

function Earnings() {
  const overview = useOverview().data;
  const [rangeIndex, setRangeIndex] = useState(0);
  const range = EARNINGS_RANGES[rangeIndex]!;
  const series = useEarnings(range).data ?? [];
  const points = cumulativeNetSol(series);
  const total = sumEarnings(series);
  const summary = `Net earnings: ${formatSol(total.netLamports)} over ${total.cranks} cranks in the last ${range.label}`;
  return (
    <section className="panel wide" aria-labelledby="earnings-title">
      <h2 id="earnings-title">Fee earnings, net of transaction fees</h2>
      <dl className="stats">
        <div>
          <dt>today</dt>
          <dd>{totalsText(overview?.earnings.today)}</dd>
        </div>
        <div>
          <dt>7 days</dt>
          <dd>{totalsText(overview?.earnings.week)}</dd>
        </div>
        <div>
          <dt>all time</dt>
          <dd>{totalsText(overview?.earnings.all)}</dd>
        </div>
      </dl>
      <div className="range" role="group" aria-label="Chart range">
        {EARNINGS_RANGES.map((r, index) => (
          <button key={r.label} type="button" aria-pressed={index === rangeIndex} onClick={() => setRangeIndex(index)}>
            {r.label}
          </button>
        ))}
      </div>
      <p>{summary}</p>
      <div className="chart" role="img" aria-label={summary}>
        {points.length === 0 ? (
          <p className="muted">No cranks in this range yet: earnings appear here as the keeper lands cranks.</p>
        ) : (
          <ResponsiveContainer width="100%" height={220}>
            <AreaChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
              <CartesianGrid stroke="#2a3340" />
              <XAxis dataKey="bucketStart" type="number" domain={['dataMin', 'dataMax']} tickFormatter={(ms: number) => new Date(ms).toLocaleTimeString()} stroke="#8a96a8" />
              <YAxis tickFormatter={(sol: number) => `${sol.toFixed(4)}`} stroke="#8a96a8" label={{ value: 'SOL', angle: -90, position: 'insideLeft', fill: '#8a96a8' }} />
              <Tooltip
                labelFormatter={(ms) => new Date(Number(ms)).toLocaleString()}
                formatter={(value) => [`${Number(value).toFixed(9)} SOL`, 'net earnings']}
                contentStyle={{ background: '#161b22', border: '1px solid #2a3340' }}
              />
              <Area type="stepAfter" dataKey="netSol" stroke="#3fb950" fill="#3fb95033" isAnimationActive={false} />
            </AreaChart>
          </ResponsiveContainer>
        )}
      </div>
    </section>
  );
}

function RpcStatus() {
  const status = useStatus().data;
  const health = useHealth().data;
  const now = useNow();
  return (
    <section className="panel" aria-labelledby="rpc-title">
      <h2 id="rpc-title">RPC</h2>
      <dl className="kv">
        <dt>URL</dt>
        <dd>{status?.cluster?.rpcUrl ?? '—'}</dd>
        <dt>slot</dt>
        <dd>
          {health?.slot?.toLocaleString('en-US') ?? '—'} {health?.checkedAt ? `(${formatAge(health.checkedAt, now)})` : ''}
        </dd>
        <dt>latency</dt>
        <dd>{health?.rpcLatencyMs != null ? `${health.rpcLatencyMs} ms` : '—'}</dd>
        <dt>last loop pass</dt>
        <dd>{health ? formatAge(health.lastTick, now) : '—'}</dd>
      </dl>
      {health?.rpcError && (
        <p role="alert" className="error">
          {health.rpcError}. The keeper retries every second; if it lasts, check the RPC URL in <a href="#/settings">Settings</a>.
        </p>
      )}
    </section>
  );
}

function DemoApp() {
  const status = useStatus().data;
  const bridge = useBridge();
  const client = useQueryClient();
  const now = useNow();
  const save = useMutation({
    mutationFn: (changes: { demoEnabled?: boolean; demoIntervalMs?: number }) => bridge.call('saveSettings', { changes }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['status'] }),
  });
  const demo = status?.demo;
  if (!demo?.available) return null;
  return (
    <section className="panel" aria-labelledby="demo-title">
      <h2 id="demo-title">Demo app (embedded localnet)</h2>
      <p>
        {demo.enabled ? `Opens a 1.00 USDC wager every ${demo.intervalMs / 1000} s.` : 'Off.'} Opened {demo.opened} so far
        {demo.lastOpenedAt ? `, the last ${formatAge(demo.lastOpenedAt, now)}` : ''}.
      </p>
      {demo.lastError && (
        <p role="alert" className="error">
          {demo.lastError}
        </p>
      )}
      <label>
        <input type="checkbox" checked={demo.enabled} onChange={(e) => save.mutate({ demoEnabled: e.target.checked })} /> open demo wagers
      </label>{' '}
      <label>
        every{' '}
        <select aria-label="Demo interval" value={demo.intervalMs} onChange={(e) => save.mutate({ demoIntervalMs: Number(e.target.value) })}>
          {[1_000, 2_000, 5_000, 10_000, 30_000, 60_000].map((ms) => (
            <option key={ms} value={ms}>
              {ms / 1000} s
            </option>
          ))}
        </select>
      </label>
      {save.error && <p role="alert" className="error">{save.error.message}</p>}
    </section>
  );
}

export function Overview() {
  return (
    <div className="grid">
      <h1 className="sr-only">Overview</h1>
      <KeeperCard />
      <Counts />
      <RpcStatus />
      <DemoApp />
      <Earnings />
    </div>
  );
}
