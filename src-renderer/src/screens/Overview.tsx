/** Overview, for crankers: is the keeper running, does it earn, does its balance last, what is it doing. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Suspense, startTransition, useEffect, useState, type ReactNode } from 'react';
import type { EarningsTotals } from '@shared/contract/activity';
import type { StatusView } from '@shared/contract/status';
import { CopyButton } from '../components/CopyButton';
import { EarningsReport } from '../components/EarningsReport';
import { FleetPanel } from '../components/FleetPanel';
import { GoTo } from '../components/GoTo';
import { RangeButtons } from '../components/RangeButtons';
import { SentToWallet } from '../components/SentToWallet';
import { StepTallyPanel } from '../components/StepTallyPanel';
import { PriorityFeeLine } from '../components/PriorityFeeLine';
import { FIRST_GLANCE } from '../first-glance';
import { lazyPart } from '../lazy-part';
import { cumulativeNetSol, EARNINGS_RANGES, earningsSummary } from '../model/earnings';
import { describeRunway, formatAge, formatDuration, formatLamports, formatSol, formatSolExact, lowBalanceAdvice } from '../model/format';
import { useBridge, useEarnings, useHealth, useNow, useOverview, useStatus } from '../queries';
import { AgoText, useTimeZone } from '../components/TimeText';
import { formatAxisTick } from '../model/time-zone';

// recharts is read only when there is something to draw (see EarningsChart).
const EarningsChart = lazyPart(() => import('../components/EarningsChart'), (module) => module.default);

function KeeperCard() {
  const status = useStatus().data;
  // Until the first status answers: the keeper the page's first paint showed (the rest comes with the status).
  const keeper = status ? status.keeper : (FIRST_GLANCE?.keeper ?? null);
  if (!keeper)
    return (
      <section className="panel" aria-labelledby="keeper-title">
        <h2 id="keeper-title">Keeper</h2>
        <p className="muted">
          {status?.phase === 'failed' ? 'No keeper is running: it could not start (the message above says why).' : `No keeper is running yet${!status || status.phase === 'starting' ? ': it is starting' : ''}.`}
        </p>
        <ApiProblem status={status} />
      </section>
    );
  return (
    <section className="panel" aria-labelledby="keeper-title">
      <h2 id="keeper-title">Keeper</h2>
      <ApiProblem status={status} />
      <p className="address-line">
        <code className="full-address">{keeper.address}</code> <CopyButton text={keeper.address} label="Copy keeper address" />
      </p>
      {status?.keeper ? <KeeperDetails status={status} keeper={status.keeper} /> : <p className="muted">Reading the balance…</p>}
    </section>
  );
}

/** The public /v1 API could not listen (the desktop app's port is taken, say): the keeper cranks, apps cannot reach it. */
function ApiProblem({ status }: { status: StatusView | undefined }) {
  if (!status?.apiError) return null;
  return (
    <div role="alert" className="error api-problem">
      {status.apiError}
    </div>
  );
}

function KeeperDetails({ status, keeper }: { status: StatusView; keeper: NonNullable<StatusView['keeper']> }) {
  const health = useHealth().data;
  const advice = lowBalanceAdvice(keeper.address, status.cluster?.name ?? null);
  return (
    <>
      <p className="muted">
        Key: {keeper.keySource}
        {keeper.keySource === 'keychain (created)' ? ' at this start: fund it before it can crank' : ''}
        {keeper.shard ? `; fleet shard ${keeper.shard}` : ''}
      </p>
      <p className="big" title={health ? `${BigInt(health.lamports).toLocaleString('en-US')} lamports` : undefined}>
        {health ? formatSolExact(health.lamports) : '—'}
      </p>
      <p className="muted">{health ? `Runway: ${describeRunway(health.runway)}.` : 'Reading the balance…'}</p>
      {health?.runway.low && (
        <div role="alert" className="error">
          <strong>Low balance: {formatSolExact(health.lamports)} left.</strong> {advice.send}
          {advice.airdrop && (
            <>
              {' '}
              On {status.cluster?.name}: <code>{advice.airdrop}</code> <CopyButton text={advice.airdrop} label="Copy airdrop command" />
            </>
          )}
        </div>
      )}
      <PriorityFeeLine status={status} />
      <p className={status.paused ? 'warn' : 'muted'}>
        {status.paused
          ? 'Paused: no new cranks are sent; in-flight ones finish. "Resume keeper" at the top starts it again.'
          : 'Running: each loop pass moves every wager forward. "Pause keeper" at the top stops new cranks.'}
      </p>
    </>
  );
}

function Stat({ label, value, className }: { label: string; value: number | undefined; className?: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={className}>{value === undefined ? '—' : value.toLocaleString('en-US')}</dd>
    </div>
  );
}

function Counts() {
  const overview = useOverview().data;
  const counts = overview?.queueCounts;
  const today = overview?.cranksToday;
  return (
    <section className="panel" aria-labelledby="counts-title">
      <h2 id="counts-title">Queue</h2>
      <dl className="stats" aria-label="Wagers by state">
        <Stat label="queued" value={counts?.queued} />
        <Stat label="requested" value={counts?.requested} />
        <Stat label="fulfilled" value={counts?.fulfilled} />
        <Stat label="parked payouts" value={overview?.parkedPayouts} />
      </dl>
      <h2 id="cranks-title">Cranks today</h2>
      <dl className="stats" aria-labelledby="cranks-title">
        <Stat label="landed" value={today?.landed} className="ok" />
        <Stat label="lost to another keeper" value={today?.lost} />
        <Stat label="skipped" value={today?.skipped} />
        <Stat label="failed" value={today?.failed} className={today?.failed ? 'error' : undefined} />
      </dl>
      <p className="muted small">Since local midnight. Failed cranks are retried with a backoff; lost ones were landed by another keeper first.</p>
    </section>
  );
}

function Totals({ label, totals }: { label: string; totals: EarningsTotals | undefined }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{totals ? formatSol(totals.netLamports) : '—'}</dd>
      {totals && (
        <dd className="muted small">
          {formatSol(totals.receivedLamports)} received − {formatLamports(totals.feeLamports)} in fees, {totals.cranks.toLocaleString('en-US')}{' '}
          {totals.cranks === 1 ? 'crank' : 'cranks'}
        </dd>
      )}
    </div>
  );
}

function Earnings() {
  const overview = useOverview().data;
  const [rangeIndex, setRangeIndex] = useState(0);
  const range = EARNINGS_RANGES[rangeIndex]!;
  const earnings = useEarnings(range);
  const now = useNow(60_000);
  const series = earnings.data?.points ?? [];
  const points = earnings.data ? cumulativeNetSol(series, earnings.data.sinceMs, Math.max(now, earnings.dataUpdatedAt)) : [];
  const summary = earningsSummary(series, range);
  const timeZone = useTimeZone();
  const tick = (ms: number) => formatAxisTick(ms, timeZone, range.spanMs);
  return (
    <section className="panel wide" aria-labelledby="earnings-title">
      <h2 id="earnings-title">Fee earnings, net of transaction fees</h2>
      <dl className="stats three">
        <Totals label="today" totals={overview?.earnings.today} />
        <Totals label="7 days" totals={overview?.earnings.week} />
        <Totals label="all time" totals={overview?.earnings.all} />
      </dl>
      <div className="chart-head">
        <p className="chart-total">{earnings.data ? summary : 'Reading the earnings…'}</p>
        <RangeButtons label="Chart range" ranges={EARNINGS_RANGES} chosen={rangeIndex} onChoose={setRangeIndex} />
      </div>
      {earnings.error && (
        <p role="alert" className="error">
          Cannot read the earnings: {earnings.error.message}
        </p>
      )}
      <div className="chart" role="img" aria-label={summary}>
        {series.length === 0 ? (
          <p className="muted">No cranks in the last {range.words} yet: the running total of net earnings appears here as the keeper lands cranks.</p>
        ) : (
          <Suspense fallback={<p className="muted">Drawing the chart…</p>}>
            <EarningsChart points={points} tick={tick} />
          </Suspense>
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
          {health?.slot != null ? health.slot.toLocaleString('en-US') : '—'} {health?.checkedAt ? `(${health.rpcError ? 'last read' : 'read'} ${formatAge(health.checkedAt, now)})` : ''}
        </dd>
        <dt>latency</dt>
        <dd>{health?.rpcLatencyMs != null ? `${health.rpcLatencyMs} ms` : '—'}</dd>
        <dt>last loop pass</dt>
        <dd>{health ? <AgoText at={health.lastTick} now={now} /> : '—'}</dd>
        <dt>wagers tracked</dt>
        <dd>{health ? health.queue.toLocaleString('en-US') : '—'}</dd>
      </dl>
      {health?.rpcError && (
        <div role="alert" className="error">
          The RPC failed: {health.rpcError}. The keeper keeps retrying every pass; if this lasts, check the RPC URL (or switch cluster) in{' '}
          <GoTo screen="settings">Open Settings</GoTo>.
        </div>
      )}
    </section>
  );
}

const DEMO_INTERVALS_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];

function DemoApp() {
  const status = useStatus().data;
  const bridge = useBridge();
  const client = useQueryClient();
  const now = useNow();
  const save = useMutation({
    mutationFn: (changes: { demoEnabled?: boolean; demoIntervalMs?: number }) => bridge.call('saveSettings', { changes }),
    onSuccess: (result) => {
      client.setQueryData(['settings'], result.view);
      void client.invalidateQueries({ queryKey: ['status'] });
    },
  });
  const demo = status?.demo;
  if (!status || !demo) return null;
  if (!demo.available)
    return (
      <section className="panel" aria-labelledby="demo-title">
        <h2 id="demo-title">Demo app</h2>
        <p className="muted">Not running: {demo.reason ?? 'not on this cluster'}. Here wagers appear as apps open them.</p>
      </section>
    );
  const intervals = DEMO_INTERVALS_MS.includes(demo.intervalMs) ? DEMO_INTERVALS_MS : [...DEMO_INTERVALS_MS, demo.intervalMs].sort((a, b) => a - b);
  return (
    <section className="panel" aria-labelledby="demo-title">
      <h2 id="demo-title">Demo app{status.cluster?.embedded ? ' (embedded localnet)' : ''}</h2>
      <p>
        {demo.enabled ? `On: opens a 1.00 USDC wager every ${formatDuration(demo.intervalMs)}.` : 'Off: opens no wagers.'} Opened {demo.opened.toLocaleString('en-US')}{' '}
        so far{demo.lastOpenedAt ? <>, the last <AgoText at={demo.lastOpenedAt} now={now} /></> : ''}.
      </p>
      {demo.lastError && (
        <div role="alert" className="error">
          The last demo wager failed: {demo.lastError}
        </div>
      )}
      <div className="actions">
        <label className="radio">
          <input type="checkbox" checked={demo.enabled} disabled={save.isPending} onChange={(e) => save.mutate({ demoEnabled: e.target.checked })} /> Open demo wagers
        </label>
        <label>
          every{' '}
          <select aria-label="Demo interval" value={demo.intervalMs} disabled={save.isPending} onChange={(e) => save.mutate({ demoIntervalMs: Number(e.target.value) })}>
            {intervals.map((ms) => (
              <option key={ms} value={ms}>
                {formatDuration(ms)}
              </option>
            ))}
          </select>
        </label>
        {save.isPending && <span aria-busy="true">saving…</span>}
      </div>
      {save.error && (
        <div role="alert" className="error">
          Could not change the demo app: {save.error.message}
        </div>
      )}
    </section>
  );
}

/**
 * The early warning of a stake at risk: wagers still without a randomness request 10+ slots after it
 * could be sent. Each with its address, how late, and when it expires (expiry forfeits the stake).
 */
export function OverdueRequests() {
  const health = useHealth().data;
  const paused = useStatus().data?.paused ?? false;
  const overdue = health?.overdue ?? [];
  if (overdue.length === 0) return null;
  const slot = health?.slot ?? null;
  // A wager of another fleet member's shard is left to it until this keeper's takeover slot.
  const heldNow = (entry: (typeof overdue)[number]) => entry.heldFor !== null && (slot === null || slot < entry.heldFor.takeoverSlot);
  const allHeld = overdue.every(heldNow);
  return (
    <section className="panel wide overdue" aria-labelledby="overdue-title">
      <h2 id="overdue-title">Overdue randomness requests</h2>
      <p role="alert" className="error">
        {overdue.length === 1 ? '1 wager is' : `${overdue.length.toLocaleString('en-US')} wagers are`} still without a randomness request 10 or more slots
        after it could be sent; if it expires, its stake is forfeited.{' '}
        {paused
          ? 'The keeper is paused, so nothing is sent: "Resume keeper" at the top sends the requests.'
          : allHeld
            ? 'Each belongs to another member of the fleet, which has not sent it: this keeper sends it itself at the takeover slot shown. Check that member in the Fleet panel below.'
            : "The keeper retries each one every pass, with a raised priority fee as its expiry nears (another fleet member's is sent from its takeover slot): check the RPC panel below and the keeper's balance."}
      </p>
      <ul className="overdue-list" aria-label="Overdue wagers">
        {overdue.map((entry) => (
          <li key={entry.wager}>
            <code className="full-address">{entry.wager}</code> <CopyButton text={entry.wager} label="Copy overdue wager address" />{' '}
            <span>
              {entry.slotsLate.toLocaleString('en-US')} slots late; expires at slot {entry.expirySlot.toLocaleString('en-US')}
              {slot !== null ? ` (in ${Math.max(0, entry.expirySlot - slot).toLocaleString('en-US')} slots)` : ''}
            </span>
            {entry.heldFor && (
              <span>
                {' '}
                · {heldNow(entry) ? 'held for' : 'taken over from'} fleet shard {entry.heldFor.shard}
                {heldNow(entry)
                  ? `: this keeper sends it at slot ${entry.heldFor.takeoverSlot.toLocaleString('en-US')}${slot !== null ? ` (in ${(entry.heldFor.takeoverSlot - slot).toLocaleString('en-US')} slots)` : ''}`
                  : ''}
              </span>
            )}
            {entry.lastError ? <span className="muted"> · last error: {entry.lastError}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The rest of the Overview, drawn once the keeper card shows what it has (its first status), after that has
 * been painted, or after 1 s at the latest: rendering every panel at once took ~450 ms before the keeper's
 * address could appear (measured, bench:console-ready).
 */
function AfterTheKeeper({ children }: { children: ReactNode }) {
  const hasStatus = useStatus().data !== undefined;
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (shown) return;
    const show = () => startTransition(() => setShown(true));
    if (!hasStatus) {
      const latest = setTimeout(show, 1_000);
      return () => clearTimeout(latest);
    }
    // A frame, then a task: the keeper card is painted before the panels below are rendered.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(show, 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [hasStatus, shown]);
  return shown ? children : null;
}

export function Overview() {
  return (
    <div className="grid">
      <h1 className="sr-only">Overview</h1>
      <OverdueRequests />
      <KeeperCard />
      <AfterTheKeeper>
        <Counts />
        <Earnings />
        <SentToWallet />
        <EarningsReport />
        <StepTallyPanel />
        <FleetPanel />
        <RpcStatus />
        <DemoApp />
      </AfterTheKeeper>
    </div>
  );
}
