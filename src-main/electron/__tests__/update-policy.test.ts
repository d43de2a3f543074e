/**
 * How each install takes an update (update-policy.ts) and what it verifies, from app-update.yml as
 * electron-builder writes it and from `codesign -dv` as macOS prints it.
 */
import { describe, expect, it } from 'vitest';
import { macSignatureOf } from '../update-install-facts';
import {
  NOT_PACKAGED_REASON,
  parseAppUpdateConfig,
  releasePageUrl,
  updateMode,
  type InstallFacts,
} from '../update-policy';

const GITHUB = parseAppUpdateConfig('owner: wager-keeper\nrepo: wager-keeper\nprovider: github\nreleaseType: release\nupdaterCacheDirName: wager-keeper-updater\n');
const facts = (changes: Partial<InstallFacts>): InstallFacts => ({
  isPackaged: true,
  platform: 'linux',
  appImage: undefined,
  packageType: null,
  macSignature: null,
  feed: GITHUB,
  ...changes,
});

describe('how an install takes an update', () => {
  it('reads app-update.yml as electron-builder writes it, a publisher list included', () => {
    expect(GITHUB).toMatchObject({ provider: 'github', owner: 'wager-keeper', repo: 'wager-keeper' });
    expect(parseAppUpdateConfig('provider: github\nowner: o\nrepo: r\npublisherName:\n  - Wager Keeper developers\n  - "Other Ltd"\nupdaterCacheDirName: x\n')?.publisherName).toEqual(['Wager Keeper developers', 'Other Ltd']);
    expect(parseAppUpdateConfig('publisherName: One Ltd\nprovider: generic\nurl: https://m.example/\n')).toMatchObject({ publisherName: ['One Ltd'], url: 'https://m.example/' });
    expect(parseAppUpdateConfig('no provider here')).toBeNull();
  });

  it('Windows updates in place and checks the publisher only when the build was signed', () => {
    const signed = updateMode(facts({ platform: 'win32', feed: { ...GITHUB!, publisherName: ['Wager Keeper developers'] } }), '');
    expect(signed).toMatchObject({ kind: 'inPlace' });
    expect(signed.kind !== 'none' && signed.verification).toMatch(/Authenticode\) signature must be valid and issued to Wager Keeper developers/);
    const unsigned = updateMode(facts({ platform: 'win32' }), '');
    expect(unsigned.kind !== 'none' && unsigned.verification).toMatch(/not code-signed, so no publisher is named and the installer's Windows signature is not checked/);
  });

  it('macOS updates in place only with a Developer ID; ad-hoc or unsigned gets a notice', () => {
    expect(updateMode(facts({ platform: 'darwin', macSignature: 'developerId' }), '')).toMatchObject({ kind: 'inPlace' });
    for (const macSignature of ['adhoc', 'unsigned'] as const) {
      const mode = updateMode(facts({ platform: 'darwin', macSignature }), '');
      expect(mode).toMatchObject({ kind: 'notice' });
      expect(mode.kind !== 'none' && mode.how).toMatch(/Squirrel\.Mac\) refuses/);
    }
    expect(macSignatureOf('Executable=/Applications/Wager Keeper.app/Contents/MacOS/Wager Keeper\nSignature=adhoc\nTeamIdentifier=not set\n', false)).toBe('adhoc');
    expect(macSignatureOf('Authority=Developer ID Application: Wager Keeper developers (ABCDE12345)\nAuthority=Developer ID Certification Authority\nTeamIdentifier=ABCDE12345\n', false)).toBe('developerId');
    expect(macSignatureOf('/Applications/Wager Keeper.app: code object is not signed at all\n', true)).toBe('unsigned');
  });

  it('Linux: an AppImage in place, a deb (or anything else) a notice; unpackaged never', () => {
    expect(updateMode(facts({ appImage: '/home/me/Wager Keeper.AppImage' }), '')).toMatchObject({ kind: 'inPlace' });
    expect(updateMode(facts({ packageType: 'deb' }), '')).toMatchObject({ kind: 'notice', how: expect.stringMatching(/sudo apt install/) });
    expect(updateMode(facts({}), '')).toMatchObject({ kind: 'notice' });
    expect(updateMode(facts({ isPackaged: false }), '')).toEqual({ kind: 'none', reason: NOT_PACKAGED_REASON });
    expect(updateMode(facts({ feed: null }), '')).toMatchObject({ kind: 'none', reason: expect.stringMatching(/without a release feed/) });
    expect(updateMode(facts({ feed: null, appImage: '/a.AppImage' }), 'https://mirror.example/')).toMatchObject({ kind: 'inPlace' });
  });

  it('links a notice to the GitHub release (tag v<version>) or to the mirror', () => {
    expect(releasePageUrl(GITHUB, '', '0.2.0')).toBe('https://github.com/wager-keeper/wager-keeper/releases/tag/v0.2.0');
    expect(releasePageUrl(GITHUB, 'https://mirror.example/wk/', '0.2.0')).toBe('https://mirror.example/wk/');
  });
});
