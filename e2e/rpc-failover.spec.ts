/**
 * Several RPC endpoints, as an operator sees them (issue 27): `wager-keeper localnet`, and one
 * `wager-keeper serve --rpc A --rpc B` reaching it through two TCP proxies (each an RPC port P and its
 * WebSocket on P + 1, as the keeper derives it). The preferred endpoint A stops listening: the status line
 * says the keeper failed over to B, and Settings → RPC shows B in use and A set aside; A listens again:
 * reads go back to it. Then the same serve is switched (Settings → Cluster) to the RPC at B as an entered
 * cluster, and a fallback endpoint is added in Settings → RPC.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { closedPort, startTcpProxy } from '../src-main/keeper/__tests__/network-faults';
import { attachScreenshot, startCommand, type RunningCommand, type ServeReady } from './console-fixture';

type TcpForward = Awaited<ReturnType<typeof startTcpProxy>>;

/** An RPC endpoint in front of the localnet: forwards on adjacent ports P (RPC) and P + 1 (WebSocket) that can stop listening and listen again. */
interface Endpoint {
  port: number;
  url: string;
  stopListening(): Promise<void>;
  listenAgain(): Promise<void>;
  close(): Promise<void>;
}

async function endpointInFront(rpcTarget: number, wsTarget: number): Promise<Endpoint> {
  for (let attempt = 0; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    const rpc = await startTcpProxy(rpcTarget, { port }).catch(() => undefined);
    if (!rpc) continue;
    const ws = await startTcpProxy(wsTarget, { port: port + 1 }).catch(() => undefined);
    if (ws) {
      let forwards: TcpForward[] = [rpc, ws];
      const closeAll = async () => {
        for (const forward of forwards) await forward.close();
        forwards = [];
      };
      return {
        port,
        url: `http://127.0.0.1:${port}`,
        // Closed listeners: new connections are refused (ECONNREFUSED), open ones cut.
        stopListening: closeAll,
        listenAgain: async () => {
          forwards = [
            await startTcpProxy(rpcTarget, { port }),
            await startTcpProxy(wsTarget, { port: port + 1 }),
          ];
        },
        close: closeAll,
      };
    }
    await rpc.close();
    if (attempt > 20) throw new Error('no two adjacent free ports');
  }
}

/** The endpoint's row in Settings → RPC (its label is the URL, masked: the port followed by no other digit). */
const rowOf = (page: Page, endpoint: Endpoint) =>
  page
    .getByRole('region', { name: 'RPC', exact: true })
    .getByRole('row')
    .filter({ hasText: new RegExp(`127\\.0\\.0\\.1:${endpoint.port}(?!\\d)`) });

const DOCS_SCREENSHOTS = join(import.meta.dirname, '..', 'docs', 'screenshots');

let localnet: RunningCommand<{ rpcUrl: string; wsUrl: string }>;
let serve: RunningCommand<ServeReady>;
let preferred: Endpoint;
let fallback: Endpoint;
let added: Endpoint;

test.beforeAll(async () => {
  localnet = await startCommand(['localnet', '--rpc-port', '0', '--ws-port', '0']);
  const targets = [
    Number(new URL(localnet.ready.rpcUrl).port),
    Number(new URL(localnet.ready.wsUrl).port),
  ] as const;
  preferred = await endpointInFront(...targets);
  fallback = await endpointInFront(...targets);
  added = await endpointInFront(...targets);
  serve = await startCommand<ServeReady>([
    'serve',
    '--port',
    '0',
    '--gateway-port',
    '0',
    '--rpc',
    preferred.url,
    '--rpc',
    fallback.url,
  ]);
});
test.afterAll(async () => {
  await serve?.stop();
  for (const endpoint of [preferred, fallback, added]) await endpoint?.close();
  await localnet?.stop();
});

test('the preferred RPC stops listening: the status line says the keeper failed over, Settings → RPC shows it, and reads go back', async ({
  page,
}, testInfo) => {
  await page.goto(serve.ready.console);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings', exact: true })
    .click();
  const section = page.getByRole('region', { name: 'RPC', exact: true });
  await expect(rowOf(page, preferred)).toContainText('read, preferred');
  await expect(rowOf(page, preferred)).toContainText('in use');
  await expect(rowOf(page, preferred)).toContainText(/\d+ ms/);
  await expect(rowOf(page, fallback)).toContainText('read, fallback');
  await expect(section).toContainText("Set by this run's --rpc and --send-rpc flags");
  await expect(section.getByRole('button', { name: 'Add fallback' })).toHaveCount(0);
  const notice = page.getByRole('link', { name: /^RPC: failed over to/ });
  await expect(notice).toHaveCount(0);

  await preferred.stopListening();
  // Within a status refresh of the failover (2 s): said on every screen, with why on hover.
  await expect(notice).toContainText(`127.0.0.1:${fallback.port}`, { timeout: 20_000 });
  await expect(notice).toHaveAttribute('title', /was set aside/);
  await expect(rowOf(page, fallback)).toContainText('in use');
  await expect(rowOf(page, preferred)).toContainText('set aside');
  await expect(rowOf(page, preferred).getByRole('cell').nth(2)).toHaveText('no');
  await section.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, 'settings-rpc');
  if (process.env.DOCS_SCREENSHOTS === '1') {
    mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(DOCS_SCREENSHOTS, 'settings-rpc.png') });
  }
  // The notice leads to Settings → RPC from any screen.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Overview', exact: true })
    .click();
  // The Overview also says the priority fee the cranks carry now, and why.
  await expect(page.getByText(/^Priority fee [\d,]+ µL\/CU — \S/)).toBeVisible();
  await notice.click();
  await expect(section).toBeInViewport();

  await preferred.listenAgain();
  await expect(notice).toHaveCount(0, { timeout: 60_000 });
  await expect(rowOf(page, preferred)).toContainText('in use');
  await expect(rowOf(page, fallback).getByRole('cell').nth(2)).toHaveText('no');
});

test('on an RPC cluster entered in Settings, a fallback endpoint is added in Settings → RPC', async ({
  page,
}) => {
  await page.goto(serve.ready.console);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings', exact: true })
    .click();
  await page.getByRole('radio', { name: 'Custom RPC' }).check();
  // The RPC at B as a cluster of its own (not the flags' A + B).
  await page.getByLabel('RPC URL', { exact: true }).fill(fallback.url);
  await page.getByRole('button', { name: 'Switch cluster' }).click();
  await expect(page.getByText(`Switched: the keeper now runs on ${fallback.url}`)).toBeVisible({
    timeout: 90_000,
  });
  const section = page.getByRole('region', { name: 'RPC', exact: true });
  // Entered in Settings: one endpoint, and the lists can be edited.
  await expect(rowOf(page, preferred)).toHaveCount(0);
  await expect(rowOf(page, fallback)).toContainText('read, preferred');
  const field = section.getByLabel('Fallback RPC URL');
  await field.fill('127.0.0.1:8899');
  await section.getByRole('button', { name: 'Add fallback' }).click();
  await expect(section.getByText(/^Enter an http:\/\/ or https:\/\/ URL/)).toBeVisible();
  // One nothing answers is refused before anything restarts, saying why.
  const nobody = `http://127.0.0.1:${await closedPort()}`;
  await field.fill(nobody);
  await section.getByRole('button', { name: 'Add fallback' }).click();
  await expect(section.getByRole('alert')).toContainText('Nothing was saved: The fallback endpoint');
  await expect(section.getByRole('alert')).toContainText('connection refused');
  await expect(section.getByRole('list', { name: 'Fallback read endpoints' })).toHaveCount(0);

  await field.fill(added.url);
  await section.getByRole('button', { name: 'Add fallback' }).click();
  await expect(
    section.getByRole('status').filter({ hasText: 'Saved: the keeper restarted on 2 read endpoints.' }),
  ).toBeVisible({
    timeout: 90_000,
  });
  await expect(section.getByRole('list', { name: 'Fallback read endpoints' })).toContainText(added.url);
  await expect(rowOf(page, added)).toContainText('read, fallback');
  await expect(rowOf(page, fallback)).toContainText('in use');
  // Kept: the page opened again reads it back from the saved settings.
  await page.goto(serve.ready.console);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings', exact: true })
    .click();
  await expect(page.getByRole('list', { name: 'Fallback read endpoints' })).toContainText(added.url);
});
