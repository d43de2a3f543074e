/**
 * The app's own menu. Without one Electron sets its default menu on 'will-finish-launching'
 * (lib/browser/default-menu.ts: File, Edit, View with Toggle Developer Tools, Window), which would ship
 * DevTools in the installed app. Ours keeps what a person uses (Reload, zoom, full screen, the Edit
 * menu's copy and paste, which macOS needs for Cmd+C in the page) and offers Toggle Developer Tools only
 * to a developer (`npm start`, !app.isPackaged). Roles are Electron's (menu-item-roles.ts): Reload is
 * webContents.reload() of the focused window; Quit is app.quit(), so the keeper stops gracefully.
 */
import type * as ElectronModule from 'electron';
import type { Electron } from './electron-api';

export function appMenuTemplate(options: {
  platform: NodeJS.Platform;
  isPackaged: boolean;
  openConsole(): void;
}): ElectronModule.MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  return [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open console', click: () => options.openConsole() },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit', label: 'Quit Wager Keeper' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'forceReload' },
        ...(options.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ];
}

/** Sets the app's menu (replacing Electron's default one). */
export function installAppMenu(
  electron: Pick<Electron, 'Menu' | 'app'>,
  platform: NodeJS.Platform,
  openConsole: () => void,
): void {
  const template = appMenuTemplate({ platform, isPackaged: electron.app.isPackaged, openConsole });
  electron.Menu.setApplicationMenu(electron.Menu.buildFromTemplate(template));
}
