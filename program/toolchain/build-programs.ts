/**
 * Builds the on-chain programs: every `program/<name>/` folder with C sources becomes
 * `resources/programs/<name>.so`. Behind `npm run build:programs`; importing it has no side effects.
 *
 * A build compiles `program/<name>/*.c` then `program/include/*.c` (the SDK runtime, e.g. rt.c),
 * each sorted, into a temporary directory, and links them in that order with entry `entrypoint`.
 */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CLANG_VERSION_FILE,
  clangVersionMismatch,
  compileC,
  installedClangVersion,
  recordedClangVersion,
  REPO_ROOT,
} from './compile.ts';
import { DEFAULT_ENTRY, linkSbpfV0 } from './linker.ts';
import type { LinkInput, LinkStats } from './linker.ts';

/** Folders under program/ that are not programs. */
export const NON_PROGRAM_DIRS: ReadonlySet<string> = new Set(['include', 'toolchain', 'idl', '__tests__']);

/** Shared C SDK: headers for every program, and .c files linked into every program. */
export const INCLUDE_DIR = 'program/include';

/** Where built programs are committed. */
export const OUTPUT_DIR = 'resources/programs';

/** Options shared by the build functions. */
export interface BuildOptions {
  /** Repository root to build from. Default: this checkout. */
  readonly root?: string;
}

/** A built program with what the build log shows. */
export interface BuiltProgram {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly stats: LinkStats;
  /** Compiler warnings per source (relative path), only for sources that had any. */
  readonly warnings: readonly { source: string; text: string }[];
}

const PROGRAM_NAME = /^[a-z0-9][a-z0-9_-]*$/i;

function sortedCSources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  // Plain code-unit sort (not localeCompare) so the link order is the same in every locale.
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.c'))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Names of the programs under `program/`: folders other than include, toolchain, idl and
 * __tests__ that contain at least one `.c` file. Sorted.
 */
export function listPrograms(options: BuildOptions = {}): string[] {
  const programDir = path.join(options.root ?? REPO_ROOT, 'program');
  if (!existsSync(programDir)) return [];
  return readdirSync(programDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !NON_PROGRAM_DIRS.has(entry.name))
    .map((entry) => entry.name)
    .filter((name) => sortedCSources(path.join(programDir, name)).length > 0)
    .sort();
}

/** Path of the committed build of `name` (may not exist). */
export function programOutputPath(name: string, options: BuildOptions = {}): string {
  return path.join(options.root ?? REPO_ROOT, OUTPUT_DIR, `${name}.so`);
}

/**
 * Compiles and links one program; writes nothing outside a temporary directory it removes.
 *
 * @throws {Error} if `name` is not a program; {@link CompileError} / {@link LinkError} from the build
 */
export async function buildProgramWithStats(name: string, options: BuildOptions = {}): Promise<BuiltProgram> {
  const root = path.resolve(options.root ?? REPO_ROOT);
  if (!PROGRAM_NAME.test(name) || !listPrograms({ root }).includes(name)) {
    throw new Error(
      `no program named ${JSON.stringify(name)} (expected a folder program/<name>/ with .c files)`,
    );
  }
  // Relative, forward-slash paths: they end up in __FILE__ and in error messages.
  const sources = [
    ...sortedCSources(path.join(root, 'program', name)).map((file) => `program/${name}/${file}`),
    ...sortedCSources(path.join(root, INCLUDE_DIR)).map((file) => `${INCLUDE_DIR}/${file}`),
  ];

  const workDir = await mkdtemp(path.join(os.tmpdir(), `wager-keeper-build-${name}-`));
  try {
    // Every compile finishes before the work directory is removed: with Promise.all the first failure
    // would reject while other clang processes still write their objects, and `rm` would then fail
    // (ENOTEMPTY) and hide the compiler's error.
    const settled = await Promise.allSettled(
      sources.map(async (source, i) => {
        const object = path.join(workDir, `${i}-${path.basename(source)}.o`);
        const { diagnostics } = await compileC(source, object, { root, includeDirs: [INCLUDE_DIR] });
        // Named relative to program/, e.g. "oracle/fulfill.c.o", for link errors.
        const input: LinkInput = {
          name: `${source.slice('program/'.length)}.o`,
          bytes: await readFile(object),
        };
        return { input, warning: diagnostics ? { source, text: diagnostics } : undefined };
      }),
    );
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const compiled = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const { bytes, stats } = linkSbpfV0(
      compiled.map((c) => c.input),
      { entry: DEFAULT_ENTRY },
    );
    const warnings = compiled.flatMap((c) => (c.warning ? [c.warning] : []));
    return { name, bytes, stats, warnings };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * Builds one program and returns the `.so` bytes (writes nothing).
 *
 * @param name - a folder name under program/, see {@link listPrograms}
 */
export async function buildProgram(name: string, options: BuildOptions = {}): Promise<Uint8Array> {
  return (await buildProgramWithStats(name, options)).bytes;
}

/** Builds the named programs (all when none are named) into resources/programs/. Returns the exit code. */
export async function main(args: readonly string[], options: BuildOptions = {}): Promise<number> {
  const names = args.length > 0 ? args : listPrograms(options);
  if (names.length === 0) {
    console.log('build-programs: no programs under program/ (a program is a folder with .c files)');
    return 0;
  }
  // Every program rebuilt: the record follows the compiler that built them. A subset built with another
  // clang than the recorded one leaves the record alone and says so.
  const installed = installedClangVersion();
  const all = args.length === 0;
  const mismatch = clangVersionMismatch(installed, recordedClangVersion(clangVersionFile(options)));
  if (mismatch && !all) console.error(`build-programs: warning: ${mismatch}`);
  let failed = 0;
  for (const name of names) {
    try {
      const built = await buildProgramWithStats(name, options);
      for (const warning of built.warnings) process.stderr.write(warning.text);
      const output = programOutputPath(name, options);
      await mkdir(path.dirname(output), { recursive: true });
      await writeFile(output, built.bytes);
      const syscalls = built.stats.syscalls.join(', ') || 'none';
      console.log(`${name}: ${built.bytes.length} bytes -> ${OUTPUT_DIR}/${name}.so (syscalls: ${syscalls})`);
    } catch (error) {
      failed++;
      console.error(`build-programs: ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (all && failed === 0 && installed !== undefined && mismatch) {
    const file = clangVersionFile(options);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${installed}\n`);
    console.log(
      `build-programs: recorded "${installed}" in ${path.relative(options.root ?? REPO_ROOT, file)}`,
    );
  }
  return failed === 0 ? 0 : 1;
}

/** The compiler record of the checkout being built. */
function clangVersionFile(options: BuildOptions): string {
  return path.join(options.root ?? REPO_ROOT, path.relative(REPO_ROOT, CLANG_VERSION_FILE));
}

/** True when this file is the process's entry script (not when imported). */
function isMainModule(): boolean {
  const script = process.argv[1];
  if (script === undefined || !existsSync(script) || !statSync(script).isFile()) return false;
  return import.meta.url === pathToFileURL(realpathSync(script)).href;
}

if (isMainModule()) {
  process.exitCode = await main(process.argv.slice(2));
}
