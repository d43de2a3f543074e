/**
 * The console's RPC panel while the chain cannot be read, as a person sees it: `wager-keeper localnet`,
 * and `wager-keeper serve --rpc` reaching it through TCP proxies (the RPC on port P, PubSub on P + 1, as
 * the keeper derives it) that the test takes down and brings back. While down, the status bar reads
 * "RPC error" and the Overview's RPC panel says the RPC failed and that the keeper keeps retrying; once
 * back, both go and the slot moves on.
 */
import { expect, test } from '@playwright/test';
import { startTcpProxy } from '../src-main/keeper/__tests__/network-faults';
import { attachScreenshot, startCommand, type RunningCommand, type ServeReady } from './console-fixture';

type TcpForward = Awaited<ReturnType<typeof startTcpProxy>>;

/** Two forwards on adjacent ports P and P + 1 (the keeper takes the WebSocket at the RPC's port + 1). */
async function adjacentForwards(rpcTarget: number, wsTarget: number): Promise<[TcpForward, TcpForward]> {
  for (let attempt = 0; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    const rpc = await startTcpProxy(rpcTarget, { port }).catch(() => undefined);
    if (!rpc) continue;
    const ws = await startTcpProxy(wsTarget, { port: port + 1 }).catch(() => undefined);
    if (ws) return [rpc, ws];
    await rpc.close();
    if (attempt > 20) throw new Error('no two adjacent free ports');
  }
}

let localnet: RunningCommand<{ rpcUrl: string; wsUrl: string }>;
let serve: RunningCommand<ServeReady>;
let proxies: [TcpForward, TcpForward];

test.beforeAll(async () => {
  localnet = await startCommand(['localnet', '--rpc-port', '0', '--ws-port', '0']);
  proxies = await adjacentForwards(Number(new URL(localnet.ready.rpcUrl).port), Number(new URL(localnet.ready.wsUrl).port));
  serve = await startCommand<ServeReady>(['serve', '--port', '0', '--rpc', `http://127.0.0.1:${proxies[0].port}`, '--gateway-port', '0']);
});
test.afterAll(async () => {
  await serve?.stop();
  for (const proxy of proxies ?? []) await proxy.close();
  await localnet?.stop();
});

test('the RPC panel says the RPC failed while the chain is unreadable, and clears once it is back', async ({ page }, testInfo) => {
  await page.goto(serve.ready.console);
  const panel = page.getByRole('region', { name: 'RPC' });
  await expect(panel).toBeVisible();
  await expect(panel.getByText(`http://127.0.0.1:${proxies[0].port}`)).toBeVisible();
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await expect(panel).toContainText(/latency\s*\d+ ms/);
  const statusBarError = page.getByText('RPC error', { exact: true });
  await expect(statusBarError).toHaveCount(0);

  for (const proxy of proxies) proxy.down();
  const alert = panel.getByRole('alert');
  await expect(alert).toContainText('The RPC failed');
  await expect(alert).toContainText('The keeper keeps retrying every pass');
  await expect(alert.getByRole('button', { name: 'Open Settings' })).toBeVisible();
  await expect(statusBarError).toBeVisible(); // the status bar at the top says it on every screen
  // The slot shown is the last one read, said as such (not "read 0 s ago" as if the failed read had worked).
  await expect(panel).toContainText(/slot\s*[\d,]+ \(last read [\d.]+ s ago\)/);
  await panel.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, 'rpc-unreadable');

  const slotShown = async () => Number(((await panel.locator('dd').nth(1).textContent()) ?? '').match(/^[\d,]+/)?.[0].replaceAll(',', '') ?? 0);
  const slotWhileDown = await slotShown();
  for (const proxy of proxies) proxy.up();
  await expect(alert).toHaveCount(0);
  await expect(statusBarError).toHaveCount(0);
  // Read again: the slot shown moves past the last one read before the outage.
  await expect.poll(slotShown, { timeout: 45_000 }).toBeGreaterThan(slotWhileDown);
  await attachScreenshot(page, testInfo, 'rpc-back');
});
