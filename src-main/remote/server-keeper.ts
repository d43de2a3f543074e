/**
 * One server in the Keepers list: its tunnel, its OperatorApi and live events through it, and its entry
 * as the list shows it. `connected` means the whole way: tunnel up, token read and event stream open.
 */
import type { OperatorEvent } from '../../src-shared/contract/events';
import { serverLabel, type KeeperEntryView, type KeeperServerTarget } from '../../src-shared/contract/keepers';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { KnownHostsFiles } from './known-hosts-files';
import { followRemoteEvents } from './remote-events';
import { remoteOperatorApi, type RemoteEndpoint } from './remote-operator-api';
import { openServerTunnel, type ServerTunnel, type TunnelStatus } from './ssh-tunnel';

export interface ServerKeeper {
  readonly id: string;
  readonly target: KeeperServerTarget;
  readonly api: OperatorApi;
  view(): KeeperEntryView;
  onEvent(listener: (event: OperatorEvent) => void): () => void;
  acceptHostKey(fingerprint: string): Promise<void>;
  stop(): Promise<void>;
}

export interface ServerKeeperOptions {
  id: string;
  target: KeeperServerTarget;
  knownHosts: KnownHostsFiles;
  agent?: string;
  backoffMs?: readonly number[];
  keepaliveMs?: number;
  /** The entry changed (state, detail, host key). */
  onChange(): void;
}

/** Opens the server's tunnel and follows its events. */
export async function openServerKeeper(options: ServerKeeperOptions): Promise<ServerKeeper> {
  const label = serverLabel(options.target);
  const listeners = new Set<(event: OperatorEvent) => void>();
  let lastSeenMs: number | null = null;
  let streamOpen = false;
  let tunnel: ServerTunnel | null = null;
  let tunnelStatus: TunnelStatus = { state: 'connecting', detail: null, hostKey: null, retryAtMs: null };
  const seen = () => (lastSeenMs = Date.now());

  const endpoint: RemoteEndpoint = () => {
    const token = tunnel?.token();
    if (tunnel && token) return { port: tunnel.localPort, token };
    const why = tunnelStatus.detail ? `: ${tunnelStatus.detail}` : ' yet: try again in a moment';
    return { unavailable: `the keeper on ${label} is not connected (${tunnelStatus.state})${why}` };
  };
  let lastRefreshMs = 0;
  const events = followRemoteEvents({
    endpoint,
    onSeen: seen,
    onRefused() {
      // At most every 10 s: a keeper that keeps refusing must not turn into a reconnect loop.
      if (Date.now() - lastRefreshMs < 10_000) return;
      lastRefreshMs = Date.now();
      tunnel?.reconnect();
    },
    onEvent(event) {
      for (const listener of listeners) listener(event);
    },
    onOpen(open) {
      if (open === streamOpen) return;
      streamOpen = open;
      options.onChange();
    },
  });
  tunnel = await openServerTunnel({
    target: options.target,
    knownHosts: options.knownHosts,
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
    ...(options.backoffMs ? { backoffMs: options.backoffMs } : {}),
    ...(options.keepaliveMs !== undefined ? { keepaliveMs: options.keepaliveMs } : {}),
    onStatus(status) {
      tunnelStatus = status;
      if (status.state === 'connected') {
        seen();
        events.kick();
      }
      options.onChange();
    },
  });
  tunnelStatus = tunnel.status();

  return {
    id: options.id,
    target: options.target,
    api: remoteOperatorApi(endpoint, seen),
    view() {
      const { state, detail, hostKey, retryAtMs } = tunnelStatus;
      const waitingForStream = state === 'connected' && !streamOpen;
      return {
        id: options.id,
        kind: 'server',
        label,
        server: options.target,
        state: waitingForStream ? 'connecting' : state,
        detail,
        hostKey,
        lastSeenMs,
        retryAtMs,
      };
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    acceptHostKey: (fingerprint) => tunnel!.acceptHostKey(fingerprint),
    async stop() {
      events.stop();
      await tunnel?.stop();
    },
  };
}
