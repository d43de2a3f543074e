/**
 * Settings → Keeper key in the browser console, with the real OS keychain: `serve` runs inside a private
 * D-Bus session with an unlocked gnome-keyring (HOME in a temp dir, never the developer's keyring). A
 * base58 secret pasted into the password field is imported; "Export key…" warns, asks for a confirmation
 * and writes a 0600 Solana CLI keypair file to the path typed (never over an existing file); importing
 * that file back after replacing the key restores the same address, and the replaced key is listed under
 * "Replaced keys" and exported the same way; mainnet-beta's key is its own: the
 * local key is refused there, and a key generated for it shows in its own row.
 */
import { getBase58Decoder } from '@solana/kit';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { generateKeypairWithBytes } from '../src-main/secrets/keypair-bytes';
import { withConsoleToken } from '../src-main/service/__tests__/ready-console-url';
import { attachScreenshot, BIN, expect, test, type ServeReady } from './console-fixture';

const DOCS_SCREENSHOTS = join(import.meta.dirname, '..', 'docs', 'screenshots');
const secretService = ['dbus-run-session', 'gnome-keyring-daemon'].every(
  (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0,
);

/** `serve` inside its own keyring session, in its own process group (stopped as a whole). */
async function serveWithKeychain(home: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_RUNTIME_DIR: join(home, 'run'),
  };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  const script = [
    'mkdir -p -m 700 "$XDG_RUNTIME_DIR"',
    'echo -n test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null',
    `exec '${process.execPath}' '${BIN}' serve --port 0 --rpc-port 0 --gateway-port 0`,
  ].join('; ');
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', script], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [
    string | null,
  ];
  lines.on('line', () => {});
  if (!first) throw new Error(`serve exited before it was ready: ${stderr}`);
  return {
    // stdout is a pipe: the token is in the file the ready line names (consoleUrlFile).
    ready: withConsoleToken(JSON.parse(first) as ServeReady & { consoleUrlFile?: string }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}

test.skip(
  !secretService,
  'needs dbus-run-session and gnome-keyring-daemon (Debian packages dbus, gnome-keyring; scripts/ensure-toolchain.mjs installs them)',
);

test('exports the keeper key behind a confirmation, imports it back, keeps mainnet-beta apart', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const home = mkdtempSync(join(tmpdir(), 'wager-keeper-key-backup-'));
  const serve = await serveWithKeychain(home);
  try {
    const local = await generateKeypairWithBytes();
    const backup = join(home, 'keeper-backup.json');
    await page.goto(serve.ready.console);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    const section = page.getByRole('region', { name: 'Keeper key' });
    const localRow = section.locator('tr[data-key-class="local"]');
    const mainnetRow = section.locator('tr[data-key-class="mainnet-beta"]');
    // On the embedded localnet the keeper cranks with the dev key; the keychain holds nothing yet.
    await expect(section).toContainText('(localnet dev key)');
    await expect(localRow).toContainText('none yet');
    await expect(mainnetRow).toContainText('keeper-mainnet-beta');
    await expect(section.getByRole('button', { name: 'Export key…' })).toBeDisabled();

    // Import a pasted base58 secret (a password field: the page never shows it).
    const pasted = section.getByLabel('Or paste a secret key');
    await expect(pasted).toHaveAttribute('type', 'password');
    await pasted.fill(getBase58Decoder().decode(local.secretKey));
    await section.getByRole('button', { name: 'Import pasted secret' }).click();
    await expect(localRow).toContainText(local.signer.address);
    await expect(pasted).toHaveValue('');

    // Export: a warning and a confirmation, then a 0600 Solana CLI keypair file at the typed path.
    await section.getByLabel('Backup file path').fill(backup);
    await section.getByRole('button', { name: 'Export key…' }).click();
    const dialog = section.getByRole('alertdialog');
    await expect(dialog).toContainText(`Write the secret key of ${local.signer.address} to a file?`);
    await expect(dialog).toContainText('Anyone who gets the file can spend the SOL on this key');
    expect(existsSync(backup)).toBe(false); // nothing written before the confirmation
    await dialog.getByRole('button', { name: 'Export key' }).click();
    await expect(section.getByRole('status')).toContainText(
      `Key ${local.signer.address} written to ${backup}`,
    );
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(backup, 'utf8'))).toEqual(Array.from(local.secretKey));
    // Never over an existing file.
    await section.getByRole('button', { name: 'Export key…' }).click();
    await dialog.getByRole('button', { name: 'Export key' }).click();
    await expect(section.getByRole('alert')).toContainText(
      `${backup} already exists: the key is never written over a file; pick a new file name`,
    );

    // Replace the key (confirmed), then import the backup file: the same address is back.
    await section.getByRole('button', { name: 'Generate new key' }).click();
    await expect(dialog).toContainText(`Replace the local and test clusters key ${local.signer.address}?`);
    await dialog.getByRole('button', { name: 'Replace key' }).click();
    await expect(localRow).not.toContainText(local.signer.address);
    await expect(localRow).toContainText(/[1-9A-HJ-NP-Za-km-z]{32,44}/);
    // The replaced key is kept in the keychain: listed, and exported through the same confirmation.
    const replacedList = section.getByRole('table', { name: /Replaced keys/ });
    await expect(replacedList).toContainText(local.signer.address);
    const replacedBackup = join(home, 'replaced-backup.json');
    await section.getByLabel('Backup file path').fill(replacedBackup);
    await replacedList.getByRole('button', { name: `Export replaced key ${local.signer.address}` }).click();
    await expect(dialog).toContainText(`Write the secret key of the replaced key ${local.signer.address} to a file?`);
    await dialog.getByRole('button', { name: 'Export key' }).click();
    await expect(section.getByRole('status')).toContainText(`Key ${local.signer.address} written to ${replacedBackup}`);
    expect(JSON.parse(readFileSync(replacedBackup, 'utf8'))).toEqual(Array.from(local.secretKey));
    await section.getByLabel('Keypair file path').fill(backup);
    await section.getByRole('button', { name: 'Import keypair file' }).click();
    await dialog.getByRole('button', { name: 'Replace key' }).click();
    await expect(localRow).toContainText(local.signer.address);

    // mainnet-beta: the local key is refused; a generated key fills its own row.
    await section.getByLabel('Key to manage').selectOption('mainnet-beta');
    await pasted.fill(getBase58Decoder().decode(local.secretKey));
    await section.getByRole('button', { name: 'Import pasted secret' }).click();
    await expect(section.getByRole('alert')).toContainText(
      `the key ${local.signer.address} is the key that cranks local and test clusters, and mainnet-beta never uses that key`,
    );
    await pasted.fill('');
    await section.getByRole('button', { name: 'Generate new key' }).click();
    await expect(mainnetRow).toContainText(/[1-9A-HJ-NP-Za-km-z]{32,44}/);
    await expect(mainnetRow).not.toContainText(local.signer.address);
    await expect(localRow).toContainText(local.signer.address);

    await attachScreenshot(page, testInfo, 'key-backup');
    // Only when asked: a test run leaves the checkout as it found it.
    if (process.env.DOCS_SCREENSHOTS === '1') {
      mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
      await section.scrollIntoViewIfNeeded();
      await section.screenshot({ path: join(DOCS_SCREENSHOTS, 'key-backup.png') });
    }
  } finally {
    await serve.stop();
    rmSync(home, { recursive: true, force: true });
  }
});
