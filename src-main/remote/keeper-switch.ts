/**
 * The keeper switch of the desktop app: "This computer" (the core inside the app) and the servers of the
 * Keepers list, each server with its own tunnel (so the fleet view and "last seen" cover them all), and
 * which one the console shows. Its `api` sends every call to the shown keeper and `onEvent` passes only
 * the shown keeper's events; on `show`, the shown keeper's current status goes out first, so the page
 * (whose `startedAt` then changes) reads everything again.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { OperatorEvent } from '../../src-shared/contract/events';
import { LOCAL_KEEPER_ID, LOCAL_KEEPER_LABEL, parseServerTarget, serverLabel, type KeeperEntryView, type KeeperFleetRow, type KeepersView } from '../../src-shared/contract/keepers';
import { OPERATOR_METHODS, type OperatorApi } from '../../src-shared/contract/operator-api';
import { fleetRow } from './keeper-fleet';
import { knownHostsFiles, type KnownHostsFiles } from './known-hosts-files';
import { openServerKeeper, type ServerKeeper } from './server-keeper';
import { readServerList, SERVER_LIST_FILE, writeServerList } from './server-list-file';

/** The core inside the app, as the switch needs it (the desktop's DesktopService fits). */
export interface LocalKeeper {
  api: OperatorApi;
  onEvent(listener: (event: OperatorEvent) => void): () => void;
}

export interface KeeperSwitchOptions {
  local: LocalKeeper;
  /** userData: the server list and the app's own known_hosts live there. */
  folder: string;
  /** Default: ~/.ssh/known_hosts and <folder>/known_hosts. */
  knownHosts?: KnownHostsFiles;
  agent?: string;
  backoffMs?: readonly number[];
  keepaliveMs?: number;
}

export interface KeeperSwitch {
  api: OperatorApi;
  onEvent(listener: (event: OperatorEvent) => void): () => void;
  view(): KeepersView;
  onChange(listener: (view: KeepersView) => void): () => void;
  /** The shown server, or null while This computer is shown. */
  shownServer(): { label: string } | null;
  add(args: { target: string; keyFile?: string | null }): Promise<KeepersView>;
  acceptHostKey(args: { id: string; fingerprint: string }): Promise<KeepersView>;
  remove(args: { id: string }): Promise<KeepersView>;
  show(args: { id: string }): Promise<KeepersView>;
  fleet(): Promise<KeeperFleetRow[]>;
  /** Closes every tunnel (on quit). */
  stop(): Promise<void>;
}

const localEntry = (lastSeenMs: number | null): KeeperEntryView => ({
  id: LOCAL_KEEPER_ID, kind: 'local', label: LOCAL_KEEPER_LABEL, server: null, state: 'connected', detail: null, hostKey: null, lastSeenMs, retryAtMs: null,
});

/** Opens a tunnel for every saved server and answers the switch. */
export async function createKeeperSwitch(options: KeeperSwitchOptions): Promise<KeeperSwitch> {
  const listPath = join(options.folder, SERVER_LIST_FILE);
  const knownHosts = options.knownHosts ?? knownHostsFiles(join(options.folder, 'known_hosts'));
  const servers = new Map<string, ServerKeeper>();
  const eventListeners = new Set<(event: OperatorEvent) => void>();
  const changeListeners = new Set<(view: KeepersView) => void>();
  let shown = LOCAL_KEEPER_ID;
  let localSeenMs: number | null = null;

  const view = (): KeepersView => ({ shown, keepers: [localEntry(localSeenMs), ...[...servers.values()].map((server) => server.view())] });
  const changed = () => {
    const now = view();
    for (const listener of changeListeners) listener(now);
  };
  const emitFrom = (id: string) => (event: OperatorEvent) => {
    if (id === LOCAL_KEEPER_ID) localSeenMs = Date.now();
    if (id !== shown) return;
    for (const listener of eventListeners) listener(event);
  };
  const keeperApi = (id: string): OperatorApi => (id === LOCAL_KEEPER_ID ? options.local.api : servers.get(id)?.api ?? options.local.api);
  const serverOf = (id: string) => {
    const server = servers.get(id);
    if (!server) throw new Error(`no server "${id}" is in the Keepers list: reopen the list`);
    return server;
  };
  const save = () => writeServerList(listPath, [...servers.values()].map((server) => ({ id: server.id, ...server.target })));
  const open = async (id: string, target: ServerKeeper['target']) => {
    const server = await openServerKeeper({ id, target, knownHosts, onChange: changed, ...pick(options) });
    server.onEvent(emitFrom(id));
    servers.set(id, server);
  };

  options.local.onEvent(emitFrom(LOCAL_KEEPER_ID));
  for (const saved of readServerList(listPath)) {
    const { id, ...target } = saved;
    await open(id, target);
  }

  const api = Object.fromEntries(
    OPERATOR_METHODS.map((method) => [method, (args?: unknown) => (keeperApi(shown)[method] as (args?: unknown) => Promise<unknown>)(args)]),
  ) as unknown as OperatorApi;

  async function show({ id }: { id: string }): Promise<KeepersView> {
    if (id !== LOCAL_KEEPER_ID) serverOf(id);
    shown = id;
    changed();
    // The page reads everything again when the status it gets has another startedAt; a server not yet
    // connected sends its status first when its event stream opens.
    const status = await keeperApi(id).status().catch(() => null);
    if (status && shown === id) for (const listener of eventListeners) listener({ type: 'status', status });
    return view();
  }

  return {
    api,
    onEvent(listener) {
      eventListeners.add(listener);
      return () => void eventListeners.delete(listener);
    },
    view,
    onChange(listener) {
      changeListeners.add(listener);
      return () => void changeListeners.delete(listener);
    },
    shownServer: () => (shown === LOCAL_KEEPER_ID ? null : { label: serverLabel(serverOf(shown).target) }),
    async add({ target: text, keyFile }) {
      const parsed = parseServerTarget(text);
      const label = serverLabel(parsed);
      if ([...servers.values()].some((server) => serverLabel(server.target) === label)) throw new Error(`${label} is already in the Keepers list`);
      const file = keyFilePath(keyFile);
      await open(`server-${randomBytes(6).toString('hex')}`, { ...parsed, keyFile: file });
      await save();
      changed();
      return view();
    },
    async acceptHostKey({ id, fingerprint }) {
      await serverOf(id).acceptHostKey(String(fingerprint));
      changed();
      return view();
    },
    async remove({ id }) {
      if (id === LOCAL_KEEPER_ID) throw new Error('This computer cannot be removed from the Keepers list');
      const server = serverOf(id);
      servers.delete(id);
      await server.stop();
      await save();
      // A key the app accepted for it goes too: added again, its key is shown for acceptance again.
      await knownHosts.forget(server.target.host, server.target.port);
      if (shown === id) await show({ id: LOCAL_KEEPER_ID });
      else changed();
      return view();
    },
    show,
    fleet: () => Promise.all(view().keepers.map((entry) => fleetRow(entry, keeperApi(entry.id)))),
    async stop() {
      await Promise.all([...servers.values()].map((server) => server.stop()));
    },
  };
}

/** A key file as typed: `~/` is the home folder; anything else must be a full path (the app has no working folder to speak of). */
export function keyFilePath(typed: string | null | undefined): string | null {
  const text = typeof typed === 'string' ? typed.trim() : '';
  if (text === '') return null;
  const path = text.startsWith('~/') ? join(homedir(), text.slice(2)) : text;
  if (!isAbsolute(path)) throw new Error(`the key file "${text}" is not a full path: give it from / (or ~/), for example ~/.ssh/id_ed25519`);
  return path;
}

const pick = ({ agent, backoffMs, keepaliveMs }: KeeperSwitchOptions) => ({
  ...(agent !== undefined ? { agent } : {}),
  ...(backoffMs ? { backoffMs } : {}),
  ...(keepaliveMs !== undefined ? { keepaliveMs } : {}),
});
