/**
 * The sandboxed preload: exposes `window.wagerKeeper`, the typed operator bridge (and the desktop's file
 * picker for a deployment file, which answers a path the keeper then reads itself), and nothing else. Each
 * call goes over the IPC channel of its method (from the one method list); the main process answers
 * with an envelope `{ ok, value } | { ok: false, error }` that this unwraps into a value or an Error.
 * Built as CommonJS: a window with `sandbox: true` cannot load an ES module preload.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  IPC_EVENT_CHANNEL,
  IPC_PICK_DEPLOYMENT_FILE,
  OPERATOR_METHODS,
  ipcChannel,
  type OperatorBridge,
  type OperatorEvent,
  type OperatorMethod,
  type OperatorReply,
} from '../src-main/operator/operator-interface';

const methods = new Set<string>(OPERATOR_METHODS);

export const bridge: OperatorBridge = {
  async call(method, args) {
    if (!methods.has(method)) throw new Error(`unknown operator method '${String(method)}'`);
    const reply = (await ipcRenderer.invoke(ipcChannel(method as OperatorMethod), args)) as OperatorReply<never>;
    if (!reply.ok) throw new Error(reply.error);
    return reply.value;
  },
  onEvent(listener) {
    const forward = (_event: IpcRendererEvent, event: OperatorEvent) => listener(event);
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => void ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
  },
  async pickDeploymentFile() {
    const reply = (await ipcRenderer.invoke(IPC_PICK_DEPLOYMENT_FILE)) as OperatorReply<string | null>;
    if (!reply.ok) throw new Error(reply.error);
    return reply.value;
  },
};

contextBridge.exposeInMainWorld('wagerKeeper', bridge);
