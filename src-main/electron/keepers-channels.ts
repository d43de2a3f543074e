/**
 * The Keepers list's channels (contract/keepers.ts): list, add, accept a host key, remove, show and the
 * fleet, checked like every other desktop channel (ipc-channels.ts: the console window's main frame only,
 * read before any await) and answered as envelopes; and the list pushed to the window on every change.
 */
import {
  IPC_KEEPERS_ACCEPT_HOST_KEY,
  IPC_KEEPERS_ADD,
  IPC_KEEPERS_CHANGED_EVENT,
  IPC_KEEPERS_FLEET,
  IPC_KEEPERS_LIST,
  IPC_KEEPERS_REMOVE,
  IPC_KEEPERS_SHOW,
  type OperatorReply,
} from '../../src-shared/contract/bridge';
import type { KeeperSwitch } from '../remote/keeper-switch';
import type { Electron } from './electron-api';
import { REFUSED } from './ipc-channels';
import type { ConsoleWindows, IpcSender } from './window';

/** The page's arguments arrive as `unknown`: an object, or a sentence saying what was expected. */
const objectArgs = (args: unknown): Record<string, unknown> => {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new Error('the Keepers list expects an object argument');
  return args as Record<string, unknown>;
};
const text = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value === '') throw new Error(`${name} must be a non-empty string`);
  return value;
};

/** Registers the Keepers channels once at start-up and pushes each change to the console window. */
export function registerKeepersChannels(
  electron: Pick<Electron, 'ipcMain'>,
  keepers: Pick<KeeperSwitch, 'view' | 'onChange' | 'add' | 'acceptHostKey' | 'remove' | 'show' | 'fleet'>,
  windows: Pick<ConsoleWindows, 'isConsoleSender' | 'current'>,
): void {
  const handle = (channel: string, run: (args: unknown) => unknown) =>
    electron.ipcMain.handle(channel, async (event, args: unknown): Promise<OperatorReply<unknown>> => {
      if (!windows.isConsoleSender(event as IpcSender)) return { ok: false, error: REFUSED };
      try {
        return { ok: true, value: await run(args) };
      } catch (error) {
        return { ok: false, error: (error as Error)?.message ?? String(error) };
      }
    });
  handle(IPC_KEEPERS_LIST, () => keepers.view());
  handle(IPC_KEEPERS_ADD, (args) => {
    const { target, keyFile } = objectArgs(args);
    if (keyFile != null && typeof keyFile !== 'string') throw new Error('keyFile must be a path or null');
    return keepers.add({ target: text(target, 'target'), keyFile: keyFile ?? null });
  });
  handle(IPC_KEEPERS_ACCEPT_HOST_KEY, (args) => {
    const { id, fingerprint } = objectArgs(args);
    return keepers.acceptHostKey({ id: text(id, 'id'), fingerprint: text(fingerprint, 'fingerprint') });
  });
  handle(IPC_KEEPERS_REMOVE, (args) => keepers.remove({ id: text(objectArgs(args).id, 'id') }));
  handle(IPC_KEEPERS_SHOW, (args) => keepers.show({ id: text(objectArgs(args).id, 'id') }));
  handle(IPC_KEEPERS_FLEET, () => keepers.fleet());
  keepers.onChange((view) => windows.current()?.webContents.send(IPC_KEEPERS_CHANGED_EVENT, view));
}
