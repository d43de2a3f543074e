/**
 * The desktop app's first steps with Playwright's Electron driver: the window shows the localnet and its
 * funded keeper. It needs the Electron binary (downloaded by `npm start` or `npx install-electron --no`,
 * never by this run: Electron 42+ fetches it on first use), a display, and on Ubuntu 23.10+ a usable
 * sandbox. Where one is missing (the machine this project is developed on has neither binary nor display)
 * it is reported as skipped, with every reason, from the same check `npm start` makes before launching.
 */
import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs script; its JSDoc gives the types.
import { desktopUnavailableReason } from '../scripts/desktop-launch.mjs';

const root = join(import.meta.dirname, '..');
const reason: string | null = desktopUnavailableReason({ env: process.env, platform: process.platform, electronDirectory: join(root, 'node_modules', 'electron') });
// The list reporter shows a skip without its reason: say it in the run's output too.
if (reason) console.log(`e2e/electron.spec.ts: SKIPPED: Electron cannot start here: ${reason}`);

// eslint-disable-next-line no-empty-pattern -- this test uses no fixtures
test('the desktop app starts on the embedded localnet with its funded keeper', async ({}, testInfo) => {
  test.skip(reason !== null, `Electron cannot start here: ${reason}`);
  const app = await electron.launch({ args: [root], env: { ...process.env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'wk-electron-')) } });
  try {
    const window = await app.firstWindow();
    await expect(window.getByRole('link', { name: 'Overview' })).toBeVisible();
    await expect(window.getByRole('banner').getByText(/localnet/i).first()).toBeVisible({ timeout: 60_000 });
    await expect(window.getByRole('button', { name: 'Copy keeper address' })).toBeVisible();
    await expect(window.getByText(/[1-9][\d,.]* SOL/).first()).toBeVisible();
    await testInfo.attach('desktop-overview', { body: await window.screenshot(), contentType: 'image/png' });
  } finally {
    await app.close();
  }
});
