import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// The console saves its settings under $XDG_CONFIG_HOME/wager-keeper: tests (and the commands they start)
// get a fresh directory, never the developer's own settings.
const configHome = mkdtempSync(join(tmpdir(), 'wager-keeper-test-config-'));

export default defineConfig({
  test: {
    include: ['**/__tests__/**/*.test.ts'],
    env: { XDG_CONFIG_HOME: configHome },
    exclude: ['node_modules/**', 'out/**'],
    // Program tests compile C and boot the Agave runtime: give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
