/**
 * The `electron` module of the desktop host process (register-electron.mjs maps the specifier here): ONE
 * stand-in (stand-in-adapter.ts), its members as named exports and as the default export (main.ts uses
 * `import * as electron`, electron-store `import electron from 'electron'`). Environment:
 *   WAGER_KEEPER_DESKTOP_APP_DATA  this run's appData folder (userData is "<it>/Wager Keeper"); required
 *   WAGER_KEEPER_DESKTOP_CONTROL=1 start the control server and print `{"event":"desktop-host","control":URL}`
 *                                  as the first line on stdout (the core logs on stderr)
 *   WAGER_KEEPER_DESKTOP_RESOURCES an installed app's resources folder (the packaged-layout test): sets
 *                                  process.resourcesPath, app.isPackaged and app.getAppPath() as Electron does
 */
import { startControlServer } from './control-server.ts';
import { createHostStandIn } from './stand-in-adapter.ts';

const appData = process.env.WAGER_KEEPER_DESKTOP_APP_DATA;
if (!appData)
  throw new Error(
    'WAGER_KEEPER_DESKTOP_APP_DATA is not set: start the desktop host with e2e/desktop/desktop-host.ts (startDesktopHost), which gives each run a temp folder',
  );

// Electron sets process.resourcesPath before the app's code runs (…/resources, beside app.asar).
const resourcesPath = process.env.WAGER_KEEPER_DESKTOP_RESOURCES;
if (resourcesPath) Object.assign(process, { resourcesPath });

const host = createHostStandIn({
  appData,
  platform: process.platform,
  ...(resourcesPath ? { packaged: { resourcesPath } } : {}),
  // Electron ends the process once the app has quit (or exit() was called), whatever still holds it.
  onExit: (code) => setImmediate(() => process.exit(code)),
});

if (process.env.WAGER_KEEPER_DESKTOP_CONTROL === '1') {
  const control = await startControlServer(host);
  process.stdout.write(`${JSON.stringify({ event: 'desktop-host', control, pid: process.pid })}\n`);
}

const electron = host.electron as Record<string, unknown>;
export default electron;
export const app = electron.app;
export const BaseWindow = electron.BaseWindow;
export const BrowserWindow = electron.BrowserWindow;
export const ipcMain = electron.ipcMain;
export const ipcRenderer = electron.ipcRenderer;
export const contextBridge = electron.contextBridge;
export const session = electron.session;
export const shell = electron.shell;
export const dialog = electron.dialog;
export const Notification = electron.Notification;
export const Tray = electron.Tray;
export const Menu = electron.Menu;
export const MenuItem = electron.MenuItem;
export const nativeImage = electron.nativeImage;
export const powerSaveBlocker = electron.powerSaveBlocker;
export const powerMonitor = electron.powerMonitor;
export const screen = electron.screen;
export const nativeTheme = electron.nativeTheme;
export const clipboard = electron.clipboard;
export const crashReporter = electron.crashReporter;
export const webContents = electron.webContents;
// electron-updater (app-updates.ts) downloads with net.request and emits on autoUpdater.
export const net = electron.net;
export const autoUpdater = electron.autoUpdater;
