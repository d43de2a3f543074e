/**
 * The Electron entry (built to out/main/index.js): the desktop host of the console. Settings in
 * electron-store (same schema and migrations as the headless conf store), the operator service on the
 * saved cluster, one sandboxed window. Only src-main/electron/ imports `electron`.
 */
import * as electron from 'electron';
import Store from 'electron-store';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSOLE_SETTINGS_DEFAULTS, CONSOLE_SETTINGS_MIGRATIONS, CONSOLE_SETTINGS_SCHEMA, CONSOLE_SETTINGS_VERSION, type SettingsBackend } from '../operator/console-settings';
import type { ConsoleSettings } from '../operator/operator-interface';
import { createOperatorService } from '../operator/operator-service';
import { runDesktopApp } from './desktop-app';

// out/main/index.js → out/
const outDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');

void runDesktopApp(
  electron,
  (userData) => {
    const settings = new Store<ConsoleSettings>({
      name: 'console',
      projectVersion: CONSOLE_SETTINGS_VERSION,
      schema: CONSOLE_SETTINGS_SCHEMA as never,
      migrations: CONSOLE_SETTINGS_MIGRATIONS as never,
      defaults: CONSOLE_SETTINGS_DEFAULTS,
    }) as unknown as SettingsBackend;
    return createOperatorService({ host: 'desktop', settings, dataDir: userData });
  },
  outDirectory,
).catch((error: unknown) => {
  electron.dialog.showErrorBox('Wager Keeper could not start', `${(error as Error).message}\n\nStart it from a terminal with \`npm start\` to see the log.`);
  electron.app.exit(1);
});
