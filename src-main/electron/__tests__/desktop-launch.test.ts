/** `npm start` starts the desktop app only where Electron can start, and otherwise says exactly why. */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script (it runs before anything is built); its JSDoc gives the types.
import { desktopUnavailableReason } from '../../../scripts/desktop-launch.mjs';

const electronDirectory = '/app/node_modules/electron';
const files = (present: string[]) => ({ exists: (path: string) => present.includes(path), read: () => 'electron\n' });

describe('whether the desktop app can start', () => {
  it('needs the Electron binary, which npm may not have been able to download', () => {
    expect(desktopUnavailableReason({ env: { DISPLAY: ':0' }, platform: 'linux', electronDirectory, ...files([]) })).toMatch(
      /Electron binary is not installed \(\/app\/node_modules\/electron\/dist is missing/,
    );
    expect(desktopUnavailableReason({ env: { DISPLAY: ':0' }, platform: 'linux', electronDirectory, ...files([`${electronDirectory}/path.txt`]) })).toMatch(
      /\/app\/node_modules\/electron\/dist\/electron is missing/,
    );
  });

  it('needs a display on Linux, and starts when both are there', () => {
    const both = files([`${electronDirectory}/path.txt`, `${electronDirectory}/dist/electron`]);
    expect(desktopUnavailableReason({ env: {}, platform: 'linux', electronDirectory, ...both })).toMatch(/no display \(DISPLAY and WAYLAND_DISPLAY are unset\)/);
    expect(desktopUnavailableReason({ env: { WAYLAND_DISPLAY: 'wayland-0' }, platform: 'linux', electronDirectory, ...both })).toBeNull();
    expect(desktopUnavailableReason({ env: {}, platform: 'darwin', electronDirectory, ...both })).toBeNull();
  });
});
