/**
 * The sandboxed preload: exposes `window.wagerKeeper`, the typed operator bridge (plus, desktop only, the
 * file picker for a deployment file, which answers a path the keeper then reads itself, the desktop
 * app's own preferences and updates, and the Keepers list), and nothing else. Each call goes over the IPC channel of its method (from the
 * one method list); the main process answers with an envelope `{ ok, value } | { ok: false, error }` that
 * this unwraps into a value or an Error. Built as CommonJS: a window with `sandbox: true` cannot load an
 * ES module preload.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_DESKTOP_GET_PREFERENCES, IPC_DESKTOP_SET_PREFERENCES, IPC_EVENT_CHANNEL, IPC_EXPORT_KEY, IPC_KEEPERS_ACCEPT_HOST_KEY, IPC_KEEPERS_ADD, IPC_KEEPERS_CHANGED_EVENT, IPC_KEEPERS_FLEET, IPC_KEEPERS_LIST, IPC_KEEPERS_REMOVE, IPC_KEEPERS_SHOW, IPC_PICK_DEPLOYMENT_FILE, IPC_SAVE_DIAGNOSTICS, IPC_UPDATE_CANCEL_RESTART, IPC_UPDATE_CHECK_NOW, IPC_UPDATE_GET_STATUS, IPC_UPDATE_OPEN_RELEASE, IPC_UPDATE_RESTART, IPC_UPDATE_SET_PREFERENCES, IPC_UPDATE_STATUS_EVENT, ipcChannel, type OperatorBridge, type OperatorReply } from '../src-shared/contract/bridge';
import { OPERATOR_METHODS, type OperatorArgs, type OperatorMethod, type OperatorResult } from '../src-shared/contract/operator-api';
import type { DesktopPreferencesView } from '../src-shared/contract/desktop';
import type { DiagnosticsSavedView } from '../src-shared/contract/diagnostics';
import type { KeyExportView } from '../src-shared/contract/keys';
import type { KeeperFleetRow, KeepersView } from '../src-shared/contract/keepers';
import type { OperatorEvent } from '../src-shared/contract/events';
import type { UpdateStatusView } from '../src-shared/contract/updates';

const methods = new Set<string>(OPERATOR_METHODS);

/** Calls a channel and unwraps its envelope. */
async function request<T>(channel: string, ...args: unknown[]): Promise<T> {
  const reply = (await ipcRenderer.invoke(channel, ...args)) as OperatorReply<T>;
  if (!reply.ok) throw new Error(reply.error);
  return reply.value;
}

export const bridge: OperatorBridge = {
  async call<M extends OperatorMethod>(method: M, args: OperatorArgs<M>): Promise<OperatorResult<M>> {
    if (!methods.has(method)) throw new Error(`unknown operator method '${String(method)}'`);
    return request<OperatorResult<M>>(ipcChannel(method), args);
  },
  onEvent(listener) {
    const forward = (_event: IpcRendererEvent, event: OperatorEvent) => listener(event);
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => void ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
  },
  pickDeploymentFile: () => request<string | null>(IPC_PICK_DEPLOYMENT_FILE),
  saveDiagnosticsAs: () => request<DiagnosticsSavedView | null>(IPC_SAVE_DIAGNOSTICS),
  exportKeyAs: (args) => request<KeyExportView | null>(IPC_EXPORT_KEY, args),
  desktop: {
    getPreferences: () => request<DesktopPreferencesView>(IPC_DESKTOP_GET_PREFERENCES),
    setPreferences: (changes) => request<DesktopPreferencesView>(IPC_DESKTOP_SET_PREFERENCES, changes),
  },
  updates: {
    status: () => request<UpdateStatusView>(IPC_UPDATE_GET_STATUS),
    onStatus(listener) {
      const forward = (_event: IpcRendererEvent, status: UpdateStatusView) => listener(status);
      ipcRenderer.on(IPC_UPDATE_STATUS_EVENT, forward);
      return () => void ipcRenderer.removeListener(IPC_UPDATE_STATUS_EVENT, forward);
    },
    checkNow: () => request<UpdateStatusView>(IPC_UPDATE_CHECK_NOW),
    restartToUpdate: () => request<UpdateStatusView>(IPC_UPDATE_RESTART),
    cancelRestart: () => request<UpdateStatusView>(IPC_UPDATE_CANCEL_RESTART),
    setPreferences: (changes) => request<UpdateStatusView>(IPC_UPDATE_SET_PREFERENCES, changes),
    openReleasePage: async () => void (await request<null>(IPC_UPDATE_OPEN_RELEASE)),
  },
  keepers: {
    list: () => request<KeepersView>(IPC_KEEPERS_LIST),
    add: (args) => request<KeepersView>(IPC_KEEPERS_ADD, args),
    acceptHostKey: (args) => request<KeepersView>(IPC_KEEPERS_ACCEPT_HOST_KEY, args),
    remove: (args) => request<KeepersView>(IPC_KEEPERS_REMOVE, args),
    show: (args) => request<KeepersView>(IPC_KEEPERS_SHOW, args),
    fleet: () => request<KeeperFleetRow[]>(IPC_KEEPERS_FLEET),
    onChange(listener) {
      const forward = (_event: IpcRendererEvent, view: KeepersView) => listener(view);
      ipcRenderer.on(IPC_KEEPERS_CHANGED_EVENT, forward);
      return () => void ipcRenderer.removeListener(IPC_KEEPERS_CHANGED_EVENT, forward);
    },
  },
};

contextBridge.exposeInMainWorld('wagerKeeper', bridge);
