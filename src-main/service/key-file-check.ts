/**
 * The checks `service install` makes before it writes anything: a server has no Secret Service, so the
 * keeper's key must come from a file only its owner can read; and the programs the unit would start must
 * exist. Each refusal is one sentence saying what to do.
 */
import { accessSync, constants, statSync } from 'node:fs';

/** Why the service refuses this key file, or null when it is a regular file closed to group and others. */
export function keyFileProblem(flag: string, path: string): string | null {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return `${flag} ${path}: there is no such file (give the keeper's Solana CLI keypair file; \`wager-keeper key export --out FILE\` writes the keychain's key to one)`;
  }
  if (!stat.isFile()) return `${flag} ${path} is not a file`;
  const mode = stat.mode & 0o777;
  if ((mode & 0o077) !== 0)
    return `${flag} ${path} is readable or writable by group or others (mode ${mode.toString(8).padStart(4, '0')}): a key file must be its owner's alone; run \`chmod 600 ${path}\` and install again`;
  return null;
}

/** Why the service cannot start `path` (the node binary or bin/wager-keeper.js), or null. */
export function programProblem(what: string, path: string, executable: boolean): string | null {
  try {
    if (!statSync(path).isFile()) return `${what} ${path} is not a file`;
    accessSync(path, executable ? constants.X_OK : constants.R_OK);
    return null;
  } catch {
    return `${what} ${path} is missing or not ${executable ? 'executable' : 'readable'}: the service would start it (reinstall wager-keeper, or run \`npm run build\` in its folder)`;
  }
}
