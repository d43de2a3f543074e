/**
 * The committed programs in resources/programs/ are exactly what the sources build to, so anyone
 * can check that a deployed binary matches the code in this repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram, listPrograms, OUTPUT_DIR, programOutputPath } from '../build-programs.ts';
import { clangVersionMismatch, installedClangVersion, recordedClangVersion, REPO_ROOT } from '../compile.ts';

const programs = listPrograms();
const REBUILD = 'run `npm run build:programs` and commit the result';
/** Said with every byte difference: a compiler other than the recorded one is the first suspect. */
const compilerNote = (): string => {
  const mismatch = clangVersionMismatch(installedClangVersion(), recordedClangVersion());
  return mismatch ? `; likely cause: ${mismatch}` : '';
};

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
    expect(at, `${OUTPUT_DIR}/${name}.so is stale (${detail}): ${REBUILD}${compilerNote()}`).toBe(-1);
  });

  it('records the clang version the committed programs were built with', () => {
    expect(recordedClangVersion(), 'program/toolchain/CLANG_VERSION is missing').toMatch(
      /clang version 19\.\d+\.\d+/,
    );
  });

  it('names a different installed clang as the cause of a difference', () => {
    const recorded = 'Debian clang version 19.1.7 (3~deb12u1)';
    expect(clangVersionMismatch(recorded, recorded)).toBeUndefined();
    const message = clangVersionMismatch('Debian clang version 19.1.8 (1~deb12u1)', recorded);
    expect(message).toContain('the installed clang-19 is "Debian clang version 19.1.8 (1~deb12u1)"');
    expect(message).toContain(`built with "${recorded}" (program/toolchain/CLANG_VERSION)`);
    expect(clangVersionMismatch(undefined, recorded)).toContain('clang-19 cannot be run');
    expect(clangVersionMismatch(recorded, undefined)).toContain('no compiler version recorded');
  });
});
