/**
 * The servers in the Keepers list, kept in `<userData>/keeper-servers.json` between runs: id, user, host,
 * port and the key file's path, nothing secret (no password, passphrase or key). Written atomically (a
 * temporary file, then a rename), 0600. A plain JSON file rather than electron-store: this room has no
 * Electron, and the list needs no schema migrations yet (`version` is there for the day it does).
 */
import { existsSync, readFileSync } from 'node:fs';
import { DEFAULT_SSH_PORT, type KeeperServerTarget } from '../../src-shared/contract/keepers';
import { writeFileAtomically } from './known-hosts-files';

export const SERVER_LIST_FILE = 'keeper-servers.json';

export interface SavedServer extends KeeperServerTarget {
  id: string;
}

const isSaved = (value: unknown): value is SavedServer => {
  const s = value as Partial<SavedServer> | null;
  return (
    typeof s?.id === 'string' &&
    typeof s.user === 'string' &&
    typeof s.host === 'string' &&
    Number.isInteger(s.port) &&
    (s.keyFile === null || typeof s.keyFile === 'string')
  );
};

/** The saved servers; a missing file is an empty list, a damaged entry is skipped. */
export function readServerList(path: string): SavedServer[] {
  if (!existsSync(path)) return [];
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { servers?: unknown };
    const servers = Array.isArray(parsed.servers) ? parsed.servers : [];
    return servers.filter(isSaved).map(({ id, user, host, port, keyFile }) => ({ id, user, host, port: port ?? DEFAULT_SSH_PORT, keyFile }));
  } catch {
    return [];
  }
}

/** Saves the list (only the fields above, whatever else an object carries). */
export async function writeServerList(path: string, servers: readonly SavedServer[]): Promise<void> {
  const kept = servers.map(({ id, user, host, port, keyFile }) => ({ id, user, host, port, keyFile }));
  await writeFileAtomically(path, `${JSON.stringify({ version: 1, servers: kept }, null, 2)}\n`);
}
