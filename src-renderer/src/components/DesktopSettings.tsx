/**
 * Settings → Desktop app: what closing the window does and start at login. Shown only in the desktop app
 * (the preload's bridge offers `desktop`); a browser console has no window or tray of its own to set.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DesktopPreferences,
  DesktopPreferencesBridge,
} from '../../../src-main/operator/operator-interface';
import { useBridge } from '../queries';

function DesktopPreferencesForm({ desktop }: { desktop: DesktopPreferencesBridge }) {
  const client = useQueryClient();
  const preferences = useQuery({ queryKey: ['desktopPreferences'], queryFn: () => desktop.getPreferences() });
  const save = useMutation({
    mutationFn: (changes: Partial<DesktopPreferences>) => desktop.setPreferences(changes),
    onSuccess: (view) => client.setQueryData(['desktopPreferences'], view),
  });
  if (preferences.error)
    return (
      <div role="alert" className="error">
        Cannot read the desktop preferences: {preferences.error.message}
      </div>
    );
  if (!preferences.data) return <p aria-busy="true">Reading the desktop preferences…</p>;
  const view = preferences.data;
  return (
    <>
      <div className="actions">
        <label className="radio">
          <input
            type="checkbox"
            checked={view.quitOnWindowClose}
            disabled={save.isPending}
            onChange={(e) => save.mutate({ quitOnWindowClose: e.target.checked })}
          />{' '}
          Quit when the window closes
        </label>
        <span className="muted">
          {view.quitOnWindowClose
            ? 'closing the window stops the keeper and quits the app'
            : 'closing the window hides it; the keeper keeps cranking in the tray (Quit there stops it)'}
        </span>
      </div>
      <div className="actions">
        <label className="radio">
          <input
            type="checkbox"
            checked={view.openAtLogin}
            disabled={save.isPending}
            onChange={(e) => save.mutate({ openAtLogin: e.target.checked })}
          />{' '}
          Start at login
        </label>
        <span className="muted">hidden in the tray. {view.openAtLoginNote}</span>
      </div>
      {save.error && (
        <div role="alert" className="error">
          {save.error.message}
        </div>
      )}
    </>
  );
}

export function DesktopSettings() {
  const { desktop } = useBridge();
  if (!desktop) return null;
  return (
    <section className="panel" aria-labelledby="desktop-settings-title">
      <h2 id="desktop-settings-title">Desktop app</h2>
      <DesktopPreferencesForm desktop={desktop} />
    </section>
  );
}
