/**
 * How soon the console is usable: from `wager-keeper serve`'s ready line to the keeper's address on screen
 * in Debian's Chromium (target: within 1 s; issue 18). Each run is a fresh `serve` (real CLI, embedded
 * localnet) and a fresh page; the browser is launched once before (its own start-up is printed apart).
 * Prints JSON; asserts nothing. `npm run bench:console-ready [-- runs]` (default 5). Needs `npm run build`.
 */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { withConsoleToken } from '../src-main/service/__tests__/ready-console-url';

const runs = Number(process.argv[2] ?? 5);
const bin = fileURLToPath(new URL('../bin/wager-keeper.js', import.meta.url));
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

const launchStarted = performance.now();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const browserLaunchMs = performance.now() - launchStarted;
// A person opens the console URL as a new tab of a browser already running; the browser's own profile
// (a context here) is part of its start-up, printed with it, not of the console's.
const contextStarted = performance.now();
const context = await browser.newContext();
const contextMs = performance.now() - contextStarted;

const results: { readyLineMs: number; addressOnScreenMs: number; newTabMs: number; statusLineMs: number }[] = [];
try {
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--rpc-port', '0', '--gateway-port', '0'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'wk-bench-config-')), XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'wk-bench-data-')) },
    });
    try {
      const ready = await new Promise<{ console: string; keeper: string }>((resolve, reject) => {
        const lines = createInterface({ input: child.stdout });
        lines.once('line', (text) => resolve(withConsoleToken(JSON.parse(text) as { console: string; keeper: string })));
        child.once('exit', () => reject(new Error('serve exited before its ready line')));
      });
      const readyAt = performance.now();
      const page = await context.newPage();
      const newTabMs = performance.now() - readyAt;
      await page.goto(ready.console, { waitUntil: 'commit' });
      // The shell (navigation and status line) and the keeper's address, each timed when seen: watched at
      // once, so that looking for one does not delay seeing the other.
      const seenAfterReady = (locator: ReturnType<typeof page.getByText>) =>
        locator.waitFor({ state: 'visible', timeout: 30_000 }).then(() => performance.now() - readyAt);
      const [statusLineMs, addressOnScreenMs] = await Promise.all([
        seenAfterReady(page.getByRole('navigation', { name: 'Main' })),
        seenAfterReady(page.getByText(ready.keeper).first()),
      ]);
      results.push({ readyLineMs: readyAt - started, addressOnScreenMs, newTabMs, statusLineMs });
      await page.close();
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
} finally {
  await browser.close();
}

const onScreen = results.map((r) => r.addressOnScreenMs);
console.log(
  JSON.stringify(
    {
      bench: 'console-ready',
      runs,
      browserLaunchMs: Math.round(browserLaunchMs),
      browserContextMs: Math.round(contextMs),
      newTabMs: { median: Math.round(quantile(results.map((r) => r.newTabMs), 0.5)) },
      shellOnScreenAfterReadyLineMs: { median: Math.round(quantile(results.map((r) => r.statusLineMs), 0.5)) },
      readyLineMs: { median: Math.round(quantile(results.map((r) => r.readyLineMs), 0.5)) },
      keeperAddressOnScreenAfterReadyLineMs: {
        min: Math.round(Math.min(...onScreen)),
        median: Math.round(quantile(onScreen, 0.5)),
        max: Math.round(Math.max(...onScreen)),
      },
      targetMs: 1000,
    },
    null,
    2,
  ),
);
