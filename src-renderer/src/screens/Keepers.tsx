/**
 * Keepers (desktop only): This computer and the keepers on servers the app reaches over SSH, each with
 * its connection state, what to do about it, and Show (the console shows that keeper from then on); the
 * form that adds a server.
 */
import type { KeepersBridge } from '@shared/contract/keepers';
import { AddServerForm } from '../components/AddServerForm';
import { KeeperEntry } from '../components/KeeperEntry';
import { useBridge, useKeepers, useNow } from '../queries';

function KeepersList({ keepers }: { keepers: KeepersBridge }) {
  const list = useKeepers();
  const now = useNow();
  if (list.error)
    return (
      <div role="alert" className="error">
        Cannot read the Keepers list: {list.error.message} Restart the app if this lasts.
      </div>
    );
  if (!list.data)
    return (
      <p className="muted" role="status" aria-busy="true">
        Reading the Keepers list…
      </p>
    );
  const { shown, keepers: entries } = list.data;
  return (
    <ul className="keepers-list" aria-label="Keepers">
      {entries.map((entry) => (
        <KeeperEntry key={entry.id} entry={entry} shown={entry.id === shown} now={now} keepers={keepers} />
      ))}
    </ul>
  );
}

export function Keepers() {
  const keepers = useBridge().keepers;
  return (
    <div className="grid settings">
      <section className="panel" aria-labelledby="keepers-title">
        <h1 id="keepers-title">Keepers</h1>
        {keepers ? (
          <>
            <p className="muted small">
              The console shows one keeper at a time: every screen, its live events, pause and resume, settings, sweep and alerts are about
              it. <strong>Show</strong> switches to another; the Fleet view has them all at a glance.
            </p>
            <KeepersList keepers={keepers} />
          </>
        ) : (
          <p>The Keepers list is in the desktop app only: this browser console shows the keeper that serves it.</p>
        )}
      </section>
      {keepers && <AddServerForm keepers={keepers} />}
    </div>
  );
}
