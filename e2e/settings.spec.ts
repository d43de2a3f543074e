/** Settings: a bad RPC URL is explained; switching to another localnet restarts the keeper without restarting the app. */
import { attachScreenshot, expect, startCommand, test } from './console-fixture';

interface LocalnetReady {
  rpcUrl: string;
  wsUrl: string;
  devKeys: { keeper: { address: string } };
}

test('a bad RPC URL gives a clear error, and switching to a second localnet works', async ({ consolePage: page }, testInfo) => {
  const second = await startCommand<LocalnetReady>(['localnet', '--rpc-port', '0']);
  try {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel(/custom/i).first().check();
    await page.getByRole('textbox', { name: 'RPC URL' }).fill('http://127.0.0.1:1');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByRole('alert').filter({ hasText: /cannot reach the RPC/i })).toBeVisible();
    await attachScreenshot(page, testInfo, 'settings-bad-rpc');

    await page.getByRole('textbox', { name: 'RPC URL' }).fill(second.ready.rpcUrl);
    await page.getByRole('textbox', { name: 'WebSocket URL' }).fill(second.ready.wsUrl);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByText(/wager-keeper localnet/i).first()).toBeVisible();
    await page.getByRole('button', { name: /switch cluster|save and restart/i }).click();
    // The app did not restart: the same page now shows the second localnet and its keeper.
    await expect(page.getByRole('banner')).toContainText(second.ready.rpcUrl.replace(/^http:\/\//, ''));
    await page.getByRole('link', { name: 'Overview' }).click();
    await expect(page.getByText(second.ready.devKeys.keeper.address).first()).toBeVisible();
    await attachScreenshot(page, testInfo, 'settings-switched');
  } finally {
    await second.stop();
  }
});

test('the operator API answers 401 JSON without the token and sends no CORS headers', async ({ consolePage: page, serve }, testInfo) => {
  const { origin } = new URL(serve.ready.console);
  for (const headers of [{}, { authorization: 'Bearer wrong-token' }]) {
    const response = await fetch(`${origin}/operator/api/status`, { method: 'POST', headers: { origin: 'https://evil.example', ...headers } });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: string }).error).toMatch(/token/);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  }
  const events = await fetch(`${origin}/operator/events`);
  expect(events.status).toBe(401);
  await attachScreenshot(page, testInfo, 'console-with-token');
});
