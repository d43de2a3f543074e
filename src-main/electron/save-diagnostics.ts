/**
 * "Save diagnostics…" in the desktop app (the Logs screen's button and the tray item): the system's save
 * dialog picks where, then the core writes the archive there (OperatorService.writeDiagnostics: secrets
 * removed). The page's channel answers the archive written, or null when cancelled, and like every channel
 * answers the console window only.
 */
import type * as ElectronModule from 'electron';
import { join } from 'node:path';
import { diagnosticsFileName } from '../diagnostics/diagnostics-archive';
import { IPC_SAVE_DIAGNOSTICS, type OperatorReply } from '../../src-shared/contract/bridge';
import type { DiagnosticsSavedView } from '../../src-shared/contract/diagnostics';
import type { Electron } from './electron-api';
import { REFUSED } from './ipc-channels';
import type { ConsoleWindows, IpcSender } from './window';

export interface DiagnosticsWriter {
  writeDiagnostics(path: string): Promise<DiagnosticsSavedView>;
}

/** Asks where (in Downloads by default) and writes the archive there; null when the dialog is cancelled. */
export async function saveDiagnosticsWithDialog(
  electron: Pick<Electron, 'app' | 'dialog'>,
  service: DiagnosticsWriter,
  /** The console window when it is open: the dialog is then modal to it (dialog.md); the tray's item may have none. */
  parent: ElectronModule.BaseWindow | null = null,
): Promise<DiagnosticsSavedView | null> {
  const options: ElectronModule.SaveDialogOptions = {
    title: 'Save diagnostics',
    buttonLabel: 'Save diagnostics',
    defaultPath: join(electron.app.getPath('downloads'), diagnosticsFileName()),
    filters: [{ name: 'Diagnostics archive (.tar.gz)', extensions: ['gz'] }],
  };
  const chosen = await (parent ? electron.dialog.showSaveDialog(parent, options) : electron.dialog.showSaveDialog(options));
  if (chosen.canceled || !chosen.filePath) return null;
  return service.writeDiagnostics(chosen.filePath);
}

export function registerDiagnosticsChannel(
  electron: Pick<Electron, 'app' | 'dialog' | 'ipcMain'>,
  service: DiagnosticsWriter,
  windows: Pick<ConsoleWindows, 'isConsoleSender' | 'current'>,
): void {
  electron.ipcMain.handle(
    IPC_SAVE_DIAGNOSTICS,
    async (event): Promise<OperatorReply<DiagnosticsSavedView | null>> => {
      if (!windows.isConsoleSender(event as IpcSender)) return { ok: false, error: REFUSED };
      try {
        return { ok: true, value: await saveDiagnosticsWithDialog(electron, service, windows.current()) };
      } catch (error) {
        return {
          ok: false,
          error: `diagnostics could not be saved (${(error as Error).message}): pick a folder you can write, or use the Logs screen of a headless keeper`,
        };
      }
    },
  );
}
