/**
 * Browser tests of the console in Debian's Chromium (never `npx playwright install`: it downloads a
 * browser, which this machine cannot). Each spec file starts its own `wager-keeper serve --port 0`
 * (e2e/console-fixture.ts); one worker, since each runs a whole localnet and keeper on a 2-core machine.
 * Generous timeouts instead of retries: a flaky test must fail, not pass on its second try.
 */
import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Chosen once: every worker re-reads this file, and the commands the specs start inherit it.
process.env.WAGER_KEEPER_E2E_CONFIG_HOME ??= mkdtempSync(join(tmpdir(), 'wager-keeper-e2e-config-'));

export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 45_000 },
  outputDir: 'test-results',
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
  },
});
