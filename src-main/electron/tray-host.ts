/**
 * Is there a tray a person can see? On Linux Electron's Tray is Chromium's StatusNotifierItem when the
 * session bus's org.kde.StatusNotifierWatcher has a host registered (its IsStatusNotifierHostRegistered
 * property), asked once, when the Tray is made; otherwise a GtkStatusIcon, which vanilla GNOME (Fedora,
 * Debian) does not show (chrome/browser/ui/views/status_icons/status_icon_linux_dbus.cc; tray.md,
 * "Platform Considerations"). Electron exposes no signal for it, so the app asks the same property itself.
 *
 * Through the system's D-Bus command-line clients (`gdbus`, from GLib, which Electron itself links; else
 * `dbus-send`), not an npm D-Bus library: dbus-next would add event-stream, xml2js and a node-gyp native
 * `usocket` to the installer for one property read. No client, no session bus, no answer within
 * TRAY_HOST_TIMEOUT_MS: counted as no host (the safe side: the window minimises instead of hiding, and a
 * hidden start shows it). macOS and Windows always have their menu bar and notification area.
 */
import { execFile } from 'node:child_process';

export const TRAY_HOST_TIMEOUT_MS = 2_000;

/** Runs a command; answers its stdout, or null when it cannot be run, fails or times out. */
export type CommandRunner = (command: string, args: string[]) => Promise<string | null>;

const runCommand: CommandRunner = (command, args) =>
  new Promise((resolve) => {
    execFile(command, args, { timeout: TRAY_HOST_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout) =>
      resolve(error ? null : stdout),
    );
  });

const WATCHER = 'org.kde.StatusNotifierWatcher';
const QUERIES: { command: string; args: string[]; parse(stdout: string): boolean | null }[] = [
  {
    // Prints `(<true>,)`.
    command: 'gdbus',
    args: ['call', '--session', '--dest', WATCHER, '--object-path', '/StatusNotifierWatcher',
      '--method', 'org.freedesktop.DBus.Properties.Get', WATCHER, 'IsStatusNotifierHostRegistered'],
    parse: (stdout) => (/<true>/.test(stdout) ? true : /<false>/.test(stdout) ? false : null),
  },
  {
    // Prints `   variant       boolean true`.
    command: 'dbus-send',
    args: ['--session', '--print-reply=literal', `--dest=${WATCHER}`, '/StatusNotifierWatcher',
      'org.freedesktop.DBus.Properties.Get', `string:${WATCHER}`, 'string:IsStatusNotifierHostRegistered'],
    parse: (stdout) => (/boolean\s+true/.test(stdout) ? true : /boolean\s+false/.test(stdout) ? false : null),
  },
];

/**
 * Whether a tray icon made now is shown: true on macOS and Windows; on Linux, whether a
 * StatusNotifierItem host is registered on the session bus now.
 */
export async function trayHostAvailable(
  platform: NodeJS.Platform,
  run: CommandRunner = runCommand,
): Promise<boolean> {
  if (platform === 'darwin' || platform === 'win32') return true;
  for (const query of QUERIES) {
    const stdout = await run(query.command, query.args);
    if (stdout === null) continue; // not installed, or the watcher is absent (an error): try the next
    const answer = query.parse(stdout);
    if (answer !== null) return answer;
  }
  return false;
}
