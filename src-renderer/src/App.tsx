/** The frame: navigation, the status line (always visible), and the current screen. */
import type { ReactNode } from 'react';
import { PauseSwitch } from './components/PauseSwitch';
import { clusterLabel, formatAge } from './model/format';
import { useConnection, useHealth, useNow, useStatus } from './queries';
import { ComingSoon } from './screens/ComingSoon';
import { Overview } from './screens/Overview';
import { Queue } from './screens/Queue';
import { Settings } from './screens/Settings';
import { useUi, type Screen } from './ui-store';

const NAV: { screen: Screen; label: string; coming?: boolean }[] = [
  { screen: 'overview', label: 'Overview' },
  { screen: 'queue', label: 'Queue' },
  { screen: 'inspector', label: 'Inspector', coming: true },
  { screen: 'oracle', label: 'Oracle', coming: true },
  { screen: 'liquidity', label: 'Liquidity', coming: true },
  { screen: 'faucet', label: 'Faucet', coming: true },
  { screen: 'settings', label: 'Settings' },
];

function StatusLine() {
  const status = useStatus().data;
  const health = useHealth().data;
  const connection = useConnection().data;
  const now = useNow();
  const cluster = status?.cluster ?? null;
  return (
    <header className="status-line" role="banner">
      <span className={`badge cluster-${cluster?.name ?? 'none'}`} title={cluster?.genesisHash ? `genesis ${cluster.genesisHash}` : undefined}>
        {clusterLabel(cluster)}
      </span>
      <span title="RPC URL">{cluster ? cluster.rpcUrl.replace(/^https?:\/\//, '') : '—'}</span>
      <span>slot {health?.slot?.toLocaleString('en-US') ?? '—'}</span>
      <span>RPC {health?.rpcLatencyMs != null ? `${health.rpcLatencyMs} ms` : '—'}</span>
      <span>last pass {health ? formatAge(health.lastTick, now) : '—'}</span>
      {status && <PauseSwitch status={status} />}
      {status?.phase === 'starting' && (
        <span className="warn" role="status" aria-busy="true">
          starting the keeper…
        </span>
      )}
      {connection === 'disconnected' && (
        <span className="error" role="alert">
          Disconnected from the keeper — reconnecting… (if this lasts, check that the keeper process still runs)
        </span>
      )}
      {health?.rpcError && (
        <span className="error" title={health.rpcError}>
          RPC error
        </span>
      )}
    </header>
  );
}

function CoreProblem() {
  const status = useStatus();
  if (status.error)
    return (
      <div className="panel error" role="alert">
        Cannot read the keeper's status: {(status.error as Error).message}
      </div>
    );
  if (status.data?.phase === 'failed')
    return (
      <div className="panel error" role="alert">
        {status.data.error ?? 'The keeper is not running.'} <a href="#/settings">Open Settings</a>
      </div>
    );
  return null;
}

export function App() {
  const screen = useUi((state) => state.screen);
  const screens: Record<Screen, ReactNode> = {
    overview: <Overview />,
    queue: <Queue />,
    inspector: <ComingSoon name="Inspector" what="the wager inspector for support staff" />,
    oracle: <ComingSoon name="Oracle" what="the oracle monitor and stall warnings" />,
    liquidity: <ComingSoon name="Liquidity" what="liquidity actions for LPs" />,
    faucet: <ComingSoon name="Faucet" what="the test-network faucet" />,
    settings: <Settings />,
  };
  return (
    <div className="app">
      <nav aria-label="Main" className="nav">
        <div className="brand">Wager Keeper</div>
        <ul>
          {NAV.map((item) => (
            <li key={item.screen}>
              <a href={`#/${item.screen}`} aria-current={screen === item.screen ? 'page' : undefined}>
                {item.label}
                {item.coming && (
                  <span className="coming" aria-hidden="true">
                    {' '}
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
        <main>
          <CoreProblem />
          {screens[screen]}
        </main>
      </div>
    </div>
  );
}
