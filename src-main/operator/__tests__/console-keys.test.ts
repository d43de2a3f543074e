/**
 * The keeper key as Settings manages it, in a desktop session with a Secret Service (a private D-Bus
 * session with gnome-keyring; HOME in a temp dir): generate a key into the keychain and see its address,
 * refuse to replace it unless confirmed (SOL on it would be stranded), import a Solana CLI keypair file;
 * no answer ever holds secret bytes. Without a Secret Service, Settings says why and what to do.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
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
import type { KeyView } from '../operator-interface';

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
    expect(before).toEqual({ key: { inUse: null, keychain: { address: null, error: null } } });
    const stored = (generated as { key: KeyView }).key.keychain.address;
    expect(stored).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(refused).toEqual({ error: expect.stringMatching(new RegExp(`already holds a keeper key \\(${stored}\\).*move it first`)) });
    expect(imported).toEqual({ error: expect.stringMatching(/confirm the replacement/) });
    expect(replaced).toEqual({ key: { inUse: null, keychain: { address: fileKey.signer.address, error: null } } });
    expect(after).toEqual(replaced);
    // Nothing that looks like key bytes in any answer.
    expect(JSON.stringify([generated, replaced])).not.toMatch(/\[\s*\d+\s*,\s*\d+/);
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
