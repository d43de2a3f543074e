/**
 * The rooms' boundaries (issue 35): the rooms of src-main import one way (no circle); the console page
 * (src-renderer) imports, of our own code, only itself and src-shared (through the `@shared` alias); and
 * src-shared imports nothing but itself: no `node:*`, no Electron, no package. Type-only imports count too: a type reached from the page drags its module into the
 * page's program, and once one did, the renderer's import graph held 16 src-main files (node:sqlite among them).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** The module a relative specifier names, or null (a stylesheet, an asset, nothing). */
function resolveFile(base: string): string | null {
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** Every non-test .ts/.tsx module below `dir`. */
function modulesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__tests__' ? [] : modulesBelow(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Rooms {
  renderer: string;
  shared: string;
}

/** Every import (value or type) of every non-test module reachable from the page and src-shared, and where it lands. */
function boundaryViolations(rooms: Rooms): string[] {
  const violations: string[] = [];
  const seen = new Set<string>();
  const inside = (file: string, dir: string) => file.startsWith(dir + '/');
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const shared = inside(file, rooms.shared);
    for (const { fileName: spec } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const where = `${relative(root, file)} imports '${spec}'`;
      let target: string | null;
      if (spec.startsWith('@shared/')) target = resolveFile(join(rooms.shared, spec.slice('@shared/'.length)));
      else if (spec.startsWith('.')) target = resolveFile(resolve(dirname(file), spec));
      else {
        if (shared) violations.push(`${where}: src-shared imports no package`);
        else if (spec.startsWith('node:') || spec === 'electron' || spec.startsWith('electron/')) violations.push(`${where}: the page runs no Node or Electron`);
        continue;
      }
      if (!target) continue; // a stylesheet or an asset
      if (shared && !inside(target, rooms.shared)) violations.push(`${where}: src-shared imports only src-shared`);
      else if (!inside(target, rooms.shared) && !inside(target, rooms.renderer)) violations.push(`${where}: the page imports only src-renderer and src-shared`);
      else if (!shared && inside(target, rooms.shared) && spec.startsWith('.')) violations.push(`${where}: the page reaches src-shared through @shared`);
      else visit(target);
    }
  };
  for (const file of [...modulesBelow(rooms.renderer), ...modulesBelow(rooms.shared)]) visit(file);
  return violations;
}

/**
 * The circles among the rooms of `core` (its folders; a file at its top is a room of its own): rooms that
 * import each other, directly or through others, each circle as its rooms sorted. A room may only import
 * rooms below it, so the answer is empty.
 */
function roomCircles(core: string): string[][] {
  const roomOf = (file: string) => relative(core, file).split('/')[0]!;
  const arrows = new Map<string, Set<string>>();
  for (const file of modulesBelow(core)) {
    const from = roomOf(file);
    for (const { fileName: spec } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = spec.startsWith('.') ? resolveFile(resolve(dirname(file), spec)) : null;
      if (!target || !target.startsWith(core + '/') || roomOf(target) === from) continue;
      if (!arrows.has(from)) arrows.set(from, new Set());
      arrows.get(from)!.add(roomOf(target));
    }
  }
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set([from]);
    const queue = [from];
    for (let room = queue.shift(); room !== undefined; room = queue.shift()) {
      if (room === to) return true;
      for (const next of arrows.get(room) ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    return false;
  };
  const circles = new Map<string, string[]>();
  for (const [from, targets] of arrows)
    for (const to of targets)
      if (reaches(to, from)) {
        const circle = [...arrows.keys()].filter((room) => reaches(room, from) && reaches(from, room)).sort();
        circles.set(circle.join(' '), circle);
      }
  return [...circles.values()];
}

describe('the import boundaries of the page and the shared room', () => {
  it('the renderer imports only itself and src-shared (by @shared); src-shared only itself', () => {
    expect(boundaryViolations({ renderer: join(root, 'src-renderer/src'), shared: join(root, 'src-shared') })).toEqual([]);
  });

  it('the check catches a page importing src-main (by type too), Node, or a relative path into src-shared, and src-shared importing a package', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-boundaries-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write('src-main/store/database.ts', "import { DatabaseSync } from 'node:sqlite';\nexport type Database = DatabaseSync;\n");
    write('src-shared/contract/status.ts', "import type { Database } from '../../src-main/store/database';\nexport type X = Database;\n");
    write('src-shared/units.ts', "import { z } from 'zod';\nexport const u = z;\n");
    write('src-renderer/src/App.tsx', "import type { X } from '@shared/contract/status';\nimport { readFileSync } from 'node:fs';\nimport '../../src-shared/units';\nexport const a: X | null = null;\n");
    expect(boundaryViolations({ renderer: join(dir, 'src-renderer/src'), shared: join(dir, 'src-shared') }).sort()).toEqual([
      "src-renderer/src/App.tsx imports 'node:fs': the page runs no Node or Electron",
      "src-renderer/src/App.tsx imports '../../src-shared/units': the page reaches src-shared through @shared",
      "src-shared/contract/status.ts imports '../../src-main/store/database': src-shared imports only src-shared",
      "src-shared/units.ts imports 'zod': src-shared imports no package",
    ].map((line) => line.replace(/^src-/, `${relative(root, dir)}/src-`)).sort());
  });
});

describe('the rooms of the core', () => {
  it('src-main\'s rooms import one way: no two rooms import each other, directly or through others', () => {
    expect(roomCircles(join(root, 'src-main'))).toEqual([]);
  });

  it('the check finds a circle of rooms', () => {
    const dir = mkdtempSync(join(tmpdir(), 'room-circles-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write('runtime/keeper-control.ts', "import type { Relay } from './relay';\nexport type Control = Relay;\n");
    write('runtime/operator-service.ts', "import { createStatusService } from '../operator/status-service';\nexport const s = createStatusService;\n");
    write('operator/status-service.ts', "import type { Control } from '../runtime/keeper-control';\nexport const createStatusService = (c: Control) => c;\n");
    write('runtime/relay.ts', 'export type Relay = number;\n');
    write('store/database.ts', 'export const db = 1;\n');
    write('keeper/keeper.ts', "import { db } from '../store/database';\nexport const k = db;\n");
    expect(roomCircles(dir)).toEqual([['operator', 'runtime']]);
  });
});
