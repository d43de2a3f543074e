/**
 * The desktop app in real Electron, through Playwright's Electron driver: it starts, every screen opens
 * from the navigation, Copy puts the keeper's address on the clipboard, closing the window keeps the app
 * (and the keeper) running, starting it again brings the window back, and Quit ends it with exit code 0.
 *
 * Two ways to run it:
 * - the packaged app, as .github/workflows/desktop.yml does on macOS, Windows and Ubuntu after
 *   `npm run package`: WAGER_KEEPER_APP=<the packaged executable> (under xvfb-run on Linux). A missing
 *   executable fails the test;
 * - this checkout (`electron .`): needs the Electron binary (downloaded by `npm start` or `npx
 *   install-electron --no`, never by this run), a display, and on Ubuntu 23.10+ a usable sandbox. Where one
 *   is missing (the machine this project is developed on has neither binary nor display) it is reported as
 *   skipped, with every reason, from the same check `npm start` makes before launching.
 *
 * Windows has no embedded localnet (litesvm publishes no Windows build): there the app must say so, and
 * the Copy step has no keeper address to copy.
 */
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NAV } from '../src-renderer/src/nav';
// @ts-expect-error: a plain .mjs script; its JSDoc gives the types.
import { desktopUnavailableReason } from '../scripts/desktop-launch.mjs';

const root = join(import.meta.dirname, '..');
const packagedApp = process.env.WAGER_KEEPER_APP || null;
const reason: string | null = packagedApp
  ? null
  : desktopUnavailableReason({
      env: process.env,
      platform: process.platform,
      electronDirectory: join(root, 'node_modules', 'electron'),
    });
// The list reporter shows a skip without its reason: say it in the run's output too.
if (reason) console.log(`e2e/electron.spec.ts: SKIPPED: Electron cannot start here: ${reason}`);

const embeddedLocalnet = process.platform !== 'win32';

/** The console window's state, as main sees it. */
const windowState = (app: ElectronApplication) =>
  app.evaluate(({ BrowserWindow }) =>
    BrowserWindow.getAllWindows().map((w) => ({ visible: w.isVisible(), minimized: w.isMinimized() })),
  );

async function attach(page: Page, name: string) {
  await test.info().attach(`desktop-${name}`, { body: await page.screenshot(), contentType: 'image/png' });
}

test('the desktop app starts, navigates, copies the keeper address, closes to the background, reopens and quits', async () => {
  test.skip(reason !== null, `Electron cannot start here: ${reason}`);
  if (packagedApp && !existsSync(packagedApp))
    throw new Error(
      `WAGER_KEEPER_APP names ${packagedApp}, which does not exist: run \`npm run package\` first`,
    );
  // Settings and the single-instance lock of this run only (on Linux; macOS and Windows use the profile).
  const env = { ...process.env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'wk-electron-')) };
  const command = packagedApp ? { executable: packagedApp, args: [] } : null;
  const app = await electron.launch(
    command ? { executablePath: command.executable, args: command.args, env } : { args: [root], env },
  );
  const exited = once(app.process(), 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  try {
    const window = await app.firstWindow();
    await expect(window.getByRole('link', { name: 'Overview' })).toBeVisible();
    if (embeddedLocalnet) {
      await expect(
        window
          .getByRole('banner')
          .getByText(/localnet/i)
          .first(),
      ).toBeVisible({ timeout: 90_000 });
      await expect(window.getByText(/[1-9][\d,.]* SOL/).first()).toBeVisible({ timeout: 60_000 });
    } else {
      await expect(
        window.getByText(/embedded localnet is unavailable on this platform/i).first(),
      ).toBeVisible({
        timeout: 60_000,
      });
    }
    await attach(window, 'overview');

    // Every screen opens from the navigation (hash routes of the file:// page).
    for (const { label } of NAV) {
      await window
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: label, exact: true })
        .click();
      await expect(window.getByRole('heading', { name: label, level: 1 })).toBeAttached();
    }
    await window
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Overview', exact: true })
      .click();

    // Copy: Electron asks the session's permission handlers for clipboard-sanitized-write.
    if (embeddedLocalnet) {
      const copy = window.getByRole('button', { name: 'Copy keeper address' });
      await expect(copy).toBeVisible();
      await copy.click();
      await expect(copy).toHaveText('Copied');
      const copied = await app.evaluate(({ clipboard }) => clipboard.readText());
      expect(copied).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
      await expect(window.getByText(copied).first()).toBeVisible();
    }

    // Closing the window keeps the app running: hidden in the tray, or minimised where no tray host
    // answers (a Linux desktop without one, as under Xvfb).
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close());
    await expect
      .poll(async () => (await windowState(app)).map((w) => !w.visible || w.minimized))
      .toEqual([true]);
    expect(app.process().exitCode).toBeNull();

    // Starting the app again (its icon, a shortcut) hands over to the running one, which shows its window.
    const second = command
      ? spawn(command.executable, command.args, { env, stdio: 'ignore' })
      : spawn(await app.evaluate(() => process.execPath), [root], { env, stdio: 'ignore' });
    const [secondCode] = (await once(second, 'exit')) as [number | null];
    expect(secondCode).toBe(0);
    await expect.poll(() => windowState(app)).toEqual([{ visible: true, minimized: false }]);
    await expect(window.getByRole('link', { name: 'Overview' })).toBeVisible();
    await attach(window, 'reopened');

    // Quit (the tray's and the app menu's) stops the keeper gracefully and exits 0.
    await app.evaluate(({ app: electronApp }) => electronApp.quit()).catch(() => undefined);
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  } finally {
    if (app.process().exitCode === null && app.process().signalCode === null) await app.close();
  }
});
