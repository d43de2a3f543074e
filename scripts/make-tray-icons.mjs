#!/usr/bin/env node
/**
 * Makes the tray icons from resources/icons/icon.png (issue 34, item 10), with nothing but node:zlib:
 * - trayTemplate.png (16 px) and trayTemplate@2x.png (32 px): macOS template images, black plus alpha
 *   (native-image.md, "Template Image"): the icon's bright strokes (the ring and the zigzag) become opaque
 *   black, its dark face transparent, so the menu bar tints it for light and dark mode;
 * - tray.ico: 16, 20, 24, 32 and 48 px, each a PNG inside the ICO (Windows Vista and later read those;
 *   tray.md recommends an ICO on Windows for the best result at each scale).
 * Run: node scripts/make-tray-icons.mjs (the outputs are committed; re-run when icon.png changes).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';

const ICONS = join(import.meta.dirname, '..', 'resources', 'icons');

/** Decodes an 8-bit RGBA, non-interlaced PNG (what icon.png is) into { width, height, pixels }. */
function decodePng(bytes) {
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 6 || data[12] !== 0)
        throw new Error('icon.png must be 8-bit RGBA without interlacing');
    } else if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= 4 ? pixels[y * stride + x - 4] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= 4 && y > 0 ? pixels[(y - 1) * stride + x - 4] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter];
      pixels[y * stride + x] = (line[x] + predictor) & 0xff;
    }
  }
  return { width, height, pixels };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buffer) => {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
};

/** Encodes RGBA pixels as a PNG (filter 0 on every line). */
function encodePng({ width, height, pixels }) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) pixels.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Area-averaged downscale (alpha-weighted colour), good for large ratios such as 512 → 16. */
function resize(image, size) {
  const { width, height, pixels } = image;
  const out = Buffer.alloc(size * size * 4);
  const step = width / size;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      let r = 0, g = 0, b = 0, a = 0, n = 0;
      for (let sy = Math.floor(y * step); sy < Math.floor((y + 1) * step); sy++)
        for (let sx = Math.floor(x * step); sx < Math.floor((x + 1) * step); sx++) {
          const i = (sy * width + sx) * 4;
          const alpha = pixels[i + 3];
          r += pixels[i] * alpha; g += pixels[i + 1] * alpha; b += pixels[i + 2] * alpha; a += alpha; n++;
        }
      const o = (y * size + x) * 4;
      if (a > 0) out.set([Math.round(r / a), Math.round(g / a), Math.round(b / a)], o);
      out[o + 3] = Math.round(a / n);
    }
  void height;
  return { width: size, height: size, pixels: out };
}

/** Black plus alpha: opacity follows the icon's brightness (the face #0d1117 vanishes, strokes stay). */
function template(image) {
  const pixels = Buffer.alloc(image.pixels.length);
  for (let i = 0; i < pixels.length; i += 4) {
    const [r, g, b, a] = image.pixels.subarray(i, i + 4);
    const luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    const strength = Math.min(1, Math.max(0, (luminance - 0.12) / 0.3));
    pixels[i + 3] = Math.round(a * strength);
  }
  return { ...image, pixels };
}

/** An ICO whose images are PNGs (each entry: size, 32 bpp, the PNG's bytes). */
function ico(pngs) {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach(({ size, bytes }, index) => {
    const entry = 6 + 16 * index;
    header[entry] = size >= 256 ? 0 : size;
    header[entry + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(bytes.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += bytes.length;
  });
  return Buffer.concat([header, ...pngs.map((png) => png.bytes)]);
}

const icon = decodePng(readFileSync(join(ICONS, 'icon.png')));
writeFileSync(join(ICONS, 'trayTemplate.png'), encodePng(template(resize(icon, 16))));
writeFileSync(join(ICONS, 'trayTemplate@2x.png'), encodePng(template(resize(icon, 32))));
writeFileSync(
  join(ICONS, 'tray.ico'),
  ico([16, 20, 24, 32, 48].map((size) => ({ size, bytes: encodePng(resize(icon, size)) }))),
);
console.log('wrote trayTemplate.png, trayTemplate@2x.png and tray.ico in resources/icons');
