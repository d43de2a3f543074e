/**
 * The update channels the console page calls (its banner and Settings → Desktop app), checked like every
 * other desktop channel (ipc-channels.ts: the console window's main frame only), and the status pushed to
 * the window on each change. The release page opens in the system browser from here, with the address the
 * main process found: the page never names what to open.
 */
import { IPC_UPDATE_CANCEL_RESTART, IPC_UPDATE_CHECK_NOW, IPC_UPDATE_GET_STATUS, IPC_UPDATE_OPEN_RELEASE, IPC_UPDATE_RESTART, IPC_UPDATE_SET_PREFERENCES, type OperatorReply } from '../../src-shared/contract/bridge';
import type { UpdatePreferences } from '../../src-shared/contract/updates';
import type { AppUpdates } from './app-updates';
import type { Electron } from './electron-api';
import { REFUSED } from './ipc-channels';
import type { ConsoleWindows, IpcSender } from './window';

export function registerUpdateChannels(
  electron: Pick<Electron, 'ipcMain' | 'shell'>,
  updates: AppUpdates,
  windows: Pick<ConsoleWindows, 'isConsoleSender'>,
): void {
  const handle = (channel: string, run: (args: unknown) => unknown) =>
    electron.ipcMain.handle(channel, async (event, args: unknown): Promise<OperatorReply<unknown>> => {
      if (!windows.isConsoleSender(event as IpcSender)) return { ok: false, error: REFUSED };
      try {
        return { ok: true, value: (await run(args)) ?? null };
      } catch (error) {
        return { ok: false, error: (error as Error)?.message ?? String(error) };
      }
    });
  handle(IPC_UPDATE_GET_STATUS, () => updates.status());
  handle(IPC_UPDATE_CHECK_NOW, () => updates.checkNow());
  handle(IPC_UPDATE_RESTART, () => {
    // Answers the refusal, or the status once draining has begun (it may take a while): the banner follows
    // the pushed status from there.
    const restarting = updates.restartToUpdate();
    return Promise.race([restarting, Promise.resolve().then(() => updates.status())]);
  });
  handle(IPC_UPDATE_CANCEL_RESTART, () => updates.cancelRestart());
  handle(IPC_UPDATE_SET_PREFERENCES, (changes) => updates.setPreferences(changes as Partial<UpdatePreferences>));
  handle(IPC_UPDATE_OPEN_RELEASE, async () => {
    const url = updates.releaseUrl();
    if (!url) throw new Error('no newer version is known yet: nothing to open');
    await electron.shell.openExternal(url);
  });
}
