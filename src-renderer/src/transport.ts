/**
 * The operator bridge the screens use, picked once at start: the desktop preload's `window.wagerKeeper`
 * (Electron IPC), or the headless console's HTTP + SSE API with the per-run token from the URL. Every
 * screen calls the same `OperatorBridge`; only this file knows which one it is.
 */
import {
  OPERATOR_HTTP,
  type OperatorArgs,
  type OperatorBridge,
  type OperatorEvent,
  type OperatorMethod,
  type OperatorResult,
} from '../../src-main/operator/operator-interface';

declare global {
  interface Window {
    wagerKeeper?: OperatorBridge;
  }
}

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';

export interface ConsoleTransport {
  bridge: OperatorBridge;
  kind: 'desktop' | 'browser';
  /** Connection of the live event stream (always connected over IPC). */
  onConnection(listener: (state: ConnectionState) => void): () => void;
}

/** Reads the token from `#token=...` (or `?token=`), then removes it from the address bar (it stays in memory). */
export function takeTokenFromLocation(): string | null {
  const fromHash = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token');
  const fromQuery = new URLSearchParams(window.location.search).get('token');
  const token = fromHash ?? fromQuery;
  if (token) window.history.replaceState(null, '', `${window.location.pathname}#/overview`);
  return token;
}

function httpTransport(token: string): ConsoleTransport {
  const listeners = new Set<(event: OperatorEvent) => void>();
  const connection = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  const setState = (next: ConnectionState) => {
    state = next;
    for (const listener of connection) listener(next);
  };
  // EventSource reconnects by itself after a drop; the UI refetches when it is back (see live-events.ts).
  const source = new EventSource(`${OPERATOR_HTTP.events}?token=${encodeURIComponent(token)}`);
  source.onopen = () => setState('connected');
  source.onerror = () => setState('disconnected');
  source.onmessage = (message: MessageEvent<string>) => {
    const event = JSON.parse(message.data) as OperatorEvent;
    for (const listener of listeners) listener(event);
  };
  const bridge: OperatorBridge = {
    async call<M extends OperatorMethod>(method: M, args: OperatorArgs<M>): Promise<OperatorResult<M>> {
      let response: Response;
      try {
        response = await fetch(`${OPERATOR_HTTP.apiPrefix}${method}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(args ?? {}),
        });
      } catch {
        throw new Error('cannot reach the keeper: is `wager-keeper serve` still running? Restart it and open the new console URL it prints.');
      }
      const body = (await response.json().catch(() => ({ error: `HTTP ${response.status}` }))) as unknown;
      if (!response.ok) throw new Error((body as { error?: string }).error ?? `HTTP ${response.status}`);
      return body as OperatorResult<M>;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    bridge,
    kind: 'browser',
    onConnection(listener) {
      connection.add(listener);
      listener(state);
      return () => connection.delete(listener);
    },
  };
}

/** The transport of this window, or null in a browser opened without the token. */
export function pickTransport(): ConsoleTransport | null {
  if (window.wagerKeeper) {
    const bridge = window.wagerKeeper;
    return { bridge, kind: 'desktop', onConnection: (listener) => (listener('connected'), () => undefined) };
  }
  const token = takeTokenFromLocation();
  return token ? httpTransport(token) : null;
}
