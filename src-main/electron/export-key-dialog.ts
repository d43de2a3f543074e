/**
 * "Export key…" in the desktop app: after the page's warning and confirmation, the system's save dialog
 * (in the main process) picks where, and the core writes the keeper key there (OperatorApi.exportKey:
 * Solana CLI keypair format, mode 0600, never over an existing file). The page gets the path and the
 * address back, never the secret. Like every channel it answers the console window only.
 */
import type * as ElectronModule from 'electron';
import { join } from 'node:path';
import { IPC_EXPORT_KEY, type OperatorReply } from '../../src-shared/contract/bridge';
import type { KeyCluster, KeyExportView } from '../../src-shared/contract/keys';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { Electron } from './electron-api';
import { REFUSED } from './ipc-channels';
import type { ConsoleWindows, IpcSender } from './window';

type ExportArgs = { confirm: true; cluster?: KeyCluster; replaced?: string };

/** Asks where (Documents by default) and writes the key there; null when the dialog is cancelled. */
export async function exportKeyWithDialog(
  electron: Pick<Electron, 'app' | 'dialog'>,
  api: Pick<OperatorApi, 'exportKey'>,
  args: ExportArgs,
  /** The console window: the dialog is modal to it, never behind the app (dialog.md, `window`). */
  parent: ElectronModule.BaseWindow | null = null,
): Promise<KeyExportView | null> {
  if (args?.confirm !== true)
    throw new Error('exporting the keeper key writes its secret to a file: confirm the export first');
  const options: ElectronModule.SaveDialogOptions = {
    title: 'Export the keeper key',
    buttonLabel: 'Export key',
    defaultPath: join(
      electron.app.getPath('documents'),
      typeof args.replaced === 'string'
        ? `wager-keeper-${args.replaced.replace(/[^\w.-]/g, '')}.json`
        : `wager-keeper-${args.cluster === 'mainnet-beta' ? 'mainnet-beta-' : ''}key.json`,
    ),
    filters: [{ name: 'Solana CLI keypair (.json)', extensions: ['json'] }],
  };
  const chosen = await (parent ? electron.dialog.showSaveDialog(parent, options) : electron.dialog.showSaveDialog(options));
  if (chosen.canceled || !chosen.filePath) return null;
  return api.exportKey({
    path: chosen.filePath,
    confirm: true,
    ...(args.cluster ? { cluster: args.cluster } : {}),
    ...(args.replaced !== undefined ? { replaced: args.replaced } : {}),
  });
}

export function registerExportKeyChannel(
  electron: Pick<Electron, 'app' | 'dialog' | 'ipcMain'>,
  api: Pick<OperatorApi, 'exportKey'>,
  windows: Pick<ConsoleWindows, 'isConsoleSender' | 'current'>,
): void {
  electron.ipcMain.handle(
    IPC_EXPORT_KEY,
    async (event, args: unknown): Promise<OperatorReply<KeyExportView | null>> => {
      if (!windows.isConsoleSender(event as IpcSender)) return { ok: false, error: REFUSED };
      try {
        return { ok: true, value: await exportKeyWithDialog(electron, api, args as ExportArgs, windows.current()) };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    },
  );
}
