/**
 * What this install is, for update-policy.ts: packaged or not (app.isPackaged), an AppImage (the AppImage
 * runtime sets APPIMAGE), a deb/rpm/pacman (electron-builder writes resources/package-type for those, which
 * electron-updater's own autoUpdater reads too), the feed it was built with (resources/app-update.yml, which
 * electron-updater reads in a packaged app: ElectronAppAdapter.appUpdateConfigPath), and on macOS how the
 * bundle is signed (`codesign -dv`: "Signature=adhoc" for an ad-hoc seal, an "Authority=Developer ID
 * Application: …" line for a Developer ID).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Electron } from './electron-api';
import { parseAppUpdateConfig, type InstallFacts } from './update-policy';

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/** How the running macOS app bundle is signed, from `codesign -dv --verbose=2 <bundle>` (it writes to stderr). */
export function macSignatureOf(codesignOutput: string, failed: boolean): InstallFacts['macSignature'] {
  if (/not signed at all/i.test(codesignOutput)) return 'unsigned';
  if (/^Authority=Developer ID Application:/m.test(codesignOutput)) return 'developerId';
  if (/^Signature=adhoc/m.test(codesignOutput) || /TeamIdentifier=not set/.test(codesignOutput)) return 'adhoc';
  return failed ? 'unsigned' : 'adhoc';
}

function readMacSignature(execPath: string): Promise<InstallFacts['macSignature']> {
  // …/Wager Keeper.app/Contents/MacOS/Wager Keeper → …/Wager Keeper.app
  const bundle = execPath.replace(/(\.app)\/Contents\/MacOS\/[^/]+$/, '$1');
  return new Promise((resolve) => {
    execFile('codesign', ['-dv', '--verbose=2', bundle], { timeout: 10_000 }, (error, stdout, stderr) =>
      resolve(macSignatureOf(`${stdout}\n${stderr}`, error !== null)),
    );
  });
}

export async function readInstallFacts(
  electron: Pick<Electron, 'app'>,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv = process.env,
): Promise<InstallFacts> {
  const isPackaged = electron.app.isPackaged === true;
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  if (!isPackaged || !resources)
    return { isPackaged: false, platform, appImage: undefined, packageType: null, macSignature: null, feed: null };
  const [config, packageType, macSignature] = await Promise.all([
    readText(join(resources, 'app-update.yml')),
    readText(join(resources, 'package-type')),
    platform === 'darwin' ? readMacSignature(process.execPath) : Promise.resolve(null),
  ]);
  return {
    isPackaged,
    platform,
    appImage: platform === 'linux' ? env.APPIMAGE || undefined : undefined,
    packageType: packageType?.trim() || null,
    macSignature,
    feed: config === null ? null : parseAppUpdateConfig(config),
  };
}
