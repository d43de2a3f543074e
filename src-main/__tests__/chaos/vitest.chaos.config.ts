/**
 * The chaos runs (src-main/__tests__/chaos/*.chaos.ts), one file at a time in each vitest run (each
 * drives a whole localnet and keeper processes on a 2-core machine). Not part of the plain `vitest run`
 * (its include is `*.test.ts`); `npm test` runs them after Playwright through `npm run test:chaos`
 * (scripts/chaos-runs.mjs: the RPC failover run in a lane of its own beside the others).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: join(import.meta.dirname, '../../..'),
    include: ['src-main/__tests__/chaos/*.chaos.ts'],
    env: { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'wager-keeper-chaos-config-')), XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'wager-keeper-chaos-data-')) },
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
