/**
 * Whether the desktop app can start here, without downloading anything (scripts/desktop-launch.mjs: what
 * e2e/electron.spec.ts asks before it runs or skips, and what `npm start` checks first), and how the
 * installer's error is quoted. What `npm start` then does is in desktop-launch-session.test.ts.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script (it runs before anything is built); its JSDoc gives the types.
import { desktopUnavailableReason, electronExecutable } from '../../../scripts/desktop-launch.mjs';
// @ts-expect-error: as above.
import { downloadErrorSummary } from '../../../scripts/electron-download.mjs';
import {
  downloadedElectron,
  electronDirectory,
  fakeFiles,
  freshElectronPackage,
} from './desktop-launch-fakes';

const installed = (platform: string) =>
  fakeFiles({ ...freshElectronPackage(), ...downloadedElectron(platform) }).files;

describe('whether the desktop app can start', () => {
  it('counts the binary as installed only as Electron’s installer does (path.txt, dist/version, the executable)', () => {
    // Right after `npm install`: Electron 42+ has no postinstall, so there is nothing yet.
    expect(
      electronExecutable({
        electronDirectory,
        platform: 'linux',
        env: {},
        files: fakeFiles(freshElectronPackage()).files,
      }),
    ).toEqual({
      executable: `${electronDirectory}/dist/electron`,
      installed: false,
      overridden: false,
    });
    for (const [platform, executable] of [
      ['linux', 'electron'],
      ['darwin', 'Electron.app/Contents/MacOS/Electron'],
      ['win32', 'electron.exe'],
    ] as const) {
      expect(
        electronExecutable({ electronDirectory, platform, env: {}, files: installed(platform) }),
      ).toMatchObject({
        executable: `${electronDirectory}/dist/${executable}`,
        installed: true,
      });
    }
    // A binary left from another Electron version is re-downloaded, as install.js would.
    const stale = fakeFiles({
      ...freshElectronPackage(),
      ...downloadedElectron('linux'),
      [`${electronDirectory}/dist/version`]: '44.0.0',
    }).files;
    expect(
      electronExecutable({ electronDirectory, platform: 'linux', env: {}, files: stale }).installed,
    ).toBe(false);
  });

  it('says the binary is not downloaded and how to get it, and that a display is missing, all at once', () => {
    const fresh = fakeFiles(freshElectronPackage()).files;
    expect(desktopUnavailableReason({ env: {}, platform: 'linux', electronDirectory, files: fresh })).toBe(
      'there is no display (DISPLAY and WAYLAND_DISPLAY are unset); and the Electron binary is not downloaded ' +
        `(${electronDirectory}/dist/electron is missing): \`npm start\` downloads it, or run \`npx install-electron --no\``,
    );
  });

  it('needs a display on Linux only, and starts when the binary and a display are there', () => {
    expect(
      desktopUnavailableReason({ env: {}, platform: 'linux', electronDirectory, files: installed('linux') }),
    ).toBe('there is no display (DISPLAY and WAYLAND_DISPLAY are unset)');
    expect(
      desktopUnavailableReason({
        env: { WAYLAND_DISPLAY: 'wayland-0' },
        platform: 'linux',
        electronDirectory,
        files: installed('linux'),
      }),
    ).toBeNull();
    expect(
      desktopUnavailableReason({
        env: {},
        platform: 'darwin',
        electronDirectory,
        files: installed('darwin'),
      }),
    ).toBeNull();
  });
});

describe("quoting Electron's installer", () => {
  it('keeps its message and drops the stack (the installer prints err.stack)', () => {
    const stderr =
      'TypeError: fetch failed\n    at node:internal/deps/undici/undici:14976:13\n    at async FetchDownloader.download (file:///x.js:46:30)\n';
    expect(downloadErrorSummary(stderr)).toBe('TypeError: fetch failed');
    expect(
      downloadErrorSummary(
        "Error: EACCES: permission denied, mkdir '/root/.cache/electron'\n    at async mkdir (node:fs:1)\n",
      ),
    ).toBe("Error: EACCES: permission denied, mkdir '/root/.cache/electron'");
    expect(downloadErrorSummary('')).toBe('');
  });
});
