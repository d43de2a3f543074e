/**
 * Fleets on the Overview (issue 19): a second keeper on the same localnet, as another machine of the
 * operator's fleet (`wager-keeper keeper --shard 1/2`, its own key), is listed with its key, balance, last
 * pass, queue and shard once its API is given in Settings, and flagged when it stops answering. The
 * per-step table counts what this console's keeper cranked.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attachScreenshot, expect, startCommand, test } from './console-fixture';

interface KeeperReady {
  api: string;
  keeper: string;
  shard?: string;
}

/** A Solana CLI keypair file (64 bytes: seed then public key) of a new key. */
function newKeypairFile(): string {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32);
  const pub = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const path = join(mkdtempSync(join(tmpdir(), 'wk-e2e-fleet-')), 'member.json');
  writeFileSync(path, JSON.stringify([...seed, ...pub]));
  return path;
}

async function airdrop(rpcUrl: string, address: string, lamports: number): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'requestAirdrop', params: [address, lamports] }),
  });
  const body = (await response.json()) as { error?: unknown };
  if (body.error) throw new Error(`airdrop failed: ${JSON.stringify(body.error)}`);
}

test('a fleet member is listed with its key, balance and shard, and flagged once it stops answering; the step table counts cranks', async ({ consolePage: page, serve }, testInfo) => {
  const keypair = newKeypairFile();
  const member = await startCommand<KeeperReady>([
    'keeper',
    '--rpc',
    serve.ready.rpcUrl,
    '--ws',
    serve.ready.manifest.wsUrl,
    '--keypair',
    keypair,
    '--db',
    join(mkdtempSync(join(tmpdir(), 'wk-e2e-fleet-db-')), 'member.db'),
    '--port',
    '0',
    '--shard',
    '1/2',
    '--no-console',
  ]);
  try {
    await airdrop(serve.ready.rpcUrl, member.ready.keeper, 2_000_000_000);

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('textbox', { name: /fleet members/i }).fill(member.ready.api);
    await page.getByRole('textbox', { name: /this keeper's shard/i }).fill('0/2');
    await page.getByRole('button', { name: /save fleet/i }).click();
    await expect(page.getByText(/fleet saved/i)).toBeVisible();

    await page.getByRole('link', { name: 'Overview' }).click();
    const fleet = page.getByRole('region', { name: 'Fleet' });
    const row = fleet.getByRole('row').filter({ hasText: member.ready.api });
    await expect(row).toContainText(member.ready.keeper.slice(0, 4));
    await expect(row).toContainText('1/2');
    await expect(row).toContainText(/answering/);
    await expect(row).toContainText(/2\.0\d* SOL|1\.9\d* SOL/);
    // This console's keeper says its own shard in the status line's neighbourhood: the Overview's keeper card.
    await expect(page.getByRole('region', { name: 'Keeper' })).toContainText('fleet shard 0/2');

    // The demo app opens a wager every 5 s: this keeper's steps are counted by kind.
    const steps = page.getByRole('region', { name: 'Cranks by step' });
    await expect(steps.getByRole('row').filter({ hasText: 'Request randomness' })).toBeVisible({ timeout: 90_000 });
    await attachScreenshot(page, testInfo, 'overview-fleet');

    await member.stop();
    await expect(fleet.getByRole('alert')).toContainText(/1 fleet member is not answering/, { timeout: 60_000 });
    await expect(row).toContainText(/not answering/i);
    // The demo app's wagers of the stopped member's shard go overdue (10 slots) before this keeper takes
    // them over (20): the Overview says whose they are and when this keeper sends them, not "retries".
    const overdue = page.getByRole('region', { name: 'Overdue randomness requests' });
    await expect(overdue).toContainText(/held for fleet shard 1\/2: this keeper sends it at slot [\d,]+/, { timeout: 90_000 });
    await attachScreenshot(page, testInfo, 'overview-fleet-member-down');
  } finally {
    await member.stop();
  }
});
