/**
 * The console contract, keepers (desktop only): the Keepers list — "This computer" (the keeper inside the
 * app) and keepers on servers the app reaches through an SSH tunnel to their loopback operator port — which
 * one the console shows, and the fleet at a glance. A headless keeper has no list: its browser console is
 * its own keeper only.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */

/** The keeper inside the desktop app. */
export const LOCAL_KEEPER_ID = 'local';

export const LOCAL_KEEPER_LABEL = 'This computer';

/** The SSH port when a target names none. */
export const DEFAULT_SSH_PORT = 22;

/**
 * Where a keeper in the list stands:
 * - `connected`: its console answers (for a server: tunnel up, token read, event stream open);
 * - `connecting`: the first attempt, or an attempt after a drop, is under way;
 * - `disconnected`: it was reachable and no longer is; the app retries by itself (`retryAtMs`);
 * - `host-key-unknown`: the server's host key is in no known_hosts file: shown by fingerprint, it waits for
 *   the operator to accept it once (Keepers → Accept), nothing is sent before;
 * - `host-key-changed`: the server presents another key than the one known for it: refused, never retried
 *   (`detail` says why that matters and what to do);
 * - `failed`: something retrying alone will not mend (authentication refused, no `wager-keeper` on the
 *   server, no keeper running there): `detail` says what to do; the app still retries, more slowly.
 */
export type KeeperConnectionState = 'connected' | 'connecting' | 'disconnected' | 'host-key-unknown' | 'host-key-changed' | 'failed';

/** A server in the list, as added (`user@host[:port]`, a key file or the SSH agent). No secret is ever kept. */
export interface KeeperServerTarget {
  user: string;
  host: string;
  port: number;
  /** A private key file on this computer, or null: the SSH agent (SSH_AUTH_SOCK; Pageant on Windows). */
  keyFile: string | null;
}

/** A host key as `ssh` shows it: `SHA256:` and the unpadded base64 of the key's SHA-256. */
export interface HostKeyView {
  /** e.g. `ssh-ed25519`. */
  algorithm: string;
  fingerprint: string;
  /** With `host-key-changed`: the fingerprint known_hosts has for this server. */
  knownFingerprint: string | null;
}

export interface KeeperEntryView {
  /** `local`, or the server's own id (stable while it is in the list). */
  id: string;
  kind: 'local' | 'server';
  /** "This computer", or `user@host:port`. */
  label: string;
  server: KeeperServerTarget | null;
  state: KeeperConnectionState;
  /** What happened and what to do, in a sentence; null when connected. */
  detail: string | null;
  /** The server's host key while it waits for acceptance or after it changed; else null. */
  hostKey: HostKeyView | null;
  /** Unix ms of the last answer from this keeper (null: never answered). */
  lastSeenMs: number | null;
  /** Unix ms of the next attempt while `disconnected` or `failed`; else null. */
  retryAtMs: number | null;
}

export interface KeepersView {
  /** The id of the keeper the console shows (every screen, event and call is about it). */
  shown: string;
  /** "This computer" first, then the servers in the order they were added. */
  keepers: KeeperEntryView[];
}

/**
 * One keeper in the fleet view. Every figure is null when the keeper could not be asked (`reachable`
 * false): the view shows "unreachable", never a zero.
 */
export interface KeeperFleetRow {
  id: string;
  label: string;
  state: KeeperConnectionState;
  reachable: boolean;
  /** The core's phase (`running`, `starting`, …) or null. */
  phase: string | null;
  paused: boolean | null;
  /** The keeper's address (base58) or null. */
  keeper: string | null;
  cluster: string | null;
  /** Decimal lamports of the keeper's balance. */
  lamports: string | null;
  /** Cranks the balance still pays for, and whether that is low (the Overview's runway). */
  runwayCranks: number | null;
  runwayLow: boolean | null;
  /** Wagers in progress (queued, requested, fulfilled). */
  queue: number | null;
  /** Cranks since the start of today (UTC), every outcome. */
  cranksToday: number | null;
  /** Net lamports earned today (decimal, may be negative). */
  netTodayLamports: string | null;
  /** Alerts firing now. */
  activeAlerts: number | null;
  lastSeenMs: number | null;
  /** Why it could not be asked, or null. */
  error: string | null;
}

/** The desktop app's Keepers list, over the preload (absent in a browser). Every method throws an Error that says what to do. */
export interface KeepersBridge {
  list(): Promise<KeepersView>;
  /** Adds `user@host[:port]` (key from the agent, or `keyFile`) and starts connecting; refuses a malformed target or one already listed. */
  add(args: { target: string; keyFile?: string | null }): Promise<KeepersView>;
  /** Accepts the host key shown for this server (the fingerprint must be the one shown) and connects. */
  acceptHostKey(args: { id: string; fingerprint: string }): Promise<KeepersView>;
  /** Removes a server (closing its tunnel); "This computer" cannot be removed. A shown server gives way to This computer. */
  remove(args: { id: string }): Promise<KeepersView>;
  /** The console shows this keeper from now on (its status, then its events). */
  show(args: { id: string }): Promise<KeepersView>;
  /** Every keeper in the list at a glance, asked now (a keeper not answering within a few seconds is unreachable). */
  fleet(): Promise<KeeperFleetRow[]>;
  /** The list whenever it changes (a state, the shown keeper, an add or remove); returns the unsubscribe function. */
  onChange(listener: (view: KeepersView) => void): () => void;
}

/** `user@host[:port]` (IPv6 as `[addr]:port`): the target, or an Error that says what is wrong. */
export function parseServerTarget(text: string): { user: string; host: string; port: number } {
  const trimmed = text.trim();
  const match = /^([A-Za-z0-9._][A-Za-z0-9._-]*)@(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(trimmed);
  if (!match) throw new Error(`"${trimmed}" is not user@host or user@host:port (for example deploy@203.0.113.7:22)`);
  const port = match[3] === undefined ? DEFAULT_SSH_PORT : Number(match[3]);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`port ${match[3]} is not a TCP port (1 to 65535)`);
  return { user: match[1]!, host: match[2]!.replace(/^\[|\]$/g, ''), port };
}

/** `user@host:port` as the list shows it (IPv6 in brackets). */
export function serverLabel(target: { user: string; host: string; port: number }): string {
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return `${target.user}@${host}:${target.port}`;
}
