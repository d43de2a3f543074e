/**
 * Browser tests of the console in Debian's Chromium (never `npx playwright install`: it downloads a
 * browser, which this machine cannot). One worker, since each spec file runs a whole localnet and keeper
 * on a 2-core machine. Generous timeouts instead of retries: a flaky test must fail, not pass on its
 * second try. Two projects:
 * - browser: the console over HTTP from `wager-keeper serve --port 0` (e2e/console-fixture.ts);
 * - desktop: the console as the desktop window shows it (e2e/desktop/): the built main under Node with the
 *   electron stand-in, the built page from file:// with the built preload in a sandbox. Electron's
 *   file:// pages may load their module scripts, which Chromium refuses by default: that project alone
 *   gets --allow-file-access-from-files.
 */
import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Chosen once: every worker re-reads this file, and the commands the specs start inherit it.
process.env.WAGER_KEEPER_E2E_CONFIG_HOME ??= mkdtempSync(join(tmpdir(), 'wager-keeper-e2e-config-'));

const chromiumArgs = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
    // The console shows local times by default: specs that read times see UTC wherever they run (a spec that
    // checks the local/UTC choice sets its own zone, e2e/search-export.spec.ts).
    timezoneId: 'UTC',
    launchOptions: { executablePath, args: chromiumArgs },
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
  },
  projects: [
    { name: 'browser', testIgnore: 'desktop/**' },
    {
      name: 'desktop',
      testDir: 'e2e/desktop',
      use: { launchOptions: { executablePath, args: [...chromiumArgs, '--allow-file-access-from-files'] } },
    },
  ],
});
