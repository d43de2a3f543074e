/**
 * The embedded localnet runs on litesvm's native build, which npm installs from one optional package per
 * platform. npm keeps only the platform packages it installed when it rewrites a lockfile with
 * node_modules present (npm/cli#4828), so a lockfile written on Linux x64 can leave macOS and arm64 users
 * without a binding. This reads package-lock.json as `npm ci` does and checks that every platform litesvm
 * publishes is there, at litesvm's own version.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const lockfile = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; optional?: boolean; os?: string[]; cpu?: string[]; libc?: string[]; optionalDependencies?: Record<string, string> }>;
};
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

/** The platforms the desktop app promises an embedded localnet on (docs/console.md, "Desktop app"). */
const PLATFORM_PACKAGES = ['litesvm-darwin-arm64', 'litesvm-darwin-x64', 'litesvm-linux-x64-gnu', 'litesvm-linux-x64-musl', 'litesvm-linux-arm64-gnu', 'litesvm-linux-arm64-musl'];

describe('the lockfile and litesvm', () => {
  const litesvm = lockfile.packages['node_modules/litesvm'];

  it('pins litesvm exactly, to the version in the lockfile', () => {
    expect(litesvm?.version).toBeDefined();
    expect(manifest.dependencies.litesvm).toBe(litesvm!.version);
  });

  it('lists the native build of every platform litesvm publishes, at litesvm’s version', () => {
    expect(Object.keys(litesvm!.optionalDependencies ?? {}).sort()).toEqual([...PLATFORM_PACKAGES].sort());
    for (const name of PLATFORM_PACKAGES) {
      const entry = lockfile.packages[`node_modules/${name}`];
      expect(entry, `${name} is missing from package-lock.json: on its platform the embedded localnet cannot load`).toBeDefined();
      expect(entry!.version).toBe(litesvm!.version);
      expect(entry!.optional).toBe(true);
      expect(entry!.os?.length).toBe(1);
      expect(entry!.cpu?.length).toBe(1);
    }
  });
});
