/**
 * Fleet (desktop only): every keeper in the Keepers list at a glance — state, balance and runway, queue,
 * cranks and net earnings today, active alerts, last seen — asked every 5 s while open. A keeper that could
 * not be asked says "unreachable" and why, in place of its figures. A row (or its Open) shows that keeper.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { KeeperFleetRow, KeepersBridge } from '@shared/contract/keepers';
import { AgoText } from '../components/TimeText';
import { applyKeepersView } from '../keepers-sync';
import { fleetFigures, fleetPhaseText, keeperStateText, keeperStateTone } from '../model/keepers';
import { useBridge, useKeepersFleet, useNow } from '../queries';

function FleetRow({ row, now, open }: { row: KeeperFleetRow; now: number; open(id: string): void }) {
  const figures = fleetFigures(row);
  const phase = fleetPhaseText(row);
  return (
    <tr className={`clickable${'unreachable' in figures ? ' unreachable' : ''}`} onClick={() => open(row.id)}>
      <th scope="row">{row.label}</th>
      <td>
        <span className={`pill keeper-state ${keeperStateTone(row.state)}`}>{keeperStateText({ state: row.state, retryAtMs: null }, now)}</span>
        {phase && <span className={`phase ${phase}`}> {phase}</span>}
      </td>
      {'unreachable' in figures ? (
        <td colSpan={6} className="error wrap">
          {figures.unreachable}
        </td>
      ) : (
        <>
          <td>{figures.balance}</td>
          <td>
            {figures.runway}
            {figures.runwayLow && <strong className="warn"> low</strong>}
          </td>
          <td>{figures.queue}</td>
          <td>{figures.cranksToday}</td>
          <td>{figures.netToday}</td>
          <td className={figures.alerts === 'none' ? undefined : 'warn'}>{figures.alerts}</td>
        </>
      )}
      <td>
        <AgoText at={row.lastSeenMs} now={now} />
      </td>
      <td>
        <button
          type="button"
          onClick={(event) => {
            event.stopPropagation();
            open(row.id);
          }}
        >
          Open
        </button>
      </td>
    </tr>
  );
}

function FleetTable({ keepers }: { keepers: KeepersBridge }) {
  const client = useQueryClient();
  const fleet = useKeepersFleet();
  const now = useNow();
  const show = useMutation({
    mutationFn: (id: string) => keepers.show({ id }),
    onSuccess: (view) => {
      applyKeepersView(client, view);
      window.location.hash = '#/overview';
    },
  });
  if (fleet.error && !fleet.data)
    return (
      <div role="alert" className="error">
        Cannot read the fleet: {fleet.error.message} It is asked again every 5 s.
      </div>
    );
  if (!fleet.data)
    return (
      <p className="muted" role="status" aria-busy="true">
        Asking every keeper…
      </p>
    );
  return (
    <>
      <div className="scroll-x">
        <table className="plain keepers-fleet" aria-label="Fleet">
          <thead>
            <tr>
              <th scope="col">Keeper</th>
              <th scope="col">State</th>
              <th scope="col">Balance</th>
              <th scope="col">Runway</th>
              <th scope="col">Queue</th>
              <th scope="col">Cranks today</th>
              <th scope="col">Net today</th>
              <th scope="col">Alerts</th>
              <th scope="col">Last seen</th>
              <th scope="col">
                <span className="sr-only">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {fleet.data.map((row) => (
              <FleetRow key={row.id} row={row} now={now} open={(id) => show.mutate(id)} />
            ))}
          </tbody>
        </table>
      </div>
      {show.error && (
        <div role="alert" className="error">
          {show.error.message}
        </div>
      )}
      <p className="muted small">
        Asked every 5 s while this view is open{fleet.dataUpdatedAt ? <> (last <AgoText at={fleet.dataUpdatedAt} now={now} />)</> : ''}. Today
        starts at 00:00 UTC. A keeper that does not answer within a few seconds is shown as unreachable, never as zero.
      </p>
    </>
  );
}

export function Fleet() {
  const keepers = useBridge().keepers;
  return (
    <section className="panel" aria-labelledby="keepers-fleet-title">
      <h1 id="keepers-fleet-title">Fleet</h1>
      {keepers ? <FleetTable keepers={keepers} /> : <p>The fleet view is in the desktop app only.</p>}
    </section>
  );
}
