/**
 * The built console's files (out/renderer), served from memory. Hono's serveStatic streams each file in
 * 64 KiB reads, one event-loop turn each; in `serve` the same loop runs the localnet and the keeper, so the
 * ~800 KB first load took 13 turns behind their work (0.7-0.9 s measured). A file read once and answered
 * in one write takes one turn. A file is read again when its modification time changes (a rebuild while
 * serving).
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { getMimeType } from 'hono/utils/mime';

interface CachedFile {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  modifiedMs: number;
}

export interface ConsoleFile {
  body: Uint8Array<ArrayBuffer>;
  headers: Record<string, string>;
}

/** `read('/assets/index-abc.js')` → the file and its headers, or null (missing, a folder, or outside the UI folder). */
export function createConsoleFiles(uiDirectory: string): { read(path: string): ConsoleFile | null } {
  const root = resolve(uiDirectory);
  const cache = new Map<string, CachedFile>();
  return {
    read(path) {
      const relative = path === '/' || path === '' ? '/index.html' : path;
      const full = resolve(root, `.${relative}`);
      if (!full.startsWith(root + sep)) return null;
      let modifiedMs: number;
      try {
        const stats = statSync(full);
        if (!stats.isFile()) return null;
        modifiedMs = stats.mtimeMs;
      } catch {
        return null;
      }
      let file = cache.get(full);
      if (!file || file.modifiedMs !== modifiedMs) {
        const bytes = readFileSync(full);
        file = {
          body: new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)),
          type: getMimeType(full) ?? 'application/octet-stream',
          modifiedMs,
        };
        cache.set(full, file);
      }
      // Built assets carry a content hash in their names: a browser may keep them; index.html it must re-ask.
      const immutable = relative.startsWith('/assets/');
      return {
        body: file.body,
        headers: {
          'content-type': file.type,
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        },
      };
    },
  };
}
