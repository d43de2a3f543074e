/**
 * The Logs screen on one `serve` (a fresh data folder, --log-file in it): the keeper's recent lines show
 * with their UTC time, the level filter and the search narrow them, and Save diagnostics… writes the
 * archive into the data folder, says where and the browser downloads it (with --log-file's files beside
 * the ring in it).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { list } from 'tar';
import {
  attachScreenshot,
  expect,
  type RunningCommand,
  type ServeReady,
  startLocalServe,
  test as consoleTest,
} from './console-fixture';

const dataHome = mkdtempSync(join(tmpdir(), 'wager-keeper-e2e-logs-data-'));
const logFile = join(dataHome, 'logs', 'serve.log');

const test = consoleTest.extend<object, { serve: RunningCommand<ServeReady> }>({
  serve: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object; this one has none
    async ({}, use) => {
      const serve = await startLocalServe(['--log-file', logFile], { XDG_DATA_HOME: dataHome });
      await use(serve);
      await serve.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});

const DOCS_SCREENSHOTS = join(import.meta.dirname, '..', 'docs', 'screenshots');

test('the Logs screen: recent lines in UTC, level filter, search, Save diagnostics', async ({
  consolePage: page,
}, testInfo) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logs' }).click();
  const log = page.getByRole('log', { name: 'Log lines' });
  const lines = log.locator('.log-line');
  // What the keeper said while starting, at info and above, each with its time in UTC.
  await expect(lines.first()).toBeVisible({ timeout: 15_000 });
  await expect(lines.first().locator('time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC$/);
  await expect(log.locator('.log-line[data-level="info"]').first()).toBeVisible();

  // Search: only the lines with the text.
  const someMessage = (await lines.first().locator('.log-msg').textContent())!.trim();
  const word = someMessage.split(/\s+/).find((part) => part.length > 4) ?? someMessage;
  await page.getByRole('searchbox', { name: 'Search the logs' }).fill(word);
  await expect(lines.first()).toBeVisible();
  for (const text of await lines.allTextContents()) expect(text.toLowerCase()).toContain(word.toLowerCase());
  await page.getByRole('searchbox', { name: 'Search the logs' }).fill('no line says this 7f3a');
  await expect(lines).toHaveCount(0);
  await expect(page.getByText('No line matches')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search the logs' }).fill('');

  // Level: errors only hides the info lines.
  await expect(log.locator('.log-line[data-level="info"]').first()).toBeVisible();
  await page.getByRole('combobox', { name: 'Level' }).selectOption('error');
  await expect(log.locator('.log-line[data-level="info"]')).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Level' }).selectOption('info');
  await expect(log.locator('.log-line[data-level="info"]').first()).toBeVisible();

  await attachScreenshot(page, testInfo, 'logs');
  if (process.env.DOCS_SCREENSHOTS === '1') {
    mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(DOCS_SCREENSHOTS, 'logs.png') });
  }

  // Save diagnostics…: headless, the archive goes to the data folder, the screen says where, and the
  // browser downloads the same file (the console may be far from that folder).
  const downloading = page.waitForEvent('download', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Save diagnostics…' }).click();
  const saved = page.locator('.diagnostics-path');
  await expect(saved).toHaveText(/wager-keeper-diagnostics-\d{8}-\d{6}Z\.tar\.gz$/, { timeout: 15_000 });
  const path = (await saved.textContent())!;
  expect(path.startsWith(join(dataHome, 'wager-keeper', 'diagnostics'))).toBe(true);
  expect(existsSync(path)).toBe(true);
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(path.split('/').pop());
  const downloaded = (await download.path())!;
  expect(readFileSync(downloaded).equals(readFileSync(path))).toBe(true);
  const entries: string[] = [];
  await list({ file: downloaded, onReadEntry: (entry) => void entries.push(entry.path) });
  expect(entries).toContain('wager-keeper-diagnostics/health.json');
  await expect(page.getByRole('link', { name: 'download again' })).toBeVisible();
  // --log-file writes its numbered files.
  expect(readdirSync(join(dataHome, 'logs')).some((name) => /^serve\.\d+\.log$/.test(name))).toBe(true);
});
