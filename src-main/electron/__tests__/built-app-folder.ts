/**
 * A built app's folder as runDesktopApp reads it, for tests of the desktop main: out/ with the preload and
 * (unless `page` is false) the page, and resources/icons with the real icons.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Makes the folder `app`; answers its out/ and the page's file:// URL. */
export function builtAppFolder(app: string, page = true): { out: string; pageUrl: string } {
  const out = join(app, 'out');
  mkdirSync(join(out, 'preload'), { recursive: true });
  mkdirSync(join(out, 'renderer'), { recursive: true });
  mkdirSync(join(app, 'resources', 'icons'), { recursive: true });
  writeFileSync(join(out, 'preload', 'index.cjs'), '');
  if (page) writeFileSync(join(out, 'renderer', 'index.html'), '<!doctype html><title>Wager Keeper</title>');
  for (const icon of ['icon.png', 'trayTemplate.png', 'trayTemplate@2x.png', 'tray.ico'])
    copyFileSync(new URL(`../../../resources/icons/${icon}`, import.meta.url), join(app, 'resources', 'icons', icon));
  return { out, pageUrl: pathToFileURL(join(out, 'renderer', 'index.html')).href };
}
