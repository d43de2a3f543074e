/**
 * The keeper key as Settings manages it, in a desktop session with a Secret Service (a private D-Bus
 * session with gnome-keyring; HOME in a temp dir): generate a key into the keychain and see its address,
 * refuse to replace it unless confirmed (SOL on it would be stranded), import a Solana CLI keypair file;
 * no answer ever holds secret bytes. Without a Secret Service, Settings says why and what to do.
 */
import { spawnSync } from 'node:child_process';
import { getBase58Decoder } from '@solana/kit';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';
import {
  cleanUp,
  fixtureCommand,
  inSecretServiceSession,
  isolatedEnv,
  jsonLines,
  projectRoot,
  secretServiceMissing,
  secretServiceNote,
} from '../../secrets/__tests__/secret-service-session';
import type { KeyExportView, KeyView } from '../../../src-shared/contract/keys';

const fixture = fileURLToPath(new URL('./fixtures/console-key-actions.ts', import.meta.url));
type Answer = { key: KeyView } | { error: string };
const dirs: string[] = [];
afterEach(() => cleanUp(dirs));

describe('the keeper key in Settings', () => {
  it.skipIf(secretServiceMissing)(`generates a key into the keychain, refuses to replace it unconfirmed, imports a keypair file${secretServiceNote}`, async () => {
    const { home, env } = isolatedEnv(dirs);
    const fileKey = await generateKeypairWithBytes();
    const keypairFile = join(home, 'id.json');
    writeFileSync(keypairFile, JSON.stringify(Array.from(fileKey.secretKey)), { mode: 0o600 });
    const [before, generated, refused, imported, replaced, after] = inSecretServiceSession<Answer>(env, [
      fixtureCommand(fixture, ['settings', 'generate', 'generate', `import:${keypairFile}`, `import!:${keypairFile}`, 'settings']),
    ]);
    expect(before).toEqual({
      key: {
        inUse: null,
        keychain: { address: null, error: null },
        current: 'local',
        accounts: [
          { keyClass: 'local', account: 'keeper', clusters: 'localnet, devnet, testnet and custom clusters', address: null, error: null, inUse: false, replaced: [] },
          { keyClass: 'mainnet-beta', account: 'keeper-mainnet-beta', clusters: 'mainnet-beta', address: null, error: null, inUse: false, replaced: [] },
        ],
      },
    });
    const stored = (generated as { key: KeyView }).key.keychain.address;
    expect(stored).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(refused).toEqual({ error: expect.stringMatching(new RegExp(`already holds a local/test keeper key \\(${stored}\\).*move it first`)) });
    expect(imported).toEqual({ error: expect.stringMatching(/confirm the replacement/) });
    expect(replaced).toMatchObject({ key: { inUse: null, keychain: { address: fileKey.signer.address, error: null }, accounts: [{ address: fileKey.signer.address }, { address: null }] } });
    expect(after).toEqual(replaced);
    // Nothing that looks like key bytes in any answer.
    expect(JSON.stringify([generated, replaced])).not.toMatch(/\[\s*\d+\s*,\s*\d+/);
  });

  it.skipIf(secretServiceMissing)(`exports to a new 0600 file, imports a pasted base58 secret, and keeps mainnet-beta's key apart${secretServiceNote}`, async () => {
    const { home, env } = isolatedEnv(dirs);
    const [mainnet, other] = await Promise.all([generateKeypairWithBytes(), generateKeypairWithBytes()]);
    const backup = join(home, 'backup.json');
    const mainnetBackup = join(home, 'mainnet-backup.json');
    const base58 = (bytes: Uint8Array) => getBase58Decoder().decode(bytes);
    const answers = inSecretServiceSession<Answer & { exported?: KeyExportView }>(env, [
      fixtureCommand(fixture, [
        'generate',
        `export:${backup}`,
        `export:${backup}`,
        `secret!@mainnet-beta:${base58(mainnet.secretKey)}`,
        `import!@mainnet-beta:${backup}`,
        `secret!:${base58(other.secretKey)}`,
        `import!:${backup}`,
        `export@mainnet-beta:${mainnetBackup}`,
      ]),
    ]);
    const [generated, exported, again, mainnetImported, sharedRefused, otherImported, restored, mainnetExported] = answers;
    const local = (generated as { key: KeyView }).key.keychain.address!;
    expect(exported).toEqual({ exported: { path: backup, address: local, keyClass: 'local' } });
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    expect(again).toEqual({ error: `${backup} already exists: the key is never written over a file; pick a new file name` });
    expect((mainnetImported as { key: KeyView }).key.accounts.map((entry) => [entry.account, entry.address])).toEqual([
      ['keeper', local],
      ['keeper-mainnet-beta', mainnet.signer.address],
    ]);
    expect(sharedRefused).toEqual({ error: expect.stringMatching(`the key ${local} is the key that cranks local and test clusters, and mainnet-beta never uses that key`) });
    expect((otherImported as { key: KeyView }).key.keychain.address).toBe(other.signer.address);
    // Export then import gives the same address.
    expect((restored as { key: KeyView }).key.keychain.address).toBe(local);
    expect(mainnetExported).toEqual({ exported: { path: mainnetBackup, address: mainnet.signer.address, keyClass: 'mainnet-beta' } });
    expect(JSON.parse(readFileSync(mainnetBackup, 'utf8'))).toEqual(Array.from(mainnet.secretKey));
    expect(JSON.stringify(answers)).not.toMatch(/\[\s*\d+\s*,\s*\d+/);
    expect(JSON.stringify(answers)).not.toContain(base58(mainnet.secretKey));
  });

  it.skipIf(secretServiceMissing)(`keeps every replaced key in the keychain as keeper-replaced-<UTC time>, listed and exportable with the same bytes${secretServiceNote}`, async () => {
    const { home, env } = isolatedEnv(dirs);
    const [first, second, mainnet, mainnetNext] = await Promise.all([generateKeypairWithBytes(), generateKeypairWithBytes(), generateKeypairWithBytes(), generateKeypairWithBytes()]);
    const base58 = (bytes: Uint8Array) => getBase58Decoder().decode(bytes);
    const started = Date.now();
    const [firstOut, secondOut, mainnetOut] = ['first.json', 'second.json', 'mainnet.json'].map((name) => join(home, name)) as [string, string, string];
    const answers = inSecretServiceSession<Answer & { exported?: KeyExportView }>(env, [
      fixtureCommand(fixture, [
        `secret!:${base58(first.secretKey)}`,
        `secret!:${base58(second.secretKey)}`, // replaces the first
        'generate!', // replaces the second (likely within the same second: its own account all the same)
        `secret!@mainnet-beta:${base58(mainnet.secretKey)}`,
        `secret!@mainnet-beta:${base58(mainnetNext.secretKey)}`,
        // Exported through the same path as the current key (#N: the class's Nth replaced key).
        `export-replaced:#0,${firstOut}`,
        `export-replaced:#1,${secondOut}`,
        `export-replaced@mainnet-beta:#0,${mainnetOut}`,
        `export-replaced:guardian,${join(home, 'other.json')}`,
        `export-replaced:keeper-mainnet-beta-replaced,${join(home, 'cross.json')}`,
      ]),
    ]);
    const [, , generated, , mainnetReplaced] = answers;
    const exports = answers.slice(5);
    const local = (generated as { key: KeyView }).key.accounts[0]!;
    expect(local.replaced.map((entry) => entry.address)).toEqual([first.signer.address, second.signer.address]);
    for (const entry of local.replaced) {
      expect(entry.account).toMatch(/^keeper-replaced-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ(-\d+)?$/);
      expect(Date.parse(entry.replacedAt)).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);
    }
    expect(new Set(local.replaced.map((entry) => entry.account)).size).toBe(2);
    const mainnetAccount = (mainnetReplaced as { key: KeyView }).key.accounts[1]!;
    expect(mainnetAccount.replaced).toEqual([{ account: expect.stringMatching(/^keeper-mainnet-beta-replaced-/), address: mainnet.signer.address, replacedAt: expect.any(String) }]);
    expect(exports.slice(0, 3)).toEqual([
      { exported: { path: firstOut, address: first.signer.address, keyClass: 'local' } },
      { exported: { path: secondOut, address: second.signer.address, keyClass: 'local' } },
      { exported: { path: mainnetOut, address: mainnet.signer.address, keyClass: 'mainnet-beta' } },
    ]);
    expect(JSON.parse(readFileSync(firstOut, 'utf8'))).toEqual(Array.from(first.secretKey));
    expect(JSON.parse(readFileSync(secondOut, 'utf8'))).toEqual(Array.from(second.secretKey));
    expect(JSON.parse(readFileSync(mainnetOut, 'utf8'))).toEqual(Array.from(mainnet.secretKey));
    expect(statSync(firstOut).mode & 0o777).toBe(0o600);
    // Only a listed replaced key of that class: never another keychain account by name.
    expect(exports[3]).toEqual({ error: expect.stringMatching(/'guardian' is not a replaced keeper key of keeper/) });
    expect(exports[4]).toEqual({ error: expect.stringMatching(/'keeper-mainnet-beta-replaced' is not a replaced keeper key of keeper:/) });
    expect(JSON.stringify(answers)).not.toMatch(/\[\s*\d+\s*,\s*\d+/);
  });

  it('without a Secret Service, shows why the keychain cannot be used and what to do, and refuses to generate', () => {
    const { env } = isolatedEnv(dirs);
    env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/wager-keeper-test-bus';
    const result = spawnSync(process.execPath, ['--import', 'tsx', fixture, 'settings', 'generate'], { cwd: projectRoot, env, encoding: 'utf8', timeout: 30_000 });
    const [settings, generate] = jsonLines<Answer>(result.stdout);
    expect((settings as { key: KeyView }).key.keychain).toEqual({ address: null, error: expect.stringMatching(/keychain is not available .*--keypair FILE/) });
    expect(generate).toEqual({ error: expect.stringMatching(/keychain is not available/) });
  });
});
