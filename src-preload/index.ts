/**
 * The sandboxed preload: exposes `window.wagerKeeper`, the typed operator bridge, and nothing else. Each
 * call goes over the IPC channel of its method (from the one method list); the main process answers
 * with an envelope `{ ok, value } | { ok: false, error }` that this unwraps into a value or an Error.
 * Built as CommonJS: a window with `sandbox: true` cannot load an ES module preload.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  IPC_EVENT_CHANNEL,
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
};

contextBridge.exposeInMainWorld('wagerKeeper', bridge);
