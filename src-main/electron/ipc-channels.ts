/**
 * The IPC channels the console page calls, registered once at start-up (Electron throws on a second
 * handler for one channel): one per operator method, the deployment file picker, and the desktop
 * preferences. Every handler first checks, before any await (senderFrame may be null after one), that the
 * call comes from the console window's main frame on the console page; anything else is refused.
 */
import { IPC_DESKTOP_GET_PREFERENCES, IPC_DESKTOP_SET_PREFERENCES, IPC_PICK_DEPLOYMENT_FILE, ipcChannel, type OperatorReply } from '../../src-shared/contract/bridge';
import { OPERATOR_METHODS, type OperatorApi, type OperatorMethod } from '../../src-shared/contract/operator-api';
import type { DesktopPreferences, DesktopPreferencesView } from '../../src-shared/contract/desktop';
import type { Electron } from './electron-api';
import type { ConsoleWindows, IpcSender } from './window';

export const REFUSED =
  'refused: the operator interface answers the console window only (reopen the console from the tray or the app menu)';

/**
 * Operator methods the desktop window may not call directly. `exportKey` takes the destination path from
 * its caller: in the desktop host the page must go through Export key… (export-key-dialog.ts), where the
 * system's save dialog, in the main process, picks the path, so a page script cannot write the secret
 * wherever it likes. The headless console (a browser, no save dialog) keeps the generic call.
 */
export const DESKTOP_REFUSED_METHODS: Readonly<Record<string, string>> = {
  exportKey:
    'refused: in the desktop app the keeper key is exported through Settings → Keeper key → Export key…, where you choose the file in the system’s save dialog',
};

/** Errors are sent as text: Electron would wrap a thrown one in "Error invoking remote method ...". */
const failure = (error: unknown, prefix = ''): { ok: false; error: string } => ({
  ok: false,
  error: `${prefix}${(error as Error)?.message ?? String(error)}`,
});

/** Registers one IPC handler per operator method; each answers an envelope and only to the console page. */
export function registerOperatorChannels(
  electron: Pick<Electron, 'ipcMain'>,
  api: OperatorApi,
  windows: Pick<ConsoleWindows, 'isConsoleSender'>,
): void {
  for (const method of OPERATOR_METHODS) {
    electron.ipcMain.handle(
      ipcChannel(method),
      async (event, args: unknown): Promise<OperatorReply<unknown>> => {
        if (!windows.isConsoleSender(event as IpcSender)) return { ok: false, error: REFUSED };
        const refused = DESKTOP_REFUSED_METHODS[method];
        if (refused) return { ok: false, error: refused };
        try {
          const call = api[method as OperatorMethod] as (args: unknown) => Promise<unknown>;
          return { ok: true, value: await call(args ?? {}) };
        } catch (error) {
          return failure(error);
        }
      },
    );
  }
}

/**
 * The system's file picker for "Load a deployment file…": answers the chosen path (null when cancelled),
 * which the page then hands to `loadDeployment`; the file itself is read and checked by the core.
 */
export function registerFilePicker(
  electron: Pick<Electron, 'ipcMain' | 'dialog'>,
  windows: Pick<ConsoleWindows, 'isConsoleSender' | 'current'>,
): void {
  electron.ipcMain.handle(IPC_PICK_DEPLOYMENT_FILE, async (event): Promise<OperatorReply<string | null>> => {
    if (!windows.isConsoleSender(event as IpcSender)) return { ok: false, error: REFUSED };
    try {
      // With its window as parent the dialog is modal to it (a sheet on macOS), never behind the app (dialog.md).
      const chosen = await electron.dialog.showOpenDialog(windows.current()!, {
        title: 'Load a deployment file',
        buttonLabel: 'Load deployment',
        properties: ['openFile'],
        filters: [
          { name: 'Deployment (JSON)', extensions: ['json'] },
          { name: 'All files', extensions: ['*'] },
        ],
      });
      return { ok: true, value: chosen.canceled ? null : (chosen.filePaths[0] ?? null) };
    } catch (error) {
      return failure(error, 'the file picker failed (type the path instead): ');
    }
  });
}

/** What the preference channels need of the desktop preferences (desktop-preferences.ts). */
export interface PreferencesAccess {
  view(): DesktopPreferencesView;
  /** Validates and applies; throws an Error that says what to do. */
  set(changes: Partial<DesktopPreferences>): DesktopPreferencesView;
}

/** Settings → Desktop app reads and changes the desktop preferences over these two channels. */
export function registerPreferenceChannels(
  electron: Pick<Electron, 'ipcMain'>,
  preferences: PreferencesAccess,
  windows: Pick<ConsoleWindows, 'isConsoleSender'>,
): void {
  electron.ipcMain.handle(
    IPC_DESKTOP_GET_PREFERENCES,
    async (event): Promise<OperatorReply<DesktopPreferencesView>> => {
      if (!windows.isConsoleSender(event as IpcSender)) return { ok: false, error: REFUSED };
      try {
        return { ok: true, value: preferences.view() };
      } catch (error) {
        return failure(error);
      }
    },
  );
  electron.ipcMain.handle(
    IPC_DESKTOP_SET_PREFERENCES,
    async (event, changes: unknown): Promise<OperatorReply<DesktopPreferencesView>> => {
      if (!windows.isConsoleSender(event as IpcSender)) return { ok: false, error: REFUSED };
      try {
        return { ok: true, value: preferences.set(changes as Partial<DesktopPreferences>) };
      } catch (error) {
        return failure(error);
      }
    },
  );
}
