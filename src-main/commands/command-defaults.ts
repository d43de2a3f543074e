/**
 * Where the commands listen and keep their files unless told otherwise: the keeper's /v1 port, the
 * gateway's port, the keeper's SQLite file and its data folder. Node built-ins only, so the usage text (cli.ts) can show
 * these defaults without loading any command.
 */
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The /v1 API's port of `keeper` and `serve` (--port), and the keeper `gateway` hands wagers to. */
export const DEFAULT_API_PORT = 7300;

/** The x402 gateway's port (`gateway --port`, `serve --gateway-port`). */
export const DEFAULT_GATEWAY_PORT = 7400;

/** ~/.local/share/wager-keeper/keeper.db (or $XDG_DATA_HOME/wager-keeper/keeper.db). */
export function defaultDatabasePath(): string {
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'wager-keeper', 'keeper.db');
}

/** The keeper's data folder: that of its SQLite file (--db FILE), else the default's (console-url.json lives there). */
export function dataFolder(dbPath: string | undefined): string {
  return dirname(dbPath === undefined ? defaultDatabasePath() : resolve(dbPath));
}
