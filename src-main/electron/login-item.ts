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
  /** How it works on this platform, in words (Settings shows it). */
  readonly note: string;
}

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
  if (platform === 'darwin' || platform === 'win32') {
    const args = [...launch.args, HIDDEN_FLAG];
    return {
      // Windows matches the entry by path and arguments; macOS ignores both.
      isEnabled: () => app.getLoginItemSettings({ path: launch.command, args }).openAtLogin,
      setEnabled: (enabled) => app.setLoginItemSettings({ openAtLogin: enabled, path: launch.command, args }),
      note:
        platform === 'darwin'
          ? 'Starts Wager Keeper in the menu bar when you log in (macOS honours it for a signed, packaged app).'
          : 'Starts Wager Keeper in the notification area when you sign in (Task Manager → Startup apps lists it).',
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
