/**
 * The guardian key as Settings keeps it off a localnet's dev keys, in a desktop session with a Secret
 * Service (a private D-Bus session with gnome-keyring; HOME in a temp dir), against a localnet reached by
 * RPC like any cluster: without a key the console says who the guardian is and refuses to pause; a key the
 * config does not name is kept but not used, and says so; the guardian's own key, imported (replacing the
 * other after a confirmation), pauses and resumes new wagers from the console. No answer holds key bytes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';
import { cleanUp, fixtureCommand, inSecretServiceSession, isolatedEnv, secretServiceMissing, secretServiceNote } from '../../secrets/__tests__/secret-service-session';
import type { GuardianActionView, GuardianView } from '../../../src-shared/contract/guardian';

const fixture = fileURLToPath(new URL('./fixtures/console-guardian-actions.ts', import.meta.url));
type Answer = { guardian: string } | { view: GuardianView } | { action: GuardianActionView } | { error: string };
const dirs: string[] = [];
afterEach(() => cleanUp(dirs));

describe('the guardian key in Settings', () => {
  it.skipIf(secretServiceMissing)(`imports the guardian's keypair file into the keychain and pauses new wagers with it${secretServiceNote}`, async () => {
    const { home, env } = isolatedEnv(dirs);
    const write = (name: string, bytes: Uint8Array) => {
      const path = join(home, name);
      writeFileSync(path, JSON.stringify(Array.from(bytes)), { mode: 0o600 });
      return path;
    };
    const keeper = write('keeper.json', (await generateKeypairWithBytes()).secretKey);
    const stranger = await generateKeypairWithBytes();
    const strangerFile = write('stranger.json', stranger.secretKey);
    // The localnet's guardian key is written here by the fixture, once its localnet runs.
    const guardianFile = join(home, 'guardian.json');
    const answers = inSecretServiceSession<Answer>(env, [
      `${fixtureCommand(fixture, [keeper, 'view', 'pause', `import:${strangerFile}`, 'pause', `import:${guardianFile}`, `import!:${guardianFile}`, 'pause', 'view', 'resume'])}`,
    ]);
    const [intro, before, refusedWithout, withStranger, refusedStranger, unconfirmed, imported, paused, after, resumed] = answers;
    const guardian = (intro as { guardian: string }).guardian;
    expect((before as { view: GuardianView }).view).toMatchObject({
      guardian,
      paused: false,
      key: null,
      keyProblem: `this console holds no guardian key: import the keypair file of the deployment's guardian (${guardian}) in Settings → Guardian key`,
      keychain: { address: null, error: null },
    });
    expect(refusedWithout).toEqual({ error: expect.stringContaining(`only the deployment's guardian (${guardian}) can pause new wagers`) });
    expect((withStranger as { view: GuardianView }).view).toMatchObject({
      key: null,
      keyProblem: `the guardian key in the OS keychain: the key ${stranger.signer.address} is not this deployment's guardian (its config on chain names ${guardian}): only that key can pause new wagers`,
      keychain: { address: stranger.signer.address, error: null },
    });
    expect(refusedStranger).toEqual({ error: expect.stringContaining('is not this deployment\'s guardian') });
    expect(unconfirmed).toEqual({ error: expect.stringMatching(new RegExp(`already holds a guardian key \\(${stranger.signer.address}\\).*confirm the replacement`)) });
    expect((imported as { view: GuardianView }).view).toMatchObject({ key: { address: guardian, source: 'keychain' }, keyProblem: null, keychain: { address: guardian } });
    expect((paused as { action: GuardianActionView }).action).toMatchObject({ action: 'pause', by: 'person', reason: 'paused by a person from the console' });
    expect((after as { view: GuardianView }).view).toMatchObject({ paused: true, pausedByGuardian: false, actions: [{ action: 'pause', by: 'person' }] });
    expect((resumed as { action: GuardianActionView }).action).toMatchObject({ action: 'resume', by: 'person' });
    expect(JSON.stringify(answers)).not.toMatch(/\[\s*\d+\s*,\s*\d+/);
  }, 120_000);
});
