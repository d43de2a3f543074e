/**
 * Start at login, hidden in the tray. macOS and Windows: Electron's app.setLoginItemSettings with the
 * `--hidden` argument (Electron 44 removed `openAsHidden`; macOS passes no arguments, so there a start at
 * login is told by getLoginItemSettings().wasOpenedAtLogin instead). Linux has no setLoginItemSettings:
 * there it is an XDG autostart entry, <XDG_CONFIG_HOME or ~/.config>/autostart/wager-keeper.desktop
 * (Electron's appData is that folder on Linux), whose Exec carries `--hidden`; desktops that follow the
 * XDG autostart spec (GNOME, KDE, Xfce, …) run it at login.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Electron } from './electron-api';

/** The argument a start at login carries: the app starts in the tray without its window. */
export const HIDDEN_FLAG = '--hidden';
export const AUTOSTART_FILE_NAME = 'wager-keeper.desktop';

/** How this app is started again: the executable and the arguments before ours. */
export interface LaunchCommand {
  command: string;
  args: string[];
}

/**
 * The running app's own command: an AppImage's file (its executable lives in a temporary mount), or the
 * executable, plus the app's folder when it runs from the source tree (`electron .`, process.defaultApp).
 */
export function launchCommand(
  electron: Pick<Electron, 'app'>,
  env: NodeJS.ProcessEnv = process.env,
): LaunchCommand {
  const defaultApp = (process as NodeJS.Process & { defaultApp?: boolean }).defaultApp === true;
  return { command: env.APPIMAGE ?? process.execPath, args: defaultApp ? [electron.app.getAppPath()] : [] };
}

/** Started at login: `--hidden` on the command line, or (macOS) the login item opened it. */
export function startedHidden(
  electron: Pick<Electron, 'app'>,
  argv: readonly string[],
  platform: NodeJS.Platform,
): boolean {
  if (argv.includes(HIDDEN_FLAG)) return true;
  return (
    platform === 'darwin' &&
    typeof electron.app.getLoginItemSettings === 'function' &&
    electron.app.getLoginItemSettings().wasOpenedAtLogin === true
  );
}

export interface LoginItem {
  isEnabled(): boolean;
  setEnabled(enabled: boolean): void;
  /** How it works on this platform and (macOS) what the system says of it now, in words (Settings shows it). */
  readonly note: string;
}

/** A start at login this app will not set up, with the sentence that says why (shown as it is). */
export class LoginItemRefused extends Error {
  override name = 'LoginItemRefused';
}

/**
 * macOS's answer for the registration (getLoginItemSettings().status, SMAppService; app.md), in words.
 * openAtLogin is true only for 'enabled' (shell/browser/browser_mac.mm), so without these words a
 * registration waiting for approval looked like a box that unticked itself.
 */
export function macLoginItemStatusInWords(status: string | undefined): string {
  switch (status) {
    case 'enabled':
      return 'macOS starts Wager Keeper in the menu bar when you log in.';
    case 'requires-approval':
      return 'Waiting for your approval: open System Settings → General → Login Items and turn Wager Keeper on (macOS asks once for a new login item).';
    case 'not-found':
      return 'macOS cannot find this copy of Wager Keeper to start at login: move it to the Applications folder, open it from there, and tick the box again.';
    default:
      return 'Starts Wager Keeper in the menu bar when you log in (macOS honours it for a signed app in Applications).';
  }
}

export const MAC_NOT_PACKAGED =
  'start at login needs the installed app: under `npm start` macOS would register Electron.app itself, which opens Electron’s default window at every login. Install Wager Keeper (npm run package) and tick it there';

/** An argument of a desktop entry's Exec key, quoted as the Desktop Entry spec asks, then escaped as a string value. */
export function desktopEntryArgument(argument: string): string {
  const quoted =
    /[\s"'\\<>~|&;$*?#()`]/.test(argument) || argument === ''
      ? `"${argument.replace(/["`$\\]/g, (c) => `\\${c}`)}"`
      : argument;
  return quoted.replace(/\\/g, '\\\\').replace(/%/g, '%%');
}

export function autostartEntry(launch: LaunchCommand): string {
  const exec = [launch.command, ...launch.args, HIDDEN_FLAG].map(desktopEntryArgument).join(' ');
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Wager Keeper',
    'Comment=Keeps your Wager Keeper keeper cranking, in the tray',
    `Exec=${exec}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function createLoginItem(
  electron: Pick<Electron, 'app'>,
  platform: NodeJS.Platform,
  launch: LaunchCommand = launchCommand(electron),
): LoginItem {
  const { app } = electron;
  if (platform === 'darwin') {
    // SMAppService registers the running bundle and ignores path and args (app.md, setLoginItemSettings).
    const status = () => app.getLoginItemSettings().status;
    return {
      // A registration waiting for approval stays ticked: the note says what macOS waits for.
      isEnabled: () => ['enabled', 'requires-approval'].includes(status() ?? ''),
      setEnabled(enabled) {
        if (enabled && !app.isPackaged) throw new LoginItemRefused(MAC_NOT_PACKAGED);
        app.setLoginItemSettings({ openAtLogin: enabled });
      },
      get note() {
        return macLoginItemStatusInWords(status());
      },
    };
  }
  if (platform === 'win32') {
    const args = [...launch.args, HIDDEN_FLAG];
    return {
      // Windows matches the Run entry by path and arguments: ask with the same ones (app.md).
      isEnabled: () => app.getLoginItemSettings({ path: launch.command, args }).openAtLogin,
      setEnabled: (enabled) => app.setLoginItemSettings({ openAtLogin: enabled, path: launch.command, args }),
      note: 'Starts Wager Keeper in the notification area when you sign in (Task Manager → Startup apps lists it).',
    };
  }
  // Linux (and other XDG desktops): Electron has no setLoginItemSettings here; an XDG autostart entry does it.
  const file = join(app.getPath('appData'), 'autostart', AUTOSTART_FILE_NAME);
  return {
    isEnabled: () => existsSync(file),
    setEnabled(enabled) {
      if (!enabled) return rmSync(file, { force: true });
      mkdirSync(join(app.getPath('appData'), 'autostart'), { recursive: true });
      writeFileSync(file, autostartEntry(launch));
    },
    note: `Starts Wager Keeper in the tray when you log in, through ${file} (XDG autostart: GNOME, KDE, Xfce and most desktops).`,
  };
}
