/** The frame: navigation, the status line (always visible), and the current screen. */
import { Suspense, type ReactNode } from 'react';
import { lazyPart } from './lazy-part';
import { GoTo } from './components/GoTo';
import { PauseSwitch } from './components/PauseSwitch';
import { SearchBox } from './components/SearchBox';
import { clusterLabel } from './model/format';
import { AgoText } from './components/TimeText';
import { alertCount } from './model/alerts';
import { useAlerts, useBridge, useConnection, useHealth, useNow, useStatus } from './queries';
import { StallBanner } from './components/StallBanner';
import { UpdateBanner } from './components/UpdateBanner';
import { RpcFailoverNotice } from './components/RpcFailoverNotice';
import { ShownKeeper, useShownServerAlert } from './components/ShownKeeper';
import { Overview } from './screens/Overview';
import { useUi, type Screen } from './ui-store';
import { KEEPERS_NAV, NAV } from './nav';
import { FIRST_GLANCE } from './first-glance';

// Overview is the first screen and comes with the first bundle; every other screen (and recharts with
// Oracle and Liquidity) is its own chunk, read when first opened, so the status line and the keeper
// appear without waiting for code nobody looks at yet.
const Queue = lazyPart(() => import('./screens/Queue'), (module) => module.Queue);
const Inspector = lazyPart(() => import('./screens/Inspector'), (module) => module.Inspector);
const Oracle = lazyPart(() => import('./screens/Oracle'), (module) => module.Oracle);
const Liquidity = lazyPart(() => import('./screens/Liquidity'), (module) => module.Liquidity);
const Faucet = lazyPart(() => import('./screens/Faucet'), (module) => module.Faucet);
const Settings = lazyPart(() => import('./screens/Settings'), (module) => module.Settings);
const Search = lazyPart(() => import('./screens/Search'), (module) => module.Search);
const Alerts = lazyPart(() => import('./screens/Alerts'), (module) => module.Alerts);
const Logs = lazyPart(() => import('./screens/Logs'), (module) => module.Logs);
const Keepers = lazyPart(() => import('./screens/Keepers'), (module) => module.Keepers);
const Fleet = lazyPart(() => import('./screens/Fleet'), (module) => module.Fleet);


const CONNECTION_TEXT = { connected: 'live', connecting: 'connecting…', disconnected: 'disconnected' } as const;

/** The active alerts in the status line (a link to the Alerts screen); critical when an unmuted critical one fires. */
function AlertCount() {
  const active = useAlerts().data?.active;
  const now = useNow();
  if (!active) return null;
  const { count, critical, text, title } = alertCount(active, now);
  return (
    <a href="#/alerts" className={`alert-count ${critical ? 'critical' : count ? 'warning' : 'none'}`} title={title}>
      {text}
    </a>
  );
}

/** The count beside the nav's Alerts entry (the status line says it in words). */
function NavAlertBadge() {
  const active = useAlerts().data?.active;
  const now = useNow();
  const { count, critical } = alertCount(active, now);
  if (count === 0) return null;
  return (
    <span className={`nav-count ${critical ? 'critical' : 'warning'}`} aria-hidden="true">
      {count}
    </span>
  );
}

function StatusLine() {
  const status = useStatus().data;
  const health = useHealth().data;
  const connection = useConnection().data;
  const serverAlert = useShownServerAlert();
  const now = useNow();
  const cluster = status?.cluster ?? null;
  // Until the first status: the cluster the page's first paint named.
  const badgeCluster = status ? cluster : (FIRST_GLANCE?.cluster ?? null);
  const phase = status?.phase ?? 'starting';
  // One word for the loop: running, paused (no new cranks), starting…, failed or waiting for a deployment (the panel below says why).
  const phaseClass = phase === 'running' && status?.paused ? 'paused' : phase;
  const phaseText = { running: 'running', paused: 'paused', starting: 'starting…', failed: 'keeper failed', noDeployment: 'no deployment' }[phaseClass];
  const phaseTitle =
    phaseClass === 'paused'
      ? 'Paused: no new cranks are sent; in-flight ones finish'
      : phaseClass === 'failed' || phaseClass === 'noDeployment'
        ? (status?.error ?? undefined)
        : undefined;
  return (
    <header className="status-line">
      <div className="status-items">
        <ShownKeeper />
        <span className={`badge cluster-${badgeCluster?.name ?? 'none'}`} title={cluster?.genesisHash ? `cluster ${cluster.name}, genesis ${cluster.genesisHash}` : undefined}>
          {clusterLabel(badgeCluster)}
        </span>
        <span className="rpc-url" title={cluster ? `RPC ${cluster.rpcUrl}, WebSocket ${cluster.wsUrl}` : undefined}>
          {cluster ? cluster.rpcUrl.replace(/^https?:\/\//, '') : '—'}
        </span>
        <span>slot {health?.slot != null ? health.slot.toLocaleString('en-US') : '—'}</span>
        <span>RPC {health?.rpcLatencyMs != null ? `${health.rpcLatencyMs} ms` : '—'}</span>
        <span>last pass {health ? <AgoText at={health.lastTick} now={now} /> : '—'}</span>
        {health?.rpcError && (
          <span className="error" title={`${health.rpcError}: check the RPC URL in Settings`}>
            RPC error
          </span>
        )}
        {status?.apiError && (
          <span className="error api-down" title={status.apiError}>
            /v1 API down
          </span>
        )}
        <span className={`phase ${phaseClass}`} aria-busy={phaseClass === 'starting'} title={phaseTitle}>
          {phaseText}
        </span>
        <RpcFailoverNotice />
        <AlertCount />
        <span className={`connection ${connection}`} title="The live event stream from the keeper">
          <span className="dot" aria-hidden="true" /> {CONNECTION_TEXT[connection]}
        </span>
        {status && <PauseSwitch status={status} />}
      </div>
      {connection === 'disconnected' && (
        <div className="banner error" role="alert">
          {serverAlert?.opening ?? 'Disconnected from the keeper — reconnecting…'} The figures below may be out of date.{' '}
          {serverAlert?.advice ??
            'If this lasts, check that the keeper process (wager-keeper serve or the desktop app) still runs; if it was restarted, open the new console URL it printed.'}
        </div>
      )}
    </header>
  );
}

function CoreProblem() {
  const status = useStatus();
  if (status.error)
    return (
      <div className="panel error" role="alert">
        Cannot read the keeper's status: {status.error.message}
      </div>
    );
  if (status.data?.phase === 'failed')
    return (
      <div className="panel error" role="alert">
        <strong>The keeper is not running.</strong> {status.data.error ?? 'It stopped without saying why: check its log.'} <GoTo screen="settings">Open Settings</GoTo> to pick a cluster that works.
      </div>
    );
  if (status.data?.phase === 'noDeployment')
    return (
      <div className="panel warn-box" role="alert">
        <strong>The keeper is waiting for a deployment.</strong> {status.data.cluster?.noDeployment ?? status.data.error} <GoTo screen="settings">Open Settings</GoTo> to load one.
      </div>
    );
  if (status.data?.phase === 'starting')
    return (
      <div className="panel starting" role="status" aria-busy="true">
        Starting the keeper{status.data.cluster ? ` on ${status.data.cluster.rpcUrl}` : ''}…
      </div>
    );
  return null;
}

export function App() {
  const hasKeepers = useBridge().keepers !== undefined;
  const routed = useUi((state) => state.screen);
  // Keepers and Fleet are the desktop app's: a browser console opens the Overview for their routes.
  const screen = hasKeepers || !KEEPERS_NAV.some((item) => item.screen === routed) ? routed : 'overview';
  const nav: { screen: Screen; label: string; coming?: boolean }[] = hasKeepers ? [...NAV, ...KEEPERS_NAV] : NAV;
  const screens: Record<Screen, ReactNode> = {
    overview: <Overview />,
    queue: <Queue />,
    inspector: <Inspector />,
    oracle: <Oracle />,
    liquidity: <Liquidity />,
    faucet: <Faucet />,
    alerts: <Alerts />,
    logs: <Logs />,
    settings: <Settings />,
    search: <Search />,
    keepers: <Keepers />,
    fleet: <Fleet />,
  };
  return (
    <div className="app">
      <nav aria-label="Main" className="nav">
        <div className="brand">Wager Keeper</div>
        <ul>
          {nav.map((item) => (
            <li key={item.screen}>
              <a href={`#/${item.screen}`} aria-current={screen === item.screen ? 'page' : undefined}>
                {item.label}
                {item.screen === 'alerts' && <NavAlertBadge />}
                {item.coming && (
                  <span className="coming" aria-hidden="true">
                    coming
                  </span>
                )}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="main">
        <StatusLine />
        <SearchBox />
        <main>
          <StallBanner />
          <UpdateBanner />
          <CoreProblem />
          <Suspense
            fallback={
              <p className="muted" role="status">
                Opening {nav.find((item) => item.screen === screen)?.label ?? 'the screen'}…
              </p>
            }
          >
            {screens[screen]}
          </Suspense>
        </main>
      </div>
    </div>
  );
}
