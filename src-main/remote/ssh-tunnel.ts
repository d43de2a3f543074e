/**
 * A tunnel to one server's keeper: an SSH connection (ssh2, no shelling out) whose host key known_hosts
 * vouches for, the keeper's console URL read with `wager-keeper console-url`, and a local listener that
 * forwards to the server's loopback operator port. It keeps itself up: keep-alives find a dead link, and
 * after a drop it reconnects with backoff, reading the token again (the keeper may have restarted).
 *
 * Host keys decide before anything is sent: an unknown key stops the tunnel until the operator accepts
 * that very fingerprint; a changed (or revoked) key is refused and never retried.
 */
// ssh2 is CommonJS: Node's ESM loader gives it as one default export (named imports fail in the built main).
import ssh2, { type ServerHostKeyAlgorithm } from 'ssh2';
import { serverLabel, type HostKeyView, type KeeperConnectionState, type KeeperServerTarget } from '../../src-shared/contract/keepers';
import { fingerprintOf, keyTypeOf } from './known-hosts';
import type { KnownHostsFiles } from './known-hosts-files';
import { listenLocalForward, type LocalForward } from './local-forward';
import { authConfig, authRefused, defaultAgent } from './ssh-auth';
import { KeeperSetupError, readRemoteConsole } from './remote-console-url';
import { hostKeyChangedSentence } from './host-key-sentences';

/** Between attempts after a drop, growing and capped; after `failed` (nothing a quick retry mends) always the cap. */
export const RECONNECT_BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;

export interface TunnelStatus {
  /** `connected` here: SSH up, token read, forwarding (the event stream is the caller's). */
  state: KeeperConnectionState;
  detail: string | null;
  hostKey: HostKeyView | null;
  retryAtMs: number | null;
}

export interface TunnelOptions {
  target: KeeperServerTarget;
  knownHosts: KnownHostsFiles;
  /** The SSH agent (default: SSH_AUTH_SOCK, Pageant on Windows). */
  agent?: string;
  backoffMs?: readonly number[];
  keepaliveMs?: number;
  onStatus(status: TunnelStatus): void;
}

export interface ServerTunnel {
  /** 127.0.0.1 port of the local end (stable while the tunnel lives). */
  readonly localPort: number;
  /** The keeper's token while connected, else null. */
  token(): string | null;
  status(): TunnelStatus;
  /** Accepts the key shown as `host-key-unknown` (the fingerprint must be the one shown) and connects. */
  acceptHostKey(fingerprint: string): Promise<void>;
  /** The keeper refused the token (it restarted) or is gone: drop the connection, reconnect and read it again. */
  reconnect(): void;
  stop(): Promise<void>;
}

/** ssh2's default host key algorithms, in its order (lib/protocol/constants.js). */
const DEFAULT_HOST_KEY_ALGORITHMS: ServerHostKeyAlgorithm[] = ['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'];

/** The known ones first (those ssh2 speaks; a known_hosts line of another kind is left out), then the rest. */
export function hostKeyAlgorithms(known: readonly string[]): ServerHostKeyAlgorithm[] {
  const first = DEFAULT_HOST_KEY_ALGORITHMS.filter((algorithm) => known.includes(algorithm)).sort((a, b) => known.indexOf(a) - known.indexOf(b));
  return [...first, ...DEFAULT_HOST_KEY_ALGORITHMS.filter((algorithm) => !first.includes(algorithm))];
}

/** Opens the local end and starts connecting. */
export async function openServerTunnel(options: TunnelOptions): Promise<ServerTunnel> {
  const { target, knownHosts } = options;
  const where = serverLabel(target);
  const backoff = options.backoffMs ?? RECONNECT_BACKOFF_MS;
  const forward: LocalForward = await listenLocalForward();
  let status: TunnelStatus = { state: 'connecting', detail: null, hostKey: null, retryAtMs: null };
  let client: InstanceType<typeof ssh2.Client> | null = null;
  let token: string | null = null;
  let failures = 0;
  let wasConnected = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pendingKey: Buffer | null = null;
  let stopped = false;

  const set = (next: TunnelStatus) => {
    status = next;
    if (!stopped) options.onStatus(next);
  };
  const retryLater = (state: KeeperConnectionState, detail: string, slow = false) => {
    const delay = slow ? backoff[backoff.length - 1]! : backoff[Math.min(failures, backoff.length - 1)]!;
    failures += 1;
    set({ state, detail, hostKey: null, retryAtMs: Date.now() + delay });
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, delay);
  };

  function connect() {
    if (stopped) return;
    set({ state: 'connecting', detail: null, hostKey: null, retryAtMs: null });
    const ssh = new ssh2.Client();
    client = ssh;
    // Set once the attempt ends (a host key verdict, a setup failure): a later error or close says nothing new.
    let settled = false;
    const end = (then: () => void) => {
      if (settled || client !== ssh) return;
      settled = true;
      token = null;
      forward.route(null);
      ssh.end();
      then();
    };
    ssh.on('ready', () => {
      readRemoteConsole(ssh, where).then(
        (remote) => {
          if (settled || client !== ssh) return;
          token = remote.token;
          forward.route({ client: ssh, remotePort: remote.port });
          failures = 0;
          wasConnected = true;
          set({ state: 'connected', detail: null, hostKey: null, retryAtMs: null });
        },
        (error: Error) => end(() => (error instanceof KeeperSetupError ? retryLater('failed', error.message, true) : retryLater('disconnected', error.message))),
      );
    });
    ssh.on('error', (error: Error & { level?: string }) => {
      if (error.level === 'client-authentication') end(() => retryLater('failed', authRefused(target, where), true));
      else {
        const what = wasConnected ? `the connection to ${where} dropped` : `cannot reach ${where}`;
        end(() => retryLater('disconnected', `${what} (${error.message}): retrying by itself`));
      }
    });
    ssh.on('close', () => end(() => retryLater('disconnected', `the connection to ${where} closed: retrying by itself`)));
    Promise.all([authConfig(target, options.agent ?? defaultAgent()), knownHosts.knownAlgorithms(target.host, target.port).catch(() => [])]).then(
      ([auth, knownAlgorithms]) => {
        if (stopped || client !== ssh) return;
        ssh.connect({
          algorithms: { serverHostKey: hostKeyAlgorithms(knownAlgorithms) },
          host: target.host,
          port: target.port,
          username: target.user,
          ...auth,
          keepaliveInterval: options.keepaliveMs ?? 10_000,
          keepaliveCountMax: 3,
          readyTimeout: 20_000,
          hostVerifier: (key: Buffer, verified: (ok: boolean) => void) => {
            knownHosts.verify(target.host, target.port, key).then(
              (verdict) => {
                if (verdict.kind === 'known') return verified(true);
                const shown: HostKeyView = { algorithm: keyTypeOf(key), fingerprint: fingerprintOf(key), knownFingerprint: null };
                end(() => {
                  if (verdict.kind === 'unknown') {
                    // Nothing more is sent: the operator compares the fingerprint and accepts it (or not).
                    pendingKey = key;
                    set({ state: 'host-key-unknown', detail: `${where} presents a host key no known_hosts file has: compare its fingerprint with the server's (ssh-keygen -lf /etc/ssh/ssh_host_${shown.algorithm.replace(/^ssh-|-.*$/g, '')}_key.pub on it), then accept it`, hostKey: shown, retryAtMs: null });
                  } else {
                    const known = verdict.kind === 'changed' ? verdict.knownFingerprint : null;
                    set({ state: 'host-key-changed', detail: hostKeyChangedSentence(where, target, verdict, knownHosts.paths.app), hostKey: { ...shown, knownFingerprint: known }, retryAtMs: null });
                  }
                });
                verified(false);
              },
              (error: Error) => {
                end(() => retryLater('failed', `the known_hosts files could not be read (${error.message})`, true));
                verified(false);
              },
            );
          },
        });
      },
      (error: Error) => end(() => retryLater('failed', error.message, true)),
    );
  }

  connect();
  return {
    localPort: forward.port,
    token: () => token,
    status: () => status,
    async acceptHostKey(fingerprint) {
      if (status.state !== 'host-key-unknown' || !pendingKey) throw new Error(`${where} is not waiting for a host key to be accepted (it is ${status.state})`);
      if (fingerprint !== fingerprintOf(pendingKey))
        throw new Error(`the fingerprint ${fingerprint} is not the one ${where} presented (${fingerprintOf(pendingKey)}): nothing was accepted`);
      await knownHosts.accept(target.host, target.port, pendingKey);
      pendingKey = null;
      failures = 0;
      connect();
    },
    reconnect() {
      // Its 'close' then retries with the backoff, and the next connect reads the console URL again.
      if (status.state === 'connected') client?.end();
    },
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      token = null;
      client?.end();
      client = null;
      await forward.close();
    },
  };
}
