/** The oracle monitor: fulfilment latency of recent requests, what waits now, and (localnet) stall/resume. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ORACLE_STALL_CRITICAL_SLOTS, ORACLE_STALL_WARNING_SLOTS } from '@shared/oracle-stall';
import { T_SETTLE_SLOTS } from '@shared/wager-timing';
import { NewWagersPanel } from '../components/NewWagersPanel';
import { latencySummary, oracleStallLevel } from '../model/oracle';
import { useBridge, useHealth, useStatus } from '../queries';

function LocalOracle() {
  const bridge = useBridge();
  const client = useQueryClient();
  const oracle = useQuery({ queryKey: ['localOracle'], queryFn: () => bridge.call('localOracle', undefined), refetchInterval: 2_000 });
  const toggle = useMutation({
    mutationFn: (stalled: boolean) => bridge.call('setLocalOracleStalled', { stalled }),
    onSuccess: (view) => client.setQueryData(['localOracle'], view),
  });
  if (!oracle.data) return null;
  const { stalled, pending } = oracle.data;
  return (
    <section className="panel" aria-labelledby="local-oracle-title">
      <h2 id="local-oracle-title">Local oracle (this localnet)</h2>
      <p>
        {stalled ? 'Stalled: requests are not fulfilled.' : 'Fulfilling requests.'} {pending} request{pending === 1 ? '' : 's'} pending.
      </p>
      <p className="muted">{`Stall it to watch the expiry path: waiting wagers expire at open + ${T_SETTLE_SLOTS} slots, their stakes are forfeited to the pool.`}</p>
      <button type="button" className={stalled ? 'primary' : 'danger'} disabled={toggle.isPending} aria-busy={toggle.isPending} onClick={() => toggle.mutate(!stalled)}>
        {stalled ? 'Resume local oracle' : 'Stall local oracle'}
      </button>
      {toggle.error && (
        <p role="alert" className="error">
          {toggle.error.message}
        </p>
      )}
    </section>
  );
}

export function Oracle() {
  const bridge = useBridge();
  const wait = useHealth().data?.oracleWait;
  const status = useStatus().data;
  const history = useQuery({ queryKey: ['oracleLatency'], queryFn: () => bridge.call('oracleLatency', { limit: 100 }) }).data ?? [];
  const summary = latencySummary(history);
  const level = oracleStallLevel(wait);
  const points = [...history].reverse().map((entry, index) => ({ index: index + 1, slots: entry.slots }));
  const chartLabel = summary.count
    ? `Fulfilment latency of the last ${summary.count} requests: median ${summary.medianSlots} slots, p95 ${summary.p95Slots} slots`
    : 'No fulfilment seen yet';
  return (
    <div className="grid">
      <h1 className="sr-only">Oracle</h1>
      <section className="panel" aria-labelledby="waiting-title">
        <h2 id="waiting-title">Waiting now</h2>
        <p className={level === 'critical' ? 'error' : level === 'warning' ? 'warn' : undefined}>
          {wait?.waiting ? `${wait.waiting} request${wait.waiting === 1 ? '' : 's'} waiting; the oldest for ${wait.oldestWaitSlots ?? '—'} slots.` : 'No request waiting.'}
        </p>
        <p className="muted">
          Warning past {ORACLE_STALL_WARNING_SLOTS} slots, critical from {ORACLE_STALL_CRITICAL_SLOTS} (the guardian's pause target). Oracle program:{' '}
          {status?.cluster?.wagerKeeperLocalnet ? 'the local VRF oracle' : "the config's oracle (ORAO VRF)"}.
        </p>
      </section>
      <LocalOracle />
      <NewWagersPanel />
      <section className="panel wide" aria-labelledby="latency-title">
        <h2 id="latency-title">Fulfilment latency (slots from request to fulfilment)</h2>
        <p>{chartLabel}</p>
        <div className="chart" role="img" aria-label={chartLabel}>
          {points.length > 0 && (
            <ResponsiveContainer width="100%" height={200}>
              <BarChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
                <CartesianGrid stroke="#2a3340" />
                <XAxis dataKey="index" stroke="#8a96a8" />
                <YAxis stroke="#8a96a8" allowDecimals={false} label={{ value: 'slots', angle: -90, position: 'insideLeft', fill: '#8a96a8' }} />
                <Tooltip formatter={(value) => [`${String(value)} slots`, 'latency']} contentStyle={{ background: '#161b22', border: '1px solid #2a3340' }} />
                <Bar dataKey="slots" fill="#58a6ff" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          )}
        </div>
      </section>
    </div>
  );
}
