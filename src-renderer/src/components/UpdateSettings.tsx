/**
 * Settings → Desktop app → Updates: where the app is in its updates and how they arrive on this install
 * (in place, or a notice with a link; nothing from a source checkout), what is verified, the switch that
 * turns checking off, Check now, and a self-hosted mirror of the release feed. Desktop app only.
 */
import { useState } from 'react';
import type { UpdatePreferences, UpdatesBridge } from '@shared/contract/updates';
import { useBridge } from '../queries';
import { SettingToggle } from './SettingToggle';
import { useUpdateAction, useUpdateStatus } from './UpdateBanner';

function UpdateForm({ updates }: { updates: UpdatesBridge }) {
  const query = useUpdateStatus(updates);
  const save = useUpdateAction((changes: Partial<UpdatePreferences>) => updates.setPreferences(changes));
  const check = useUpdateAction(() => updates.checkNow());
  const [mirror, setMirror] = useState<string | null>(null);
  if (query.error)
    return (
      <div role="alert" className="error">
        Cannot read the update status: {query.error.message}
      </div>
    );
  const status = query.data;
  if (!status) return <p aria-busy="true">Reading the update status…</p>;
  const unavailable = status.state === 'unavailable';
  return (
    <>
      <h3>Updates</h3>
      <p>
        Version {status.currentVersion}. <span aria-live="polite">{status.message}</span>
        {status.checkedAt !== null && (
          <span className="muted"> Last checked {new Date(status.checkedAt).toLocaleString()}.</span>
        )}
      </p>
      <p className="muted">{status.howUpdatesArrive}</p>
      {status.verification && <p className="muted">Verified before installing: {status.verification}</p>}
      {!unavailable || status.updateFeedUrl ? (
        <>
          <SettingToggle
            label="Check for updates"
            checked={status.checkForUpdates}
            saving={save.isPending}
            onChange={(checkForUpdates) => save.mutate({ checkForUpdates })}
            note="at start and every 12 hours; off: the app never contacts the release feed"
          />
          <div className="actions">
            <button
              type="button"
              onClick={() => check.mutate(undefined)}
              disabled={check.isPending || !status.checkForUpdates || ['checking', 'downloading', 'draining', 'installing'].includes(status.state)}
            >
              Check now
            </button>
            {check.error && (
              <span role="alert" className="error">
                {check.error.message}
              </span>
            )}
          </div>
        </>
      ) : null}
      <form
        className="actions"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ updateFeedUrl: mirror ?? status.updateFeedUrl }, { onSuccess: () => setMirror(null) });
        }}
      >
        <label>
          Mirror feed{' '}
          <input
            type="url"
            value={mirror ?? status.updateFeedUrl}
            placeholder={status.builtInFeed}
            onChange={(event) => setMirror(event.target.value)}
            size={40}
          />
        </label>{' '}
        <button type="submit" disabled={save.isPending || mirror === null}>
          Save feed
        </button>
        <span className="muted">
          empty: {status.builtInFeed}. A mirror is an https:// folder holding latest.yml, latest-mac.yml, latest-linux.yml and
          the installers, as a release publishes them.
        </span>
      </form>
      {save.error && (
        <div role="alert" className="error">
          {save.error.message}
        </div>
      )}
    </>
  );
}

export function UpdateSettings() {
  const { updates } = useBridge();
  if (!updates) return null;
  return <UpdateForm updates={updates} />;
}
