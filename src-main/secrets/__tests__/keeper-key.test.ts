/**
 * Where the keeper's key comes from, as an operator meets it: in a desktop session with a Secret Service
 * (here: a private D-Bus session with gnome-keyring, in child processes, with HOME and XDG dirs in a temp
 * directory so no real keyring is touched) the first start creates and stores a key and later starts get
 * the same address; `--keypair FILE` wins over the keychain; on a machine without a Secret Service the
 * keeper refuses with KeychainUnavailableError's message pointing at `--keypair` instead of inventing a key.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeypairWithBytes } from '../keypair-bytes';
import {
  cleanUp,
  fixtureCommand,
  inSecretServiceSession as inSession,
  isolatedEnv as isolatedHome,
  jsonLines,
  projectRoot,
  secretServiceMissing,
  secretServiceNote,
} from './secret-service-session';

const fixture = fileURLToPath(new URL('./fixtures/load-keeper-key.ts', import.meta.url));
const missing = secretServiceMissing ? ['a Secret Service'] : [];
if (secretServiceMissing) console.warn(`keeper-key tests need a Secret Service:${secretServiceNote}`);

type FixtureAnswer = { address: string; source: string } | { error: string; keychainUnavailable: boolean };

const dirs: string[] = [];
afterEach(() => cleanUp(dirs));

const isolatedEnv = () => isolatedHome(dirs);
const loadKeyCommand = (keypairFile?: string) => fixtureCommand(fixture, keypairFile ? ['--keypair', keypairFile] : []);
const answers = (stdout: string) => jsonLines<FixtureAnswer>(stdout);
const inSecretServiceSession = (env: NodeJS.ProcessEnv, commands: string[]) => inSession<FixtureAnswer>(env, commands);

describe('the keeper key in the OS keychain', () => {
  it.skipIf(missing.length > 0)(`creates and stores a key on the first start and returns the same address on the next one${secretServiceNote}`, () => {
    const { env } = isolatedEnv();
    const [first, second] = inSecretServiceSession(env, [loadKeyCommand(), loadKeyCommand()]);
    expect(first).toEqual({ address: expect.any(String), source: 'keychain (created)' });
    expect(second).toEqual({ address: (first as { address: string }).address, source: 'keychain' });
  });

  it.skipIf(missing.length > 0)(`uses the --keypair file instead of the key in the keychain${secretServiceNote}`, async () => {
    const { home, env } = isolatedEnv();
    const fileKey = await generateKeypairWithBytes();
    const keypairFile = join(home, 'keeper.json');
    writeFileSync(keypairFile, JSON.stringify(Array.from(fileKey.secretKey)), { mode: 0o600 });
    const [stored, fromFile, again] = inSecretServiceSession(env, [loadKeyCommand(), loadKeyCommand(keypairFile), loadKeyCommand()]);
    expect(stored).toMatchObject({ source: 'keychain (created)' });
    expect(fromFile).toEqual({ address: fileKey.signer.address, source: 'file' });
    // The file did not replace the stored key.
    expect(again).toEqual({ address: (stored as { address: string }).address, source: 'keychain' });
  });

  it('without a Secret Service (no D-Bus session) refuses with a message that says to use --keypair, and never makes up a key', () => {
    const { env } = isolatedEnv();
    // A bus address that leads nowhere: without any address, libdbus would "autolaunch" a session bus
    // (where dbus-x11 is installed) and gnome-keyring would start on demand behind it.
    env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/wager-keeper-test-bus';
    const run = () => {
      const result = spawnSync(process.execPath, ['--import', 'tsx', fixture], { cwd: projectRoot, env, encoding: 'utf8', timeout: 30_000 });
      expect(result.status, result.stderr).toBe(0);
      return answers(result.stdout)[0];
    };
    const first = run();
    expect(first).toEqual({ error: expect.stringMatching(/^the OS keychain is not available \(.+\); run the keeper with --keypair FILE/), keychainUnavailable: true });
    // A second start must not come back with a (different) key either: a key only this process saw would be lost.
    expect(run()).toMatchObject({ keychainUnavailable: true });
  });

  it('without a Secret Service, --keypair FILE still works', async () => {
    const { home, env } = isolatedEnv();
    const fileKey = await generateKeypairWithBytes();
    const keypairFile = join(home, 'keeper.json');
    writeFileSync(keypairFile, JSON.stringify(Array.from(fileKey.secretKey)), { mode: 0o600 });
    const result = spawnSync(process.execPath, ['--import', 'tsx', fixture, '--keypair', keypairFile], { cwd: projectRoot, env, encoding: 'utf8', timeout: 30_000 });
    expect(answers(result.stdout)).toEqual([{ address: fileKey.signer.address, source: 'file' }]);
  });
});
