/**
 * The Alerts screen and Settings → Alerts as an operator drives them on the embedded localnet (one
 * `serve` for the file, with one threshold set by a flag): an oracle stall fires an alert that shows
 * active and in the history, a mute shows, and resuming resolves it; a json webhook to a receiver this
 * spec runs gets the test alert, and is removed again; a heartbeat URL on the same receiver gets pings,
 * shows only masked once saved, and is removed again.
 */
import type { Locator, Page, TestInfo } from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StatusView } from '../src-shared/contract/status';
import {
  attachScreenshot,
  expect,
  openWager,
  type RunningCommand,
  type ServeReady,
  startLocalServe,
  test as consoleTest,
} from './console-fixture';

/** A loopback server for the file: it keeps each JSON body POSTed (webhooks) and each GET's path (heartbeat pings). */
interface Receiver {
  base: string;
  bodies: Record<string, unknown>[];
  pings: string[];
}

// The alert history and mutes live in the data folder (beside keeper.db): a fresh one, so an earlier
// run's mute or history cannot show here (and this run's stays out of the developer's own).
const test = consoleTest.extend<object, { serve: RunningCommand<ServeReady>; receiver: Receiver }>({
  serve: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object; this one has none
    async ({}, use) => {
      const serve = await startLocalServe(['--alert-expiry-warning-slots', '40'], {
        XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'wager-keeper-e2e-alerts-data-')),
      });
      await use(serve);
      await serve.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  receiver: [
    // eslint-disable-next-line no-empty-pattern -- as above
    async ({}, use) => {
      const bodies: Record<string, unknown>[] = [];
      const pings: string[] = [];
      const server = createServer((request, response) => {
        if (request.method === 'GET') {
          pings.push(request.url ?? '');
          return void response.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
        }
        let text = '';
        request.on('data', (chunk: Buffer) => (text += chunk.toString()));
        request.on('end', () => {
          bodies.push(JSON.parse(text) as Record<string, unknown>);
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      await use({ base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, pings });
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    { scope: 'worker' },
  ],
});

/** The serve's status through the operator API (the console's token is in the URL the command printed). */
async function operatorStatus(serve: RunningCommand<ServeReady>): Promise<StatusView> {
  const url = new URL(serve.ready.console);
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? url.searchParams.get('token');
  const response = await fetch(new URL('/operator/api/status', url), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(response.status).toBe(200);
  return (await response.json()) as StatusView;
}

const DOCS_SCREENSHOTS = join(import.meta.dirname, '..', 'docs', 'screenshots');

/**
 * Attaches a screenshot; with DOCS_SCREENSHOTS=1 also writes docs/screenshots/alerts-<name>.png: the
 * window, or only `part` when given.
 */
async function screenshot(page: Page, testInfo: TestInfo, name: string, part?: Locator) {
  await attachScreenshot(page, testInfo, `alerts-${name}`);
  if (process.env.DOCS_SCREENSHOTS !== '1') return;
  mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
  const path = join(DOCS_SCREENSHOTS, `alerts-${name}.png`);
  if (!part) return void (await page.screenshot({ path }));
  // The console scrolls inside its frame: a window tall enough shows the whole part.
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: viewport.width, height: 2_400 });
  await part.scrollIntoViewIfNeeded();
  const box = (await part.boundingBox())!;
  await page.screenshot({
    path,
    clip: { x: box.x - 8, y: box.y - 8, width: box.width + 16, height: box.height + 16 },
  });
  await page.setViewportSize(viewport);
}

const openScreen = (page: Page, label: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();

test('an oracle stall shows as an active alert and in the history; muted, it says so; resumed, it is resolved', async ({
  consolePage: page,
  serve,
}, testInfo) => {
  test.setTimeout(240_000);
  await openScreen(page, 'Oracle');
  await page.getByRole('button', { name: 'Stall local oracle' }).click();
  await expect(page.getByRole('button', { name: 'Resume local oracle' })).toBeVisible();
  // A wager that waits for randomness the stalled oracle never sends.
  await openWager(serve.ready.rpcUrl);

  await openScreen(page, 'Alerts');
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeAttached();
  const active = page.getByRole('table', { name: 'Active alerts' });
  const stallRow = active.getByRole('row').filter({ hasText: 'Oracle stalled' });
  // Slow after 20 slots of waiting (8 s), then the debounce: well within a minute and a half.
  await expect(stallRow).toBeVisible({ timeout: 90_000 });
  await expect(stallRow).toContainText(/warning|critical/);
  await expect(stallRow).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  const history = page.getByRole('table', { name: 'Alert history' });
  await expect(
    history.getByRole('row').filter({ hasText: 'Oracle stalled' }).filter({ hasText: 'firing' }).first(),
  ).toBeVisible();
  // The status line counts it, on every screen.
  await expect(page.getByRole('banner').getByRole('link', { name: /^\d+ alerts?/ })).toBeVisible();

  await stallRow.getByRole('button', { name: 'Mute Oracle stalled for 1 h' }).click();
  await expect(stallRow).toContainText(/muted until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  await expect(stallRow.getByRole('button', { name: 'Unmute Oracle stalled' })).toBeVisible();
  await screenshot(page, testInfo, 'active');

  await openScreen(page, 'Oracle');
  await page.getByRole('button', { name: 'Resume local oracle' }).click();
  await openScreen(page, 'Alerts');
  await expect(
    history.getByRole('row').filter({ hasText: 'Oracle stalled' }).filter({ hasText: 'resolved' }).first(),
  ).toBeVisible({
    timeout: 90_000,
  });
  await expect(stallRow).toHaveCount(0);
  await screenshot(page, testInfo, 'history');
});

test('Settings → Alerts: a json webhook gets the test alert, shows ok, and is removed after a confirmation; thresholds save', async ({
  consolePage: page,
  serve,
  receiver,
}, testInfo) => {
  const { bodies } = receiver;
  const hookUrl = `${receiver.base}/hook`;
  await openScreen(page, 'Settings');
  const section = page.getByRole('region', { name: 'Alerts' });
  await expect(section.getByRole('textbox', { name: 'Debounce' })).toBeVisible();
  // Every threshold has its field; the one the serve's flag set is read-only, naming the flag.
  for (const name of [
    'Balance warning',
    'Balance critical',
    'Runway warning',
    'RPC failing',
    'Loop stalled',
    'Reminder',
    'Crank failures',
  ])
    await expect(section.getByRole('textbox', { name, exact: true })).toBeEditable();
  const expiry = section.getByRole('textbox', { name: 'Expiry warning' });
  await expect(expiry).toHaveValue('40');
  await expect(expiry).not.toBeEditable();
  await expect(section).toContainText('set by --alert-expiry-warning-slots (read-only for this run)');

  // A threshold: saved, and kept across a reload.
  await section.getByRole('textbox', { name: 'Debounce' }).fill('7');
  await section.getByRole('button', { name: 'Save thresholds' }).click();
  await expect(section.getByRole('status').filter({ hasText: 'Thresholds saved' })).toBeVisible();

  await section.getByRole('combobox', { name: 'Format' }).selectOption('json');
  await section.getByRole('textbox', { name: 'Webhook URL' }).fill(hookUrl);
  await section.getByRole('button', { name: 'Add channel' }).click();
  const webhooks = section.getByRole('table', { name: 'Alert webhooks' });
  const row = webhooks.getByRole('row').filter({ hasText: 'JSON webhook' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('nothing sent yet');

  await section.getByRole('button', { name: 'Send a test alert' }).click();
  await expect(section.getByRole('status', { name: 'Test alert results' })).toContainText('delivered');
  expect(bodies).toHaveLength(1);
  expect(bodies[0]).toMatchObject({
    state: 'firing',
    severity: expect.stringMatching(/^(warning|critical)$/),
    cluster: 'localnet',
  });
  expect(Object.keys(bodies[0]!).sort()).toEqual(
    expect.arrayContaining(['alert', 'state', 'severity', 'summary', 'keeper', 'cluster', 'at']),
  );
  await expect(row).toContainText(/ok \(last send \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  await screenshot(page, testInfo, 'settings', section);

  // Opened anew (the token is only in the console URL the command printed): the saved threshold shows.
  await page.goto('about:blank');
  await page.goto(serve.ready.console);
  await openScreen(page, 'Settings');
  await expect(
    page.getByRole('region', { name: 'Alerts' }).getByRole('textbox', { name: 'Debounce' }),
  ).toHaveValue('7');

  await row.getByRole('button', { name: /^Remove / }).click();
  const confirm = section.getByRole('alertdialog');
  await expect(confirm).toContainText('Remove the JSON webhook channel');
  await confirm.getByRole('button', { name: 'Remove channel' }).click();
  await expect(webhooks).toHaveCount(0);
  await expect(section).toContainText('No webhook yet');
});

test('Settings → Alerts → Heartbeat: a URL saved gets pings and shows pinging, only masked after a reload, and is removed', async ({
  consolePage: page,
  serve,
  receiver,
}, testInfo) => {
  // A healthchecks.io-like ping id: the secret part of the URL, masked everywhere once saved.
  const secret = '0f8a3c2e-1d4b-4e7a-9c1f-2b3d4e5f6a7b';
  const pingPath = `/ping/${secret}`;
  const pingsSoFar = () => receiver.pings.filter((path) => path === pingPath).length;
  await openScreen(page, 'Settings');
  const heartbeat = page.getByRole('form', { name: "Heartbeat (dead man's switch)" });
  const state = heartbeat.getByRole('status', { name: 'Heartbeat state' });
  await expect(state).toContainText('Off: no heartbeat URL');

  await heartbeat
    .getByRole('textbox', { name: 'Heartbeat URL', exact: true })
    .fill(`${receiver.base}${pingPath}`);
  await heartbeat.getByRole('textbox', { name: 'Heartbeat period' }).fill('1');
  await heartbeat.getByRole('button', { name: 'Save heartbeat' }).click();
  await expect(heartbeat.getByRole('status').filter({ hasText: 'Heartbeat saved' })).toBeVisible();
  // Write-only: the field empties and only the masked label shows.
  await expect(heartbeat.getByLabel('Saved heartbeat URL')).toHaveText(`${receiver.base}/ping/***`);
  await expect(heartbeat.getByRole('textbox', { name: 'New heartbeat URL' })).toHaveValue('');
  // Pings arrive, one a second (the keeper is ready: the first test resumed the oracle), and the state says so.
  await expect.poll(pingsSoFar, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
  await expect(state).toContainText('Pinging: the monitor takes a ping every 1 s.');
  await expect(state).toContainText(/last ping \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  await screenshot(page, testInfo, 'heartbeat', heartbeat);

  // Opened anew: still only the masked label, in the page and in what the operator API returns.
  await page.goto('about:blank');
  await page.goto(serve.ready.console);
  await openScreen(page, 'Settings');
  await expect(heartbeat.getByLabel('Saved heartbeat URL')).toHaveText(`${receiver.base}/ping/***`);
  await expect(heartbeat.getByRole('textbox', { name: 'Heartbeat period' })).toHaveValue('1');
  await expect(state).toContainText('Pinging');
  expect(await page.locator('body').innerText()).not.toContain(secret);
  expect(JSON.stringify(await operatorStatus(serve))).not.toContain(secret);

  await heartbeat.getByRole('button', { name: 'Remove heartbeat URL' }).click();
  const confirm = heartbeat.getByRole('alertdialog');
  await expect(confirm).toContainText(`Remove the heartbeat URL ${receiver.base}/ping/***?`);
  await confirm.getByRole('button', { name: 'Remove heartbeat' }).click();
  await expect(heartbeat.getByRole('status').filter({ hasText: 'Heartbeat URL removed' })).toBeVisible();
  await expect(state).toContainText('Off: no heartbeat URL');
  await expect(heartbeat.getByRole('textbox', { name: 'Heartbeat URL', exact: true })).toHaveValue('');
  // The keeper's heartbeat turns off within a second of the removal: no view, and no ping after it.
  await expect.poll(async () => (await operatorStatus(serve)).heartbeat ?? null).toBeNull();
  const afterRemoval = pingsSoFar();
  await page.goto('about:blank');
  await page.goto(serve.ready.console);
  await openScreen(page, 'Settings');
  await expect(state).toContainText('Off: no heartbeat URL');
  expect(pingsSoFar()).toBe(afterRemoval);
});
