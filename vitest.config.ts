import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/__tests__/**/*.test.ts'],
    exclude: ['node_modules/**', 'out/**'],
    // Program tests compile C and boot the Agave runtime: give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
