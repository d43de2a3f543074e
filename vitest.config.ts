import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// The console saves its settings under $XDG_CONFIG_HOME/wager-keeper, and the keeper its records and alert
// history (alerts.db: history and mutes) under $XDG_DATA_HOME/wager-keeper: tests (and the commands they
// start) get fresh directories, never the developer's own, and no run sees another run's mutes.
const configHome = mkdtempSync(join(tmpdir(), 'wager-keeper-test-config-'));
const dataHome = mkdtempSync(join(tmpdir(), 'wager-keeper-test-data-'));

export default defineConfig({
  // The renderer's models import src-shared as @shared (electron.vite.config.ts); their tests run here.
  resolve: { alias: { '@shared': join(import.meta.dirname, 'src-shared') } },
  test: {
    include: ['**/__tests__/**/*.test.ts'],
    env: { XDG_CONFIG_HOME: configHome, XDG_DATA_HOME: dataHome },
    exclude: ['node_modules/**', 'out/**'],
    // Program tests compile C and boot the Agave runtime: give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
