/**
 * Settings → Earnings as an operator drives it on the embedded localnet (one `serve` for the file, its
 * keeper the localnet's funded dev key, 100 SOL): the keeper's own address is refused; "Send now" shows
 * the plan, asks, sends everything above the reserve to a fresh wallet (which then holds exactly that) and
 * lists it; the automatic mode, once on, sends what exceeds reserve + threshold by itself; the Overview
 * shows both under "Sent to wallet". DOCS_SCREENSHOTS=1 writes docs/screenshots/earnings-sweep.png.
 */
import { createSolanaRpc, generateKeyPairSigner, type Address } from '@solana/kit';
import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { attachScreenshot, expect, test } from './console-fixture';

test.describe.configure({ mode: 'serial' });

const openScreen = (page: Page, label: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
const earnings = (page: Page) => page.getByRole('region', { name: 'Earnings', exact: true });

/** Lamports as the console shows a balance: "9.999995000 SOL". */
const solExact = (lamports: bigint) =>
  `${(lamports / 1_000_000_000n).toLocaleString('en-US')}.${(lamports % 1_000_000_000n).toString().padStart(9, '0')} SOL`;

let wallet: Address;

test('Send now: the keeper’s own address is refused; the plan, a confirmation, and everything above the reserve goes to the wallet', async ({
  consolePage: page,
  serve,
}, testInfo) => {
  test.setTimeout(90_000);
  wallet = (await generateKeyPairSigner()).address;
  await openScreen(page, 'Settings');
  const section = earnings(page);
  await expect(
    section.getByText(/at least 0\.05 SOL|the floor of 0\.05 SOL|7 days of fees/).first(),
  ).toBeVisible({ timeout: 30_000 });

  await section.getByRole('textbox', { name: 'Destination wallet' }).fill(serve.ready.keeper);
  await section.getByRole('button', { name: 'Save earnings settings' }).click();
  await expect(section.getByRole('alert')).toContainText("is the keeper's own address");

  await section.getByRole('textbox', { name: 'Destination wallet' }).fill(wallet);
  await section.getByRole('textbox', { name: 'Reserve' }).fill('90');
  await section.getByRole('button', { name: 'Save earnings settings' }).click();
  await expect(section.getByText('Earnings settings saved.')).toBeVisible();
  await expect(section.getByText(/^Would send/)).toContainText('the keeper keeps 90.000000000 SOL');

  await section.getByRole('button', { name: 'Send now…' }).click();
  const dialog = section.getByRole('alertdialog');
  await expect(dialog).toContainText(`to ${wallet}?`);
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(section.getByRole('status').filter({ hasText: 'Sent ' })).toContainText(
    'the keeper keeps 90.000000000 SOL',
    { timeout: 30_000 },
  );

  const received = (
    await createSolanaRpc(serve.ready.rpcUrl).getBalance(wallet, { commitment: 'confirmed' }).send()
  ).value;
  expect(received).toBeGreaterThan(9_000_000_000n);
  const rows = section.getByRole('table', { name: 'Sweeps to the wallet, newest first' }).getByRole('row');
  await expect(rows.nth(1)).toContainText(solExact(received));
  await expect(rows.nth(1)).toContainText('Send now');
  await attachScreenshot(page, testInfo, 'earnings-send-now');
});

test('automatic: once on, what exceeds reserve + threshold goes by itself; the Overview lists what was sent', async ({
  consolePage: page,
}, testInfo) => {
  test.setTimeout(90_000);
  await openScreen(page, 'Settings');
  const section = earnings(page);
  await section.getByRole('textbox', { name: 'Reserve' }).fill('85');
  await section.getByRole('textbox', { name: 'Automatic threshold' }).fill('1');
  await section.getByRole('textbox', { name: 'At most once every' }).fill('1h');
  await section.getByRole('button', { name: 'Save earnings settings' }).click();
  await expect(section.getByText('Earnings settings saved.')).toBeVisible();
  // The switch follows the saved value: it turns once the core has kept the change.
  const automatic = section.getByRole('checkbox', { name: 'Send automatically' });
  await automatic.click();
  await expect(automatic).toBeChecked();

  const rows = section.getByRole('table', { name: 'Sweeps to the wallet, newest first' }).getByRole('row');
  await expect(rows.nth(1)).toContainText('automatic', { timeout: 30_000 });
  await expect(rows).toHaveCount(3);
  await expect(section.getByText(/^on: /)).toBeVisible();

  if (process.env.DOCS_SCREENSHOTS === '1') {
    const folder = join(import.meta.dirname, '..', 'docs', 'screenshots');
    mkdirSync(folder, { recursive: true });
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 2_400 });
    await section.scrollIntoViewIfNeeded();
    const box = (await section.boundingBox())!;
    await page.screenshot({
      path: join(folder, 'earnings-sweep.png'),
      clip: { x: box.x - 8, y: box.y - 8, width: box.width + 16, height: box.height + 16 },
    });
    await page.setViewportSize(viewport);
  }
  await attachScreenshot(page, testInfo, 'earnings-automatic');

  await openScreen(page, 'Overview');
  const sent = page.getByRole('region', { name: 'Sent to wallet' });
  await expect(
    sent.getByRole('table', { name: 'The last sweeps to the wallet' }).getByRole('row'),
  ).toHaveCount(3);
  await expect(sent).toContainText('sent in the last 7 days');
  await expect(sent.getByRole('button', { name: /Copy the signature of the sweep/ }).first()).toBeVisible();
});
