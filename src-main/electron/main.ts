/**
 * The Electron entry (built to out/main/main.js): the desktop host of the console. Its own userData
 * folder (app-folders.ts), console settings in electron-store (same schema and migrations as the headless
 * conf store), the desktop preferences in a file of their own, the operator service on the saved cluster,
 * one sandboxed window, the tray. Only src-main/electron/ imports `electron`.
 */
import * as electron from 'electron';
import Store from 'electron-store';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { attachLogFile, createLogger } from '../logging';
import {
  CONSOLE_SETTINGS_DEFAULTS,
  CONSOLE_SETTINGS_MIGRATIONS,
  CONSOLE_SETTINGS_SCHEMA,
  CONSOLE_SETTINGS_VERSION,
  preparePrivateSettings,
  SETTINGS_FILE_MODE,
  type SettingsBackend,
} from '../runtime/console-settings';
import type { ConsoleSettings } from '../../src-shared/contract/settings';
import { createOperatorService } from '../console-core/operator-service';
import { useOwnUserDataFolder } from './app-folders';
import { runDesktopApp } from './desktop-app';
import {
  DESKTOP_PREFERENCES_DEFAULTS,
  DESKTOP_PREFERENCES_SCHEMA,
  type DesktopPreferencesBackend,
  type StoredDesktopPreferences,
} from './desktop-preferences';

// out/main/main.js → out/
const outDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = createLogger('desktop');

// Before `ready`: Electron and electron-store read userData from here on.
useOwnUserDataFolder(electron);

void runDesktopApp(electron, {
  outDirectory,
  log,
  createService(userData) {
    // console.json keeps RPC URLs (often with a provider's key): 0600 in a 0700 folder (issue 33).
    preparePrivateSettings(userData, ['console.json', 'desktop.json', 'alert-channels.json']);
    const settings = new Store<ConsoleSettings>({
      name: 'console',
      configFileMode: SETTINGS_FILE_MODE,
      projectVersion: CONSOLE_SETTINGS_VERSION,
      schema: CONSOLE_SETTINGS_SCHEMA as never,
      migrations: CONSOLE_SETTINGS_MIGRATIONS as never,
      defaults: CONSOLE_SETTINGS_DEFAULTS,
    }) as unknown as SettingsBackend;
    // The desktop app's logs also go to <userData>/logs/ (10 MB x 5), which a window-only app needs.
    attachLogFile(join(userData, 'logs', 'wager-keeper.log')).catch((error: unknown) =>
      log.warn({ error: (error as Error).message }, 'the log file could not be opened: logs go to stderr only'),
    );
    return createOperatorService({ host: 'desktop', settings, dataDir: userData });
  },
  createPreferences: () =>
    new Store<StoredDesktopPreferences>({
      name: 'desktop',
      configFileMode: SETTINGS_FILE_MODE,
      schema: DESKTOP_PREFERENCES_SCHEMA as never,
      defaults: DESKTOP_PREFERENCES_DEFAULTS,
    }) as unknown as DesktopPreferencesBackend,
}).catch((error: unknown) => {
  electron.dialog.showErrorBox(
    'Wager Keeper could not start',
    `${(error as Error).message}\n\nStart it from a terminal with \`npm start\` to see the log.`,
  );
  electron.app.exit(1);
});
