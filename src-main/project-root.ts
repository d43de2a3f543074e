/**
 * The project's root folder (the one holding package.json, resources/, deployments/ and out/), found by
 * walking up from this module to the first folder with a package.json. A fixed number of '..' is wrong
 * because the same code runs from three depths: src-main/<folder>/<file>.ts (tsx, vitest), a bundle file
 * out/main/<name>.js or out/main/chunks/<name>.js (the built CLI and the desktop app), and
 * <app>/resources/app.asar/out/main/... in an installed app (Electron's fs reads inside the asar).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The first folder at or above `start` that holds a package.json. */
export function findProjectRoot(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder)
      throw new Error(
        `wager-keeper found no package.json above ${start}: reinstall it (\`npm install\` in its checkout) rather than copying its files elsewhere`,
      );
  }
}

/** This installation's root folder. */
export const PROJECT_ROOT = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the project root, e.g. `projectPath('resources', 'programs')`. */
export const projectPath = (...segments: string[]): string => join(PROJECT_ROOT, ...segments);
