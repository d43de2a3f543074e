import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The renderer's models import src-shared as @shared (electron.vite.config.ts); their tests run here.
  resolve: { alias: { '@shared': join(import.meta.dirname, 'src-shared') } },
  test: {
    include: ['**/__tests__/**/*.test.ts'],
    // Fresh settings and data folders per test file, never the developer's own (vitest.setup.ts).
    setupFiles: ['./vitest.setup.ts'],
    // As many files at a time as cores, and two on a 2-core machine (Vitest's default is one fewer than the
    // cores: one file at a time there): most files wait on slots, processes and sockets, not compute.
    maxWorkers: Math.max(2, availableParallelism()),
    exclude: ['node_modules/**', 'out/**'],
    // Program tests compile C and boot the Agave runtime: give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
