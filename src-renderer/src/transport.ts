/**
 * The operator bridge the screens use, picked once at start: the desktop preload's `window.wagerKeeper`
 * (Electron IPC), or the headless console's HTTP + SSE API with the per-run token from the URL. Every
 * screen calls the same `OperatorBridge`; only this file knows which one it is.
 */
import { OPERATOR_HTTP, type OperatorBridge } from '@shared/contract/bridge';
import type { OperatorArgs, OperatorMethod, OperatorResult } from '@shared/contract/operator-api';
import type { OperatorEvent } from '@shared/contract/events';
import type { KeepersView } from '@shared/contract/keepers';
import { shownConnection } from './model/keepers';

declare global {
  interface Window {
    wagerKeeper?: OperatorBridge;
  }
}

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';

export interface ConsoleTransport {
  bridge: OperatorBridge;
  kind: 'desktop' | 'browser';
  /** Connection of the live event stream (always connected over IPC). Calls the listener with the current state at once. */
  onConnection(listener: (state: ConnectionState) => void): () => void;
}

/**
 * Reads the token from `#token=...` (or `?token=...`), then takes it out of the address bar (it stays in
 * memory only) and leaves a route (`#/overview` unless the URL already named one).
 */
export function takeTokenFromLocation(): string | null {
  const { hash, search, pathname } = window.location;
  const hashText = hash.replace(/^#/, '');
  const route = hashText.startsWith('/') ? hashText.split(/[?&]token=/)[0]! : null;
  const fromHash = route === null ? new URLSearchParams(hashText).get('token') : new URLSearchParams(hashText.split('?')[1] ?? '').get('token');
  const query = new URLSearchParams(search);
  const token = fromHash ?? query.get('token');
  if (token) {
    query.delete('token');
    const rest = query.toString();
    // A support link `?wager=ADDRESS#token=T` opens the Inspector on that wager.
    const fallback = query.has('wager') ? '/inspector' : '/overview';
    window.history.replaceState(null, '', `${pathname}${rest ? `?${rest}` : ''}#${route ?? fallback}`);
  }
  return token;
}

const RECONNECT_MS = [1_000, 2_000, 5_000, 10_000];

function httpTransport(token: string): ConsoleTransport {
  const listeners = new Set<(event: OperatorEvent) => void>();
  const connection = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of connection) listener(next);
  };

  // EventSource reconnects by itself after a dropped stream; after an answer it cannot use (the server
  // restarting, a 401) it gives up (CLOSED), so then a new one is opened, with a growing delay.
  let failures = 0;
  const open = () => {
    const source = new EventSource(`${OPERATOR_HTTP.events}?token=${encodeURIComponent(token)}`);
    source.onopen = () => {
      failures = 0;
      setState('connected');
    };
    source.onerror = () => {
      setState('disconnected');
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(open, RECONNECT_MS[Math.min(failures++, RECONNECT_MS.length - 1)]);
      }
    };
    source.onmessage = (message: MessageEvent<string>) => {
      let event: OperatorEvent;
      try {
        event = JSON.parse(message.data) as OperatorEvent;
      } catch {
        return; // not an event of ours (the stream only carries JSON events)
      }
      for (const listener of listeners) listener(event);
    };
  };
  open();

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
        throw new Error('Cannot reach the keeper: is `wager-keeper serve` still running? Start it again and open the console URL it prints.');
      }
      const body = (await response.json().catch(() => null)) as unknown;
      if (!response.ok) {
        const error = (body as { error?: unknown } | null)?.error;
        throw new Error(typeof error === 'string' ? error : `The keeper answered HTTP ${response.status}: try again; if it lasts, restart wager-keeper serve.`);
      }
      return body as OperatorResult<M>;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    // A link cannot send the Authorization header, so the download carries the token as the event stream does.
    diagnosticsDownloadUrl: (fileName) =>
      `${OPERATOR_HTTP.diagnostics}${encodeURIComponent(fileName)}?token=${encodeURIComponent(token)}`,
  };
  return {
    bridge,
    kind: 'browser',
    onConnection(listener) {
      connection.add(listener);
      listener(state);
      return () => void connection.delete(listener);
    },
  };
}

/**
 * The desktop window's transport. IPC itself never drops; what can is the keeper the console shows: with a
 * Keepers list, the connection follows the shown keeper (This computer: connected; a server: its tunnel's
 * state), from the list's changes and, until the first change, from one read of the list.
 */
export function desktopTransport(bridge: OperatorBridge): ConsoleTransport {
  const keepers = bridge.keepers;
  const connection = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connected';
  let changed = false;
  const follow = (view: KeepersView) => {
    const next = shownConnection(view);
    if (next === state) return;
    state = next;
    for (const listener of connection) listener(next);
  };
  if (keepers) {
    keepers.onChange((view) => {
      changed = true;
      follow(view);
    });
    // A change that arrived meanwhile is newer than this answer.
    keepers.list().then(
      (view) => {
        if (!changed) follow(view);
      },
      () => undefined, // the Keepers screen reads the list again and shows the error
    );
  }
  return {
    bridge,
    kind: 'desktop',
    onConnection(listener) {
      connection.add(listener);
      listener(state);
      return () => void connection.delete(listener);
    },
  };
}

/** The transport of this window, or null in a browser opened without the token. */
export function pickTransport(): ConsoleTransport | null {
  if (window.wagerKeeper) return desktopTransport(window.wagerKeeper);
  const token = takeTokenFromLocation();
  return token ? httpTransport(token) : null;
}
