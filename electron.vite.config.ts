/**
 * electron-vite builds the desktop app into out/: main (src-main/electron/main.ts, the Electron entry that
 * runs the same core as `serve`, and src-main/cli.ts, the `wager-keeper` command), preload (src-preload,
 * the typed bridge) and renderer (src-renderer, the React console, also served by `serve` to a browser
 * from out/renderer).
 *
 * The preload is CommonJS on purpose: with "type": "module" electron-vite emits an .mjs preload, which a
 * window with `sandbox: true` cannot load; we keep the sandbox and build the preload as CJS instead.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Two entries share one build: main.js (package.json "main") and cli.js, which bin/wager-keeper.js
      // imports. Code both use, and each command the CLI imports when chosen, goes to out/main/chunks/.
      lib: {
        entry: {
          main: resolve(import.meta.dirname, 'src-main/electron/main.ts'),
          cli: resolve(import.meta.dirname, 'src-main/cli.ts'),
        },
      },
      rolldownOptions: { output: { chunkFileNames: 'chunks/[name]-[hash].js' } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      lib: { entry: resolve(import.meta.dirname, 'src-preload/index.ts') },
      rolldownOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src-renderer'),
    // Relative asset URLs: the same build loads from file:// in Electron and from /console/ over http.
    base: './',
    // The renderer imports src-shared (the contract, units, rules) through this alias and nothing else of ours
    // outside src-renderer (src-main/__tests__/renderer-imports.test.ts keeps it so).
    resolve: { alias: { '@shared': resolve(import.meta.dirname, 'src-shared') } },
    plugins: [react()],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      emptyOutDir: true,
      minify: true,
      // One bundle of about 700 kB (React, recharts) loads from disk or loopback: splitting buys nothing here.
      chunkSizeWarningLimit: 1_000,
      rolldownOptions: { input: resolve(import.meta.dirname, 'src-renderer/index.html') },
    },
  },
});
