/**
 * Web permissions: the console page's main frame gets exactly `clipboard-sanitized-write`, which
 * navigator.clipboard.writeText needs in Electron (every Copy button); everything else, and every other
 * frame or page, is denied. Both handlers are set, as Electron's docs require: Chromium checks first
 * (synchronously) and requests only when the check is denied. A cross-origin subframe's check comes with a
 * null webContents, so the check judges by the frame's URL, origin and isMainFrame.
 */
import type { Electron } from './electron-api';
import type { ConsoleWindows } from './window';

export const GRANTED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export function installPermissionHandlers(
  electron: Pick<Electron, 'session'>,
  windows: Pick<ConsoleWindows, 'isConsoleContents' | 'isConsolePage'>,
): void {
  const { defaultSession } = electron.session;
  defaultSession.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(
      GRANTED_PERMISSIONS.has(permission) &&
        details.isMainFrame &&
        windows.isConsoleContents(contents) &&
        windows.isConsolePage(details.requestingUrl),
    );
  });
  defaultSession.setPermissionCheckHandler((contents, permission, requestingOrigin, details) => {
    // requestingUrl is missing when the check is not made for a document (a service worker): denied.
    return (
      GRANTED_PERMISSIONS.has(permission) &&
      details.isMainFrame &&
      windows.isConsoleContents(contents) &&
      requestingOrigin.startsWith('file:') &&
      windows.isConsolePage(details.requestingUrl)
    );
  });
}
