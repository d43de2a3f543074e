// Ubuntu 23.10+ (by default 24.04) lets only AppArmor-profiled programs create unprivileged user
// namespaces. Chromium's sandbox then needs its setuid helper, dist/chrome-sandbox, which npm leaves owned
// by the user, and Electron aborts at launch (SIGTRAP: "The SUID sandbox helper binary was found, but is
// not configured correctly", electron/electron#42510). Detected here before launch, with both real fixes.
// Never --no-sandbox: that turns Chromium's sandbox off for every process.
import { dirname, join } from 'node:path';

/** The sysctl kernel.apparmor_restrict_unprivileged_userns: "1" when the restriction is on. */
export const USERNS_RESTRICTION_FILE = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';
/** Where AppArmor profiles are installed (fix two writes ours there). */
export const APPARMOR_PROFILES_DIRECTORY = '/etc/apparmor.d';
export const PROFILE_NAME = 'wager-keeper-dev';

/** @typedef {import('./desktop-launch.mjs').Files} Files */

const SETUID = 0o4000;
const OTHERS_EXECUTE = 0o001;

/** Whether the restriction is on (the file is absent before Ubuntu 23.10 and on other distributions). */
function userNamespacesRestricted(/** @type {Files} */ files) {
  try {
    return files.read(USERNS_RESTRICTION_FILE).trim() === '1';
  } catch {
    return false;
  }
}

/** Fix one is in place: the helper is root's, setuid, and runnable by anyone (mode 4755). */
function sandboxHelperIsSetuidRoot(/** @type {Files} */ files, /** @type {string} */ helper) {
  try {
    const { uid, mode } = files.stat(helper);
    return uid === 0 && (mode & SETUID) !== 0 && (mode & OTHERS_EXECUTE) !== 0;
  } catch {
    return false;
  }
}

/** Fix two is in place: an installed profile names this executable and grants `userns`. */
function profileAllowsUserNamespaces(/** @type {Files} */ files, /** @type {string} */ executable) {
  let names;
  try {
    names = files.list(APPARMOR_PROFILES_DIRECTORY);
  } catch {
    return false;
  }
  return names.some((name) => {
    try {
      const profile = files.read(join(APPARMOR_PROFILES_DIRECTORY, name));
      return profile.includes(executable) && /^\s*userns\s*,/m.test(profile);
    } catch {
      return false; // a directory (abstractions/, local/...) or a profile we may not read
    }
  });
}

/** The setuid helper Chromium looks for beside the Electron executable. */
export const sandboxHelperOf = (/** @type {string} */ executable) =>
  join(dirname(executable), 'chrome-sandbox');

/**
 * Why Electron would abort at launch on this Linux machine, or null.
 * @param {{ platform: string, executable: string, files: Files }} options
 */
export function sandboxBlockReason({ platform, executable, files }) {
  if (platform !== 'linux' || !userNamespacesRestricted(files)) return null;
  const helper = sandboxHelperOf(executable);
  if (sandboxHelperIsSetuidRoot(files, helper) || profileAllowsUserNamespaces(files, executable)) return null;
  return (
    `this system restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1, Ubuntu 23.10 and later) ` +
    `and Electron's sandbox helper ${helper} is not owned by root with mode 4755, so Electron would abort at launch`
  );
}

/** Whether a sudden death of Electron may be this restriction (to repeat the fixes after one). */
export const userNamespacesRestrictedHere = (/** @type {string} */ platform, /** @type {Files} */ files) =>
  platform === 'linux' && userNamespacesRestricted(files);

/** A path as one shell word. */
const shellWord = (/** @type {string} */ path) => `'${path.replaceAll("'", "'\\''")}'`;

/**
 * Both fixes, as commands to paste (either one is enough), then `npm start` again. The commands sit at
 * the start of their lines so the here-document's closing EOF works when pasted.
 * @param {{ executable: string, profileTemplate: string }} options profileTemplate: resources/linux/wager-keeper-dev.apparmor
 */
export function sandboxFixes({ executable, profileTemplate }) {
  const helper = shellWord(sandboxHelperOf(executable));
  const profilePath = `${APPARMOR_PROFILES_DIRECTORY}/${PROFILE_NAME}`;
  const profile = profileTemplate.replaceAll('@ELECTRON_EXECUTABLE@', executable).trimEnd();
  return [
    'Fix it in one of two ways, then run `npm start` again:',
    '1. Make the sandbox helper setuid root (redo this after every reinstall of Electron):',
    `sudo chown root:root ${helper} && sudo chmod 4755 ${helper}`,
    '2. Or give this Electron binary an AppArmor profile that allows user namespaces (survives reinstalls):',
    `sudo tee ${profilePath} >/dev/null <<'EOF'`,
    profile,
    'EOF',
    `sudo apparmor_parser -r ${profilePath}`,
  ].join('\n');
}
