/**
 * While the console shows a keeper on a server, the desktop-only features that work on this computer's
 * disk are refused with a sentence: Export key… (the key lives on the server), Save diagnostics… (the
 * logs are the server's) and the deployment file picker (the keeper there reads a path on the server).
 * The channels are wrapped at registration: the console-window check still runs first.
 */
import { IPC_EXPORT_KEY, IPC_PICK_DEPLOYMENT_FILE, IPC_SAVE_DIAGNOSTICS } from '../../src-shared/contract/bridge';
import type { Electron } from './electron-api';
import type { ConsoleWindows, IpcSender } from './window';

/** What each channel says while `label` (user@host:port) is shown. */
export const REMOTE_REFUSALS: Readonly<Record<string, (label: string) => string>> = {
  [IPC_EXPORT_KEY]: (label) =>
    `this keeper runs on ${label}: export its key there with \`wager-keeper key export --out FILE\` (the app writes keys to this computer only for its own keeper)`,
  [IPC_SAVE_DIAGNOSTICS]: (label) =>
    `this keeper runs on ${label}: its logs are on that server; save its diagnostics from its own browser console there (\`wager-keeper console-url\` prints the address)`,
  [IPC_PICK_DEPLOYMENT_FILE]: (label) =>
    `this keeper runs on ${label}: a deployment file must be on that server; copy it there and type its path on the server instead`,
};

/** An Electron whose `ipcMain.handle` refuses the channels above while a server is shown. */
export function withRemoteRefusals<E extends Pick<Electron, 'ipcMain'>>(
  electron: E,
  shownServer: () => { label: string } | null,
  windows: Pick<ConsoleWindows, 'isConsoleSender'>,
): E {
  const ipcMain = Object.create(electron.ipcMain) as Electron['ipcMain'];
  ipcMain.handle = (channel, handler) => {
    const refusal = REMOTE_REFUSALS[channel];
    electron.ipcMain.handle(channel, (event, ...args: unknown[]) => {
      const server = refusal && windows.isConsoleSender(event as IpcSender) ? shownServer() : null;
      if (server) return { ok: false, error: refusal!(server.label) };
      return handler(event, ...args) as unknown;
    });
  };
  return { ...electron, ipcMain };
}
