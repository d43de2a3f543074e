/**
 * Keepers on other machines (issue 36), as the desktop app shows them. "The server" is a real OpenSSH
 * server on a loopback port (Debian's sshd, its own host key and config in a temp folder) and a headless
 * `wager-keeper serve` behind it, found by `wager-keeper console-url` run over SSH. The operator adds the
 * server by user@host:port with a key file, accepts its host key by fingerprint, and the same console shows
 * the server keeper: its Overview, its Queue with its real wagers, pause (it stops cranking) and resume.
 * The fleet view lists both keepers; the SSH server killed shows "disconnected" and the console comes back
 * by itself when it returns; a server presenting another host key is refused. The tests run in order on
 * one desktop host, one sshd and one server keeper.
 */
import type { Page } from '@playwright/test';
import { startServerKeeper, type ServerKeeperProcess } from '../../src-main/remote/__tests__/server-keeper-fixture';
import { startSshd, type SshdFixture } from '../../src-main/remote/__tests__/sshd-fixture';
import { openWager } from '../console-fixture';
import { desktopScreenshot } from './docs-screenshot';
import { expect, test } from './desktop-fixture';

test.describe.configure({ mode: 'serial' });


let server: ServerKeeperProcess;
let sshd: SshdFixture;
let serverKeeper: string;
let serverRpc: string;

test.beforeAll(async () => {
  // The demo app off: the Queue holds only the wagers this test opens on the server.
  server = await startServerKeeper();
  await server.call('saveSettings', { changes: { demoEnabled: false } });
  const status = (await server.call('status')) as { keeper: { address: string }; cluster: { rpcUrl: string } };
  serverKeeper = status.keeper.address;
  serverRpc = status.cluster.rpcUrl;
  sshd = await startSshd({ env: { XDG_DATA_HOME: server.dataHome } });
});

test.afterAll(async () => {
  await sshd?.dispose();
  await server?.stop();
});

const banner = (page: Page) => page.getByRole('banner');
const keepersLink = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keepers', exact: true });
const serverEntry = (page: Page) => page.getByRole('list', { name: 'Keepers' }).getByRole('listitem').filter({ hasText: sshd.target });
const serverPaused = async () => ((await server.call('status')) as { paused: boolean }).paused;

test.beforeEach(async ({ desktopPage: page }) => {
  await expect(page.getByRole('banner').locator('.phase')).toHaveText('running', { timeout: 90_000 });
});

test('a server added by user@host:port, its host key accepted by fingerprint: its Overview and Queue, pause and resume', async ({ desktopPage: page }, testInfo) => {
  test.setTimeout(240_000);
  await keepersLink(page).click();
  await page.getByRole('textbox', { name: 'Server (user@host or user@host:port)' }).fill(sshd.target);
  await page.getByRole('textbox', { name: 'Key file' }).fill(sshd.clientKeyFile);
  await page.getByRole('button', { name: 'Add server' }).click();

  // Nothing is sent before the operator accepts the key ssh-keygen prints for the server.
  const entry = serverEntry(page);
  await expect(entry).toContainText('host key unknown');
  await expect(entry).toContainText(sshd.hostKeyFingerprint);
  await desktopScreenshot(page, testInfo, 'keepers-new-host-key');
  await entry.getByRole('button', { name: 'Accept host key' }).click();
  await expect(entry).toContainText(/connected/);
  await expect(entry).not.toContainText(/disconnected|host key unknown/);

  await entry.getByRole('button', { name: 'Show' }).click();
  await expect(banner(page)).toContainText(sshd.target);
  await expect(banner(page)).toContainText('connected');
  await expect(page.getByText(serverKeeper).first()).toBeVisible();
  await keepersLink(page).click();
  await desktopScreenshot(page, testInfo, 'keepers');

  // A wager opened on the server's cluster is in the Queue the console shows, and the server keeper settles it.
  const settled = await openWager(serverRpc);
  await page.getByRole('link', { name: 'Queue', exact: true }).click();
  const search = page.getByRole('searchbox', { name: 'Search by address' });
  await search.fill(settled);
  await expect(page.getByRole('row').filter({ hasText: settled })).toContainText('settled', { timeout: 60_000 });

  // Pause from the console: the server keeper itself is paused and leaves a new wager queued.
  await page.getByRole('button', { name: 'Pause keeper' }).click();
  await expect(page.getByRole('button', { name: 'Resume keeper' })).toBeVisible();
  await expect.poll(serverPaused).toBe(true);
  const held = await openWager(serverRpc);
  await search.fill(held);
  const heldRow = page.getByRole('row').filter({ hasText: held });
  await expect(heldRow).toContainText('queued');
  await page.getByRole('button', { name: 'Resume keeper' }).click();
  await expect.poll(serverPaused).toBe(false);
  await expect(heldRow).toContainText('settled', { timeout: 60_000 });
});

test('the fleet view lists this computer and the server with their figures; a click opens that keeper', async ({ desktopPage: page }, testInfo) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fleet', exact: true }).click();
  const fleet = page.getByRole('table', { name: 'Fleet' });
  const local = fleet.getByRole('row').filter({ hasText: 'This computer' });
  const remote = fleet.getByRole('row').filter({ hasText: sshd.target });
  await expect(local).toContainText(/[\d.,]+ SOL/);
  await expect(remote).toContainText(/[\d.,]+ SOL/);
  await expect(remote).toContainText('connected');
  await expect(fleet).not.toContainText('unreachable');
  await desktopScreenshot(page, testInfo, 'fleet');
  await local.getByRole('button', { name: 'Open' }).click();
  await expect(banner(page)).toContainText('This computer');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Overview');
});

test('the SSH server killed: the console says disconnected, and comes back by itself when it returns', async ({ desktopPage: page }, testInfo) => {
  test.setTimeout(180_000);
  await keepersLink(page).click();
  await serverEntry(page).getByRole('button', { name: 'Show' }).click();
  await expect(banner(page)).toContainText('connected');
  await expect(page.getByText(serverKeeper).first()).toBeVisible();

  await sshd.stop();
  const disconnected = page.getByRole('alert').filter({ hasText: /disconnected from the keeper/i });
  await expect(disconnected).toBeVisible({ timeout: 60_000 });
  await expect(banner(page)).toContainText(/disconnected/);
  await desktopScreenshot(page, testInfo, 'keeper-server-disconnected');

  await sshd.start();
  await expect(disconnected).toHaveCount(0, { timeout: 90_000 });
  await expect(banner(page)).toContainText(sshd.target);
  await expect(banner(page)).not.toContainText(/disconnected/);
  await expect(page.getByText(serverKeeper).first()).toBeVisible();
});

test('a server presenting another host key is refused, with why it matters', async ({ desktopPage: page }, testInfo) => {
  test.setTimeout(180_000);
  await sshd.stop();
  await sshd.startWithOtherHostKey();
  await keepersLink(page).click();
  const entry = serverEntry(page);
  await expect(entry).toContainText('host key changed', { timeout: 90_000 });
  await expect(entry.getByRole('alert')).toContainText(sshd.otherHostKeyFingerprint);
  await expect(entry.getByRole('button', { name: 'Accept host key' })).toHaveCount(0);
  // Still the shown keeper (since the last test): the status line says it is refused, not connected.
  await expect(banner(page)).toContainText('host key changed, refused');
  await expect(page.getByRole('alert').filter({ hasText: 'Not connected to the keeper: the app will not retry by itself' })).toBeVisible();
  // What failed while it was merely disconnected is asked again: no sentence on screen still says it is retrying.
  await expect(page.getByText(/not connected \(disconnected\)/)).toHaveCount(0);
  await desktopScreenshot(page, testInfo, 'keepers-host-key-changed');

  // Removed (behind a confirmation), the server leaves the list and the console shows this computer.
  await entry.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('button', { name: 'Confirm removal' }).click();
  await expect(serverEntry(page)).toHaveCount(0);
  await expect(banner(page)).toContainText('This computer');
});
