/**
 * The desktop app's own data folder. Electron names userData after the app: package.json's productName
 * ("Wager Keeper") when started as `electron .` or packaged, but its `name` ("wager-keeper") without a
 * productName, and "Electron" when started on a bare file. On Linux "wager-keeper" under appData is
 * exactly headless `serve`'s settings folder (~/.config/wager-keeper, console-settings.ts), so the two
 * would share (and fight over) one console.json. Set it explicitly, before `ready`, whatever started us.
 */
import { join } from 'node:path';
import type { Electron } from './electron-api';

export const DESKTOP_APP_NAME = 'Wager Keeper';

/** Sets and answers userData: <appData>/Wager Keeper (~/.config, ~/Library/Application Support, %APPDATA%). */
export function useOwnUserDataFolder(electron: Pick<Electron, 'app'>): string {
  const folder = join(electron.app.getPath('appData'), DESKTOP_APP_NAME);
  electron.app.setPath('userData', folder);
  return folder;
}
