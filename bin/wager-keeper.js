#!/usr/bin/env node
// Entry of the `wager-keeper` command. Plain JS so any Node can start it: on a Node older than 22 (the
// system Node 20 of some machines) it re-runs itself on the project's pinned Node 24 from node_modules.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const major = Number(process.versions.node.split('.')[0]);

if (major < 22) {
  const pinned = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(pinned)) {
    console.error(`wager-keeper needs Node >= 22.12 (found ${process.version}); run \`npm install\` in ${root} first`);
    process.exit(1);
  }
  const result = spawnSync(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

// The CLI is TypeScript; tsx compiles it on load (the desktop build bundles it with electron-vite instead).
const { register } = await import('tsx/esm/api');
register();
const { main } = await import(join(root, 'src-main', 'cli.ts'));
process.exitCode = await main(process.argv.slice(2));
