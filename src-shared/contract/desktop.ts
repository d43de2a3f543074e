/**
 * The console contract, desktop app: the app's own preferences, kept by the desktop host (a headless keeper
 * has no window, tray or login item).
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */

/** The desktop app's own preferences, kept by the desktop host (a headless keeper has no window, tray or login item). */
export interface DesktopPreferences {
  /** Closing the window quits the app and stops the keeper (the old way); off: the window hides and the keeper keeps cranking in the tray. */
  quitOnWindowClose: boolean;
  /** Start at login, hidden in the tray. */
  openAtLogin: boolean;
}

export interface DesktopPreferencesView extends DesktopPreferences {
  /** How start at login works on this platform, in words (Settings shows it under the checkbox). */
  openAtLoginNote: string;
}

export interface DesktopPreferencesBridge {
  getPreferences(): Promise<DesktopPreferencesView>;
  setPreferences(changes: Partial<DesktopPreferences>): Promise<DesktopPreferencesView>;
}
