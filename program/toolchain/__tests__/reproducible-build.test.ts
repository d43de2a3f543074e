/**
 * The committed programs in resources/programs/ are exactly what the sources build to, so anyone
 * can check that a deployed binary matches the code in this repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram, listPrograms, OUTPUT_DIR, programOutputPath } from '../build-programs.ts';
import { REPO_ROOT } from '../compile.ts';

const programs = listPrograms();
const REBUILD = 'run `npm run build:programs` and commit the result';

/** Compares without dumping megabytes of diff: first differing offset, or -1. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : length;
}

describe('committed programs are reproducible from source', () => {
  it('has a committed build for every program folder', () => {
    const missing = programs.filter((name) => !existsSync(programOutputPath(name)));
    const paths = missing.map((name) => path.relative(REPO_ROOT, programOutputPath(name)));
    expect(paths, `missing ${paths.join(', ')}: ${REBUILD}`).toEqual([]);
  });

  it.each(programs)('%s builds deterministically to the committed bytes', async (name) => {
    const committedPath = programOutputPath(name);
    expect(existsSync(committedPath), `${OUTPUT_DIR}/${name}.so is missing: ${REBUILD}`).toBe(true);
    const committed = new Uint8Array(readFileSync(committedPath));

    const first = await buildProgram(name);
    const second = await buildProgram(name);
    expect(firstDifference(second, first), `two builds of ${name} differ (non-deterministic build)`).toBe(-1);

    const at = firstDifference(first, committed);
    const detail = `built ${first.length} bytes, committed ${committed.length}, first difference at byte ${at}`;
    expect(at, `${OUTPUT_DIR}/${name}.so is stale (${detail}): ${REBUILD}`).toBe(-1);
  });
});
