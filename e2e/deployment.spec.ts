/**
 * Settings → Cluster and the deployment, as an operator meets them: on the embedded localnet the
 * localnet's own deployment is shown (copyable addresses); on a cluster with no known deployment (a
 * plain JSON-RPC proxy in front of a second localnet, refusing `localnet_*`, so it looks like any other
 * cluster) the console says so plainly, and loading a deployment file by path makes the keeper run
 * against it: a wager opened there is settled, without the app restarting.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startForeignCluster, writeLocalnetDeploymentFile, type ForeignCluster } from '../src-main/deployment/__tests__/foreign-cluster';
import type { LocalnetManifest } from '../src-main/localnet/localnet';
import { attachScreenshot, BIN, expect, type RunningCommand, type ServeReady, startCommand, startLocalServe, test } from './console-fixture';

const run = promisify(execFile);

let second: RunningCommand<LocalnetManifest>;
let foreign: ForeignCluster;
let serve: RunningCommand<ServeReady>;
let dir: string;
let deploymentFile: string;
let appKeyFile: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(join(tmpdir(), 'wager-keeper-e2e-deployment-'));
  second = await startCommand<LocalnetManifest>(['localnet', '--rpc-port', '0']);
  foreign = await startForeignCluster(second.ready.rpcUrl);
  deploymentFile = await writeLocalnetDeploymentFile(second.ready, dir);
  // Off a wager-keeper localnet the keeper's key is --keypair (not the OS keychain): the second localnet's funded one.
  const keeperKeyFile = join(dir, 'keeper.json');
  writeFileSync(keeperKeyFile, JSON.stringify(second.ready.devKeys.keeper.keypair));
  appKeyFile = join(dir, 'app.json');
  writeFileSync(appKeyFile, JSON.stringify(second.ready.devKeys.app.keypair));
  serve = await startLocalServe(['--keypair', keeperKeyFile], {
    XDG_DATA_HOME: join(dir, 'data'),
  });
});

test.afterAll(async () => {
  await serve?.stop();
  await foreign?.close();
  await second?.stop();
});

test("Settings → Cluster shows the localnet's deployment: cluster, wager program, USDC mint, oracle and pool, each copyable", async ({ page }, testInfo) => {
  await page.goto(serve.ready.console);
  await page.getByRole('link', { name: 'Settings' }).click();
  const cluster = page.getByRole('region', { name: 'Cluster' });
  await expect(cluster.getByRole('heading', { name: 'Deployment in use' })).toBeVisible();
  expect(serve.ready.deployment).toEqual({ cluster: 'localnet', wagerProgram: serve.ready.manifest.programs.wager });
  await expect(cluster).toContainText(`wager program${serve.ready.deployment.wagerProgram}`);
  await expect(cluster).toContainText(serve.ready.manifest.usdcMint);
  await expect(cluster).toContainText(`local oracle: ${serve.ready.manifest.programs.oracle}`);
  await expect(cluster).toContainText(`localnet (genesis ${serve.ready.genesisHash})`);
  for (const name of ['wager program', 'USDC mint', 'oracle program', 'pool']) await expect(cluster.getByRole('button', { name: `Copy ${name}` })).toBeVisible();
  // A localnet is not on Explorer: no links there.
  await expect(cluster.getByRole('link', { name: /in Explorer/ })).toHaveCount(0);
  await attachScreenshot(page, testInfo, 'settings-deployment-localnet');
});

test('a cluster without a deployment says so plainly, and loading a deployment file by path makes the keeper run against it', async ({ page }, testInfo) => {
  await page.goto(serve.ready.console);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel(/custom/i).first().check();
  await page.getByRole('textbox', { name: 'RPC URL' }).fill(foreign.url);
  await page.getByRole('textbox', { name: 'WebSocket URL' }).fill(second.ready.wsUrl);
  await page.getByRole('button', { name: /switch cluster/i }).click();

  const plain = `No Wager Keeper deployment is known for cluster custom (genesis hash ${second.ready.genesisHash})`;
  const cluster = page.getByRole('region', { name: 'Cluster' });
  await expect(cluster.getByRole('alert').filter({ hasText: plain })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('no deployment');
  await attachScreenshot(page, testInfo, 'settings-no-deployment');

  await page.getByRole('textbox', { name: 'Deployment file path' }).fill(deploymentFile);
  await page.getByRole('button', { name: 'Load a deployment file…' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Deployment loaded/ })).toBeVisible();
  await expect(cluster).toContainText(`wager program${second.ready.programs.wager}`);
  await expect(cluster).toContainText(`the file ${deploymentFile}`);
  await expect(page.getByRole('banner')).toContainText('running');
  await attachScreenshot(page, testInfo, 'settings-deployment-loaded');

  // The keeper runs against it: a wager an app opens there is found and settled.
  await page.getByRole('link', { name: 'Queue' }).click();
  const { stdout } = await run(process.execPath, [BIN, 'open', '--rpc', foreign.url, '--deployment', deploymentFile, '--keypair', appKeyFile, '--paytable', 'coin-flip', '--amount', '1.00']);
  const { wager } = JSON.parse(stdout) as { wager: string };
  const row = page.getByRole('row').filter({ hasText: wager });
  await expect(row).toBeVisible({ timeout: 60_000 });
  await expect(row).toContainText(/settled/i, { timeout: 90_000 });
  await attachScreenshot(page, testInfo, 'queue-on-loaded-deployment');

  // This keeper does not hold that cluster's mint authority, and the deployment names no public keeper.
  await page.getByRole('link', { name: 'Faucet' }).click();
  await expect(page.getByText(/No faucet on this cluster: this keeper does not hold the test USDC mint's authority/)).toBeVisible();
});
