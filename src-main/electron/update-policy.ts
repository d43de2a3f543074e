/**
 * How this install takes an update, decided from what it is (no Electron, no I/O: update-install-facts.ts
 * reads the facts, app-updates.ts acts on the answer):
 * - Windows (the NSIS installer) and Linux AppImage update in place: electron-updater downloads in the
 *   background, checks the file's sha512 against latest.yml / latest-linux.yml, and installs on "Restart to
 *   update". On Windows it also checks the installer's Authenticode signature against `publisherName` from
 *   app-update.yml, which electron-builder writes only when it signed the build with a certificate
 *   (app-builder-lib PublishManager: `publisherName` from `win.signtoolOptions.publisherName` or the
 *   certificate's common name); an unsigned build gets the sha512 check alone
 *   (electron-updater NsisUpdater.verifySignature answers null without a publisherName).
 * - macOS updates in place only when the app is signed with a Developer ID: Squirrel.Mac refuses to install
 *   into an app that is not ("Your application must be signed for automatic updates on macOS. This is a
 *   requirement of Squirrel.Mac", Electron's autoUpdater docs; electron-builder's Auto Update page: "Code
 *   signing is required on macOS"). An ad-hoc signed build (what `npm run package` makes without a
 *   certificate) gets a notice with a link instead.
 * - A deb (and rpm, pacman) belongs to the package manager: a notice with a link (the app never asks for
 *   root to run dpkg itself).
 * - Not packaged (`npm start`, `npm run desktop`): no checks at all (electron-updater's isUpdaterActive
 *   skips an unpacked app too); the app says so.
 */

/** electron-updater reads app-update.yml from resources; electron-builder writes it from `publish`. */
export interface FeedConfig {
  provider: string;
  owner?: string;
  repo?: string;
  url?: string;
  /** Windows: the certificate names an installer must be signed with (present only on signed builds). */
  publisherName?: string[];
  [key: string]: unknown;
}

export interface InstallFacts {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  /** process.env.APPIMAGE, set by the AppImage runtime to the .AppImage file's path. */
  appImage: string | undefined;
  /** resources/package-type ('deb', 'rpm', 'pacman'), which electron-builder writes for those targets. */
  packageType: string | null;
  /** macOS: how the running app bundle is signed (codesign -dv); null elsewhere. */
  macSignature: 'developerId' | 'adhoc' | 'unsigned' | null;
  /** resources/app-update.yml, or null when the build has none. */
  feed: FeedConfig | null;
}

export type UpdateMode =
  | { kind: 'none'; reason: string }
  | { kind: 'inPlace' | 'notice'; how: string; verification: string };

/** The feed is read at start and every 12 hours (issue 34). */
export const UPDATE_CHECK_INTERVAL_MS = 12 * 60 * 60 * 1000;

export const NOT_PACKAGED_REASON =
  'This copy runs from the source tree (npm start or npm run desktop), not from an installer, so it does not update itself: pull the new version and build it again.';

export function updateMode(facts: InstallFacts, mirror: string): UpdateMode {
  if (!facts.isPackaged) return { kind: 'none', reason: NOT_PACKAGED_REASON };
  if (!facts.feed && !mirror)
    return {
      kind: 'none',
      reason:
        'This build was packaged without a release feed (no app-update.yml beside app.asar): set a mirror feed in Settings → Desktop app, or install a released build.',
    };
  const sha = (file: string) => `the download's sha512 must match the one ${file} on the feed lists`;
  if (facts.platform === 'win32') {
    const names = facts.feed?.publisherName ?? [];
    return {
      kind: 'inPlace',
      how: 'Windows: downloaded in the background and installed in place by the installer when you choose Restart to update.',
      verification: names.length
        ? `${sha('latest.yml')}, and the installer's Windows (Authenticode) signature must be valid and issued to ${names.join(' or ')}.`
        : `${sha('latest.yml')}. This build was not code-signed, so no publisher is named and the installer's Windows signature is not checked.`,
    };
  }
  if (facts.platform === 'darwin') {
    if (facts.macSignature === 'developerId')
      return {
        kind: 'inPlace',
        how: 'macOS: downloaded in the background and installed in place when you choose Restart to update.',
        verification: `${sha('latest-mac.yml')}, and macOS's updater (Squirrel.Mac) installs it only if it is signed by the same Developer ID as this app.`,
      };
    return {
      kind: 'notice',
      how: 'macOS: this build is not signed with a Developer ID, and macOS’s updater (Squirrel.Mac) refuses to update such an app in place. The app tells you when a new version is out and links to its release page: download it and replace the app in Applications, as you installed this one.',
      verification: 'Nothing is downloaded by the app: you download the new version from its release page.',
    };
  }
  if (facts.appImage)
    return {
      kind: 'inPlace',
      how: 'Linux AppImage: downloaded in the background and swapped for this .AppImage file when you choose Restart to update.',
      verification: `${sha('latest-linux.yml')}. An AppImage carries no signature the system checks, so nothing else is.`,
    };
  const manager = facts.packageType ?? 'unpacked';
  return {
    kind: 'notice',
    how:
      manager === 'deb'
        ? 'Linux deb: updated by the package manager, not by the app. The app tells you when a new version is out and links to its release page: download the new .deb and install it with `sudo apt install ./<file>.deb`.'
        : `Linux (${manager}): updated outside the app. The app tells you when a new version is out and links to its release page.`,
    verification: 'Nothing is downloaded by the app: your package manager installs the file you download.',
  };
}

/** The feed the app was built with, in words (Settings shows it beside the mirror field). */
export function builtInFeedInWords(feed: FeedConfig | null): string {
  if (!feed) return 'none (this build has no app-update.yml)';
  if (feed.provider === 'github' && feed.owner && feed.repo) return `GitHub releases of ${feed.owner}/${feed.repo}`;
  if (feed.url) return `${feed.url} (${feed.provider})`;
  return feed.provider;
}

/** Where a person gets `version` by hand: its GitHub release, or the mirror's (or generic feed's) folder. */
export function releasePageUrl(feed: FeedConfig | null, mirror: string, version: string): string | null {
  if (mirror) return mirror;
  if (feed?.provider === 'github' && feed.owner && feed.repo)
    // electron-builder's default tag is v${version} (publish `vPrefixedTagName`).
    return `https://github.com/${feed.owner}/${feed.repo}/releases/tag/v${version}`;
  return feed?.url ?? null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Checks a mirror feed address: https, or http on this machine only. The sha512 an update is checked
 * against comes from the same feed, so a feed read over plain http from the network could be swapped on
 * the way, installer and checksum together.
 */
export function checkFeedUrl(text: unknown): string {
  if (typeof text !== 'string') throw new Error('updateFeedUrl must be text: the address of the mirror, or empty for the built-in feed');
  const trimmed = text.trim();
  if (trimmed === '') return '';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error(`'${trimmed}' is not an address: give the mirror's https:// URL (the folder holding latest.yml, latest-mac.yml, latest-linux.yml and the installers)`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)))
    throw new Error(
      `the mirror must be served over https (http only on this machine, 127.0.0.1 or localhost): the checksum an update is verified with comes from the same feed. Give an https:// address`,
    );
  return url.href;
}

/** A check, download or verification failure in words, with what to do next. */
export function updateFailureInWords(error: unknown, version: string | null, feed: string): string {
  const { message = String(error), code } = (error ?? {}) as { message?: string; code?: string };
  const which = version ? `version ${version}` : 'the new version';
  if (code === 'ERR_CHECKSUM_MISMATCH' || /sha512 checksum mismatch/i.test(message))
    return `The download of ${which} did not match the sha512 checksum its release feed lists, so it was discarded and nothing was installed. The file was changed or damaged on the way or on the server: the app tries again at the next check (or choose Check now); if this lasts, tell whoever runs ${feed}.`;
  if (code === 'ERR_UPDATER_INVALID_SIGNATURE' || /not signed by the application owner/i.test(message))
    return `The downloaded installer of ${which} is not signed by this app's publisher, so it was discarded and nothing was installed (${message}). Download the new version from the project's release page yourself, and tell the maintainers.`;
  if (/ENOTFOUND|ECONNREFUSED|ETIMEDOUT|ECONNRESET|ERR_INTERNET_DISCONNECTED|ERR_NAME_NOT_RESOLVED|ERR_CONNECTION/i.test(`${code ?? ''} ${message}`))
    return `The update feed (${feed}) could not be reached (${message.split('\n')[0]}). The app tries again in 12 hours; check the connection, or the mirror address in Settings → Desktop app.`;
  if (/\b404\b|HttpError: 404|Cannot find/i.test(message))
    return `The update feed (${feed}) has no update file for this platform (${message.split('\n')[0]}). Check the mirror address in Settings → Desktop app, or tell whoever publishes the releases.`;
  return `Updating failed: ${message.split('\n')[0]}. The app tries again at the next check (or choose Check now).`;
}

/**
 * app-update.yml as electron-builder writes it (flat `key: value` lines, a list as `- item` lines under its
 * key), e.g. `provider: github` / `owner: …` / `repo: …` / `updaterCacheDirName: …`.
 */
export function parseAppUpdateConfig(text: string): FeedConfig | null {
  const config: Record<string, unknown> = {};
  let listKey: string | null = null;
  const unquote = (value: string) => value.trim().replace(/^(['"])(.*)\1$/, '$2');
  for (const line of text.split(/\r?\n/)) {
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (item && listKey) {
      (config[listKey] as string[]).push(unquote(item[1]!));
      continue;
    }
    const pair = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (!pair) continue;
    const [, key, value] = pair as unknown as [string, string, string];
    if (value.trim() === '') {
      listKey = key;
      config[key] = [];
    } else {
      listKey = null;
      config[key] = unquote(value);
    }
  }
  if (typeof config.provider !== 'string') return null;
  if (typeof config.publisherName === 'string') config.publisherName = [config.publisherName];
  return config as FeedConfig;
}
