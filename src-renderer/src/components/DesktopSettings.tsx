/**
 * Settings → Desktop app: what closing the window does, start at login and updates (UpdateSettings.tsx). Shown only in the desktop app
 * (the preload's bridge offers `desktop`); a browser console has no window or tray of its own to set.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DesktopPreferences, DesktopPreferencesBridge } from '@shared/contract/desktop';
import { useBridge } from '../queries';
import { SettingToggle } from './SettingToggle';
import { UpdateSettings } from './UpdateSettings';

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
      <SettingToggle
        label="Quit when the window closes"
        checked={view.quitOnWindowClose}
        saving={save.isPending}
        onChange={(quitOnWindowClose) => save.mutate({ quitOnWindowClose })}
        note={
          view.quitOnWindowClose
            ? 'closing the window stops the keeper and quits the app'
            : 'closing the window hides it; the keeper keeps cranking in the tray (Quit there stops it)'
        }
      />
      <SettingToggle
        label="Start at login"
        checked={view.openAtLogin}
        saving={save.isPending}
        onChange={(openAtLogin) => save.mutate({ openAtLogin })}
        note={`hidden in the tray. ${view.openAtLoginNote}`}
      />
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
      <UpdateSettings />
    </section>
  );
}
