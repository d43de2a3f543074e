// Whether the desktop app can start here, and if not, why (plain .mjs: runs before anything is built).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The reason Electron cannot start on this machine, or null when it can.
 * @param {{ env: Record<string, string | undefined>, platform: string, electronDirectory: string, exists?: (path: string) => boolean, read?: (path: string) => string }} options
 */
export function desktopUnavailableReason({ env, platform, electronDirectory, exists = existsSync, read = (path) => readFileSync(path, 'utf8') }) {
  const pathFile = join(electronDirectory, 'path.txt');
  if (!exists(pathFile)) return `the Electron binary is not installed (${join(electronDirectory, 'dist')} is missing: npm could not download it)`;
  const binary = join(electronDirectory, 'dist', read(pathFile).trim());
  if (!exists(binary)) return `the Electron binary is not installed (${binary} is missing: npm could not download it)`;
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)';
  return null;
}
