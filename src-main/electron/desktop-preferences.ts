/**
 * The desktop app's own preferences: "Quit when the window closes", "Start at login", whether the
 * first close has been explained, and updates (check for them, a mirror feed: app-updates.ts). Kept in an electron-store file of their own (desktop.json in userData),
 * not in the console settings: those are shared with headless `serve`/`keeper` (conf, same schema), which
 * have no window, tray or login item. Start at login is read back from the system (the login item or the
 * autostart file), so Settings never shows a choice the system does not hold.
 */
import type { DesktopPreferences, DesktopPreferencesView } from '../../src-shared/contract/desktop';
import type { PreferencesAccess } from './ipc-channels';
import { LoginItemRefused, type LoginItem } from './login-item';

export interface StoredDesktopPreferences extends DesktopPreferences {
  /** The first close of the window explained (once) that the keeper keeps running in the tray. */
  firstCloseNoticeShown: boolean;
  /** Check the release feed at start and every 12 hours (app-updates.ts); Settings → Desktop app turns it off. */
  checkForUpdates: boolean;
  /** A self-hosted mirror of the release feed (a generic provider's URL); '' for the feed the app was built with. */
  updateFeedUrl: string;
}

export const DESKTOP_PREFERENCES_DEFAULTS: StoredDesktopPreferences = {
  quitOnWindowClose: false,
  openAtLogin: false,
  firstCloseNoticeShown: false,
  checkForUpdates: true,
  updateFeedUrl: '',
};

/** JSON schema for electron-store (conf validates every write with ajv). */
export const DESKTOP_PREFERENCES_SCHEMA = {
  quitOnWindowClose: { type: 'boolean', default: false },
  openAtLogin: { type: 'boolean', default: false },
  firstCloseNoticeShown: { type: 'boolean', default: false },
  checkForUpdates: { type: 'boolean', default: true },
  updateFeedUrl: { type: 'string', default: '' },
} as const;

/** What electron-store (and a test's in-memory object) offers. */
export interface DesktopPreferencesBackend {
  readonly store: StoredDesktopPreferences;
  set(changes: Partial<StoredDesktopPreferences>): void;
}

export interface DesktopPreferencesHost extends PreferencesAccess {
  current(): StoredDesktopPreferences;
  markFirstCloseNoticeShown(): void;
  /** Saves the update preferences (checked by app-updates.ts before). */
  setUpdatePreferences(changes: Partial<Pick<StoredDesktopPreferences, 'checkForUpdates' | 'updateFeedUrl'>>): void;
  /** Called after every change (the tray's Start at login checkbox follows Settings and back). */
  onChange(listener: () => void): () => void;
}

const SETTABLE: readonly (keyof DesktopPreferences)[] = ['quitOnWindowClose', 'openAtLogin'];

/** An in-memory backend (tests; and the fallback when the preferences file cannot be opened). */
export function memoryPreferences(
  initial: Partial<StoredDesktopPreferences> = {},
): DesktopPreferencesBackend {
  let store = { ...DESKTOP_PREFERENCES_DEFAULTS, ...initial };
  return {
    get store() {
      return store;
    },
    set: (changes) => void (store = { ...store, ...changes }),
  };
}

export function createDesktopPreferences(
  backend: DesktopPreferencesBackend,
  loginItem: LoginItem,
): DesktopPreferencesHost {
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  const view = (): DesktopPreferencesView => ({
    quitOnWindowClose: backend.store.quitOnWindowClose,
    openAtLogin: loginItem.isEnabled(),
    openAtLoginNote: loginItem.note,
  });
  return {
    current: () => backend.store,
    view,
    set(changes) {
      if (typeof changes !== 'object' || changes === null)
        throw new Error('give the preferences to change, like { "quitOnWindowClose": true }');
      for (const [key, value] of Object.entries(changes)) {
        if (!SETTABLE.includes(key as keyof DesktopPreferences))
          throw new Error(
            `unknown desktop preference '${key}': the settable ones are ${SETTABLE.join(' and ')}`,
          );
        if (typeof value !== 'boolean') throw new Error(`${key} must be true or false`);
      }
      if (changes.openAtLogin !== undefined) {
        try {
          loginItem.setEnabled(changes.openAtLogin);
        } catch (error) {
          if (error instanceof LoginItemRefused) throw error;
          throw new Error(
            `could not turn start at login ${changes.openAtLogin ? 'on' : 'off'}: ${(error as Error).message}. Try again; if it lasts, add Wager Keeper to your desktop's startup applications by hand`,
            { cause: error },
          );
        }
      }
      backend.set(
        Object.fromEntries(
          SETTABLE.filter((key) => changes[key] !== undefined).map((key) => [key, changes[key]]),
        ),
      );
      changed();
      return view();
    },
    markFirstCloseNoticeShown() {
      backend.set({ firstCloseNoticeShown: true });
    },
    setUpdatePreferences(changes) {
      backend.set(changes);
      changed();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
