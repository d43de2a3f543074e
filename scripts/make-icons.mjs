#!/usr/bin/env node
// Regenerates resources/icons/icon.ico (the Windows installer, shortcuts and taskbar icon) from
// resources/icons/icon.png: `node scripts/make-icons.mjs` after changing the PNG, then commit both.
// The ICO holds 16, 32, 48 and 256 px images (png-to-ico's sizes, the ones Windows asks for), so Windows
// never scales the 512 px PNG itself. src-main/__tests__/packaging.test.ts fails while the committed ICO
// is not what this script makes from the committed PNG.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pngToIco from 'png-to-ico';

const icons = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'icons');

/** The ICO file's bytes for the PNG at `png` (square, at least 256 px). */
export async function icoFromPng(png) {
  return pngToIco(png);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ico = await icoFromPng(join(icons, 'icon.png'));
  writeFileSync(join(icons, 'icon.ico'), ico);
  console.log(`wrote ${join(icons, 'icon.ico')} (${ico.length} bytes)`);
}
