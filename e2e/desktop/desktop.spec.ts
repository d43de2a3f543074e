/**
 * The console as the desktop app shows it (desktop-fixture.ts: the built main with its real core under
 * Node and the electron stand-in; the built page from file:// with the built preload in a sandbox). What
 * only the desktop window can get wrong: calls after a hash-route click or a reload (the frame's URL then
 * carries the hash), Copy (Electron asks the session's permission handler), and the flows that matter.
 * One desktop host for the whole file; each test opens a fresh window page on it.
 */
import type { Page } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NAV } from '../../src-renderer/src/nav';
import { desktopScreenshot } from './docs-screenshot';
import { expect, test } from './desktop-fixture';

/** Every screen of the navigation, by the label a person clicks and the hash route it opens. */
const SCREENS_TO_VISIT = NAV.map(({ label, screen }) => ({ link: label, route: `#/${screen}` }));

/** What page scripts see (this project's types have no DOM): the preload's bridge and the clipboard. */
interface PageGlobals {
  wagerKeeper: {
    call(
      method: 'status',
      args: object,
    ): Promise<{ phase: string; paused: boolean; keeper: { address: string } | null }>;
  };
  navigator: { clipboard: { readText(): Promise<string> } };
}

/** What the page's own bridge answers for `status` now: the keeper's phase, or the error it got. */
const bridgeStatus = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as PageGlobals).wagerKeeper.call('status', {}).then(
      (status) => `answered: ${status.phase}${status.paused ? ' (paused)' : ''}`,
      (error: Error) => `refused: ${error.message}`,
    ),
  );

const phase = (page: Page) => page.getByRole('banner').locator('.phase');

test.beforeEach(async ({ desktopPage: page }) => {
  // The window's page, its bridge from the preload, and the keeper running on the embedded localnet.
  await expect(page.getByRole('link', { name: 'Overview' })).toBeVisible();
  await expect(phase(page)).toHaveText('running', { timeout: 90_000 });
});

test('every screen opens from the navigation, and the keeper still answers on each (its frame URL carries the hash)', async ({
  desktopPage: page,
}, testInfo) => {
  for (const { link, route } of SCREENS_TO_VISIT) {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: link, exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`index\\.html${route.replace('/', '\\/')}$`));
    await expect(page.getByRole('heading', { name: link, level: 1 })).toBeAttached();
    await expect
      .poll(() => bridgeStatus(page), { message: `status from ${route}` })
      .toMatch(/^answered: running/);
    await expect(page.getByRole('alert').filter({ hasText: /cannot read|refused/i })).toHaveCount(0);
    if (['Overview', 'Queue', 'Settings'].includes(link))
      await desktopScreenshot(page, testInfo, link.toLowerCase());
  }
});

test('a wager opens in the Inspector from its queue row', async ({ desktopPage: page }, testInfo) => {
  // The demo app opens a wager every 5 s on the embedded localnet; the keeper settles it.
  await page.getByRole('link', { name: 'Queue', exact: true }).click();
  const settled = page
    .getByRole('row')
    .filter({ hasText: /settled/i })
    .first();
  await expect(settled).toBeVisible({ timeout: 60_000 });
  await settled.click();
  const detail = page.getByRole('complementary', { name: 'Wager detail' });
  const wager = (await detail.locator('code.full-address').textContent())!.trim();
  await detail.getByRole('link', { name: 'Open in Inspector' }).click();
  await expect(page).toHaveURL(new RegExp(`#/inspector\\?wager=${wager}$`));
  await expect(page.getByRole('textbox', { name: 'Wager address' })).toHaveValue(wager);
  await expect(page.getByText(/^Settled: bucket \d+, payout [\d.]+ USDC/)).toBeVisible();
  // The page is a local file, whose link would open nothing elsewhere: the terminal command instead.
  await expect(page.getByText(`wager-keeper inspect ${wager}`)).toBeVisible();
  await expect(page.getByText(/file:\/\//)).toHaveCount(0);
  await desktopScreenshot(page, testInfo, 'inspector');
});

test('Copy keeper address puts the address shown on the clipboard', async ({ desktopPage: page }) => {
  const address = await page.evaluate(() =>
    (globalThis as unknown as PageGlobals).wagerKeeper
      .call('status', {})
      .then((status) => status.keeper!.address),
  );
  await expect(page.getByText(address).first()).toBeVisible();
  await page.getByRole('button', { name: 'Copy keeper address' }).click();
  await expect(page.getByRole('button', { name: 'Copy keeper address' })).toHaveText('Copied');
  expect(
    await page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText()),
  ).toBe(address);
});

test('pause holds the keeper and resume sets it cranking again', async ({ desktopPage: page }, testInfo) => {
  await page.getByRole('button', { name: 'Pause keeper' }).click();
  await expect(phase(page)).toHaveText('paused');
  await expect(page.getByRole('button', { name: 'Resume keeper' })).toBeVisible();
  expect(await bridgeStatus(page)).toBe('answered: running (paused)');
  await desktopScreenshot(page, testInfo, 'paused');
  await page.getByRole('button', { name: 'Resume keeper' }).click();
  await expect(phase(page)).toHaveText('running');
  await expect(page.getByRole('button', { name: 'Pause keeper' })).toBeVisible();
  expect(await bridgeStatus(page)).toBe('answered: running');
});

test('a saved setting is kept, and shown again after a reload (which keeps the hash route)', async ({
  desktopPage: page,
}) => {
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  const maxInFlight = page.getByLabel('Max in flight');
  await expect(maxInFlight).toHaveValue(/^\d+$/);
  const next = (await maxInFlight.inputValue()) === '64' ? '96' : '64';
  await maxInFlight.fill(next);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Saved/ })).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(/index\.html#\/settings$/);
  await expect(page.getByLabel('Max in flight')).toHaveValue(next);
  await expect.poll(() => bridgeStatus(page)).toMatch(/^answered: /);
});

test('Settings → Desktop app: quit-on-close and start at login are kept, and start at login writes the autostart entry', async ({
  desktopPage: page,
  desktop,
}) => {
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  const section = page.getByRole('region', { name: 'Desktop app' });
  const quitOnClose = section.getByRole('checkbox', { name: 'Quit when the window closes' });
  const atLogin = section.getByRole('checkbox', { name: 'Start at login' });
  await expect(quitOnClose).not.toBeChecked();
  await expect(
    section.getByText(/closing the window hides it; the keeper keeps cranking in the tray/),
  ).toBeVisible();
  // The box follows the saved preference: it turns once the main process has kept the change.
  await quitOnClose.click();
  await expect(quitOnClose).toBeChecked();
  await expect(section.getByText('closing the window stops the keeper and quits the app')).toBeVisible();
  await atLogin.click();
  await expect(atLogin).toBeChecked();
  // Linux has no login items in Electron: an XDG autostart entry in appData (on Linux, XDG_CONFIG_HOME).
  const autostart = join(desktop.host.appData, 'autostart', 'wager-keeper.desktop');
  await expect.poll(() => existsSync(autostart)).toBe(true);
  expect(readFileSync(autostart, 'utf8')).toMatch(/^Exec=.*--hidden$/m);
  await page.reload();
  await expect(
    page
      .getByRole('region', { name: 'Desktop app' })
      .getByRole('checkbox', { name: 'Quit when the window closes' }),
  ).toBeChecked();
  await expect(
    page.getByRole('region', { name: 'Desktop app' }).getByRole('checkbox', { name: 'Start at login' }),
  ).toBeChecked();
  await page
    .getByRole('region', { name: 'Desktop app' })
    .getByRole('checkbox', { name: 'Start at login' })
    .click();
  await expect.poll(() => existsSync(autostart)).toBe(false);
  await page
    .getByRole('region', { name: 'Desktop app' })
    .getByRole('checkbox', { name: 'Quit when the window closes' })
    .click();
});

test('the preload runs isolated: the page gets a frozen copy of the bridge, and none of the preload’s own', async ({
  desktopPage: page,
}) => {
  const seen = await page.evaluate(async () => {
    const w = globalThis as unknown as Record<string, unknown> & {
      wagerKeeper: { call(method: string, args: object): Promise<Record<string, unknown>> };
    };
    const bridge = w.wagerKeeper;
    const status = await bridge.call('status', {});
    const again = await bridge.call('status', {});
    // A frozen object ignores the assignment (the page's scripts are not strict-mode modules here).
    try {
      (bridge as unknown as Record<string, unknown>).call = () => 'hijacked';
    } catch {
      // strict mode throws instead: the bridge is unchanged either way
    }
    const replaced = String(bridge.call).includes('hijacked');
    const refused = await bridge.call('readTheSecretKey', {}).then(
      () => 'answered',
      (error: unknown) => `${(error as Error).constructor.name}: ${(error as Error).message}`,
    );
    return {
      frozen: Object.isFrozen(bridge),
      replaced,
      copies: status !== again && Object.getPrototypeOf(status) === Object.prototype,
      helpers: ['require', 'module', '__wkDesktopInvoke', '__wkDesktopPermission', '__wkDesktopWindowOpen'].filter(
        (name) => name in w,
      ),
      refused,
    };
  });
  expect(seen).toEqual({
    frozen: true,
    replaced: false,
    copies: true,
    helpers: [],
    refused: "Error: unknown operator method 'readTheSecretKey'",
  });
});

test('popups and navigation follow main’s rules: window.open is denied (https goes to the system browser), leaving the page is prevented', async ({
  desktopPage: page,
  desktop,
}) => {
  const popups: string[] = [];
  page.on('popup', (popup) => popups.push(popup.url()));
  const opened = await page.evaluate(() => (globalThis as unknown as { open(url: string): unknown }).open('https://explorer.solana.com/tx/abc') === null);
  expect(opened).toBe(true);
  await expect.poll(() => desktop.host.opened()).toContain('https://explorer.solana.com/tx/abc');
  expect(popups).toEqual([]);

  const blocked = page.waitForEvent('requestfailed', (request) => request.url().startsWith('https://evil.example/'));
  await page.evaluate(() => {
    (globalThis as unknown as { location: { href: string } }).location.href = 'https://evil.example/';
  });
  await blocked;
  await expect(page).toHaveURL(/index\.html(#.*)?$/);
  await expect.poll(() => bridgeStatus(page)).toMatch(/^answered: /);
});
