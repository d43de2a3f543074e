/**
 * Compiles one C file to a relocatable BPF object with clang-19, with the flags the spike proved
 * (FINDINGS.md) and nothing that depends on where the checkout lives, so the same source gives
 * the same object bytes on every machine with the same clang.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiler binary; installed by scripts/ensure-toolchain.mjs. */
export const CLANG = 'clang-19';

/** Repository root (this file is program/toolchain/compile.ts). */
export const REPO_ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * The first line of `clang-19 --version` the committed resources/programs/*.so were built with (the
 * Debian package revision included). `apt-get install clang-19` takes whatever Debian ships today, and a
 * point release may change code generation: comparing this record with the installed compiler names
 * that cause at once when the reproducible-build test or ensure-toolchain sees a difference.
 */
export const CLANG_VERSION_FILE = path.join(REPO_ROOT, 'program', 'toolchain', 'CLANG_VERSION');

/** The recorded compiler version line, or undefined when the record is missing or empty. */
export function recordedClangVersion(file = CLANG_VERSION_FILE): string | undefined {
  if (!existsSync(file)) return undefined;
  return readFileSync(file, 'utf8').split('\n')[0]!.trim() || undefined;
}

/** First line of `clang-19 --version`, or undefined when clang-19 cannot be run. */
export function installedClangVersion(): string | undefined {
  const result = spawnSync(CLANG, ['--version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return undefined;
  return result.stdout.split('\n')[0]!.trim() || undefined;
}

/**
 * Why a build may not reproduce the committed bytes, as a sentence; undefined when the installed clang
 * is the recorded one.
 */
export function clangVersionMismatch(
  installed: string | undefined,
  recorded: string | undefined,
): string | undefined {
  const record = path.relative(REPO_ROOT, CLANG_VERSION_FILE);
  if (recorded === undefined) return `no compiler version recorded in ${record}`;
  if (installed === undefined)
    return `${CLANG} cannot be run (the committed programs were built with "${recorded}")`;
  if (installed === recorded) return undefined;
  return (
    `the installed ${CLANG} is "${installed}" but the committed programs were built with "${recorded}" ` +
    `(${record}): a different clang may generate different code; install that version, or rebuild every ` +
    `program with \`npm run build:programs\` (which updates ${record}) and commit both`
  );
}

/**
 * Code generation flags, exactly as FINDINGS.md: BPF v2 ISA (v3/v4 emit JMP32 and v4 ALU forms that
 * SBPF v0 rejects), no libcalls, no COMMON symbols, and Solana's 4 KiB frame so oversize frames fail
 * at compile time.
 */
export const SBPF_V0_CFLAGS: readonly string[] = [
  '-target',
  'bpf',
  '-mcpu=v2',
  '-O2',
  '-fno-builtin',
  '-ffreestanding',
  '-fno-common',
  '-mllvm',
  '-bpf-stack-size=4096',
];

/** Diagnostics: implicit declarations are errors because an undeclared call is a silent ABI bug. */
export const WARNING_CFLAGS: readonly string[] = [
  '-Wall',
  '-Wextra',
  '-Werror=implicit-function-declaration',
  '-std=c11',
];

/** Options for {@link compileC}. */
export interface CompileOptions {
  /** `-I` directories, absolute or relative to `root`. */
  readonly includeDirs?: readonly string[];
  /**
   * Directory clang runs in; paths are passed relative to it and `-ffile-prefix-map=<root>=.`
   * strips it from anything absolute. Default: the repository root.
   */
  readonly root?: string;
  /**
   * Flags appended after the standard ones (later flags win in clang). Only for tests that need a
   * deliberately different object, e.g. `-mcpu=v3` to prove the linker refuses JMP32.
   */
  readonly extraFlags?: readonly string[];
}

/** What a successful compile printed (warnings), for the build log. */
export interface CompileResult {
  /** clang's stderr; empty when the file compiled cleanly. */
  readonly diagnostics: string;
}

/** clang failed (or could not be started). `stderr` holds clang's diagnostics verbatim. */
export class CompileError extends Error {
  override readonly name = 'CompileError';
  constructor(
    message: string,
    /** The source file, as given to {@link compileC}. */
    readonly source: string,
    readonly stderr: string,
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

/** Environment variables that would add include paths behind the build's back. */
const INCLUDE_PATH_VARIABLES = ['CPATH', 'C_INCLUDE_PATH', 'CPLUS_INCLUDE_PATH', 'OBJC_INCLUDE_PATH'];

/** Path as clang should see it: relative to `root` with forward slashes. */
function relativeTo(root: string, file: string): string {
  return path.relative(root, path.resolve(root, file)).split(path.sep).join('/') || '.';
}

/** The full clang argument list for one compile (exported for tests and build logs). */
export function clangArguments(source: string, output: string, options: CompileOptions = {}): string[] {
  const root = path.resolve(options.root ?? REPO_ROOT);
  const includes = (options.includeDirs ?? []).flatMap((dir) => ['-I', relativeTo(root, dir)]);
  return [
    ...SBPF_V0_CFLAGS,
    ...WARNING_CFLAGS,
    `-ffile-prefix-map=${root}=.`,
    ...includes,
    ...(options.extraFlags ?? []),
    '-c',
    relativeTo(root, source),
    '-o',
    relativeTo(root, output),
  ];
}

/**
 * Compiles `source` to the BPF object `output` (its directory is created if needed).
 *
 * @param source - C file, absolute or relative to `options.root`
 * @param output - object file to write, absolute or relative to `options.root`
 * @returns clang's warnings, if any
 * @throws {CompileError} with clang's stderr when compilation fails
 */
export async function compileC(
  source: string,
  output: string,
  options: CompileOptions = {},
): Promise<CompileResult> {
  const root = path.resolve(options.root ?? REPO_ROOT);
  await mkdir(path.dirname(path.resolve(root, output)), { recursive: true });
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !INCLUDE_PATH_VARIABLES.includes(name)),
  );

  const { exitCode, stderr, spawnError } = await run(
    CLANG,
    clangArguments(source, output, options),
    root,
    env,
  );
  if (spawnError) {
    const hint =
      spawnError.code === 'ENOENT' ? ` (${CLANG} not found: run \`node scripts/ensure-toolchain.mjs\`)` : '';
    throw new CompileError(`cannot run ${CLANG}${hint}: ${spawnError.message}`, source, stderr, null);
  }
  if (exitCode !== 0) {
    const where = relativeTo(root, source);
    throw new CompileError(
      `${CLANG} failed to compile ${where} (exit ${exitCode}):\n${stderr.trimEnd()}`,
      source,
      stderr,
      exitCode,
    );
  }
  return { diagnostics: stderr };
}

interface RunResult {
  readonly exitCode: number | null;
  readonly stderr: string;
  readonly spawnError?: NodeJS.ErrnoException;
}

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (spawnError: NodeJS.ErrnoException) =>
      resolve({ exitCode: null, stderr: Buffer.concat(chunks).toString('utf8'), spawnError }),
    );
    child.on('close', (exitCode) => resolve({ exitCode, stderr: Buffer.concat(chunks).toString('utf8') }));
  });
}
