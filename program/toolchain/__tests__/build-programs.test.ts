/**
 * The build driver on throw-away repository roots: which folders are programs, that the SDK
 * runtime in program/include is linked in, what the CLI writes, and how failures read.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  buildProgram,
  buildProgramWithStats,
  listPrograms,
  main,
  programOutputPath,
} from '../build-programs.ts';
import { CompileError, installedClangVersion } from '../compile.ts';
import { LinkError } from '../link-error.ts';
import { fundedChain, invoke, newProgramAddress, returnedU64 } from './helpers/svm.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
afterEach(() => vi.restoreAllMocks());

/** A fake checkout containing `files` (paths relative to its root). */
function checkout(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'build-programs-test-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

const SDK = {
  'program/include/sdk.h': `#pragma once
    typedef unsigned char u8;
    typedef unsigned long long u64;
    void sol_log_(const char *, u64);
    void sol_set_return_data(const u8 *, u64);
    void sol_memcpy_(void *, const void *, u64);
    void *memcpy(void *dst, const void *src, u64 n);`,
  'program/include/rt.c': `#include "sdk.h"
    void *memcpy(void *dst, const void *src, u64 n) { sol_memcpy_(dst, src, n); return dst; }`,
};

const DEMO = {
  // Two files, linked in sorted order, using the SDK runtime's memcpy.
  'program/demo/b_logic.c': `#include "sdk.h"
    u64 demo_value(const u8 *data) { u64 v; memcpy(&v, data, sizeof v); return v + 1; }`,
  'program/demo/a_entry.c': `#include "sdk.h"
    u64 demo_value(const u8 *data);
    u64 entrypoint(const u8 *input) {
      sol_log_(__FILE__, sizeof(__FILE__) - 1);
      u64 v = demo_value(input + 16);
      sol_set_return_data((const u8 *)&v, sizeof v);
      return 0;
    }`,
};

describe('listPrograms', () => {
  it('lists folders with C sources, except include, toolchain, idl and __tests__', () => {
    const root = checkout({
      ...SDK,
      ...DEMO,
      'program/zeta/main.c': 'int entrypoint(void) { return 0; }\n',
      'program/notes/README.md': 'no C here\n',
      'program/idl/gen.c': '',
      'program/toolchain/x.c': '',
      'program/__tests__/t.c': '',
    });
    expect(listPrograms({ root })).toEqual(['demo', 'zeta']);
  });

  it('is empty for a checkout without programs', () => {
    expect(listPrograms({ root: checkout({ 'README.md': '' }) })).toEqual([]);
  });
});

describe('buildProgram', () => {
  it('links the program with the SDK runtime into a program that runs, writing nothing', async () => {
    const root = checkout({ ...SDK, ...DEMO });
    const built = await buildProgramWithStats('demo', { root });
    expect(built.stats.syscalls).toEqual(['sol_log_', 'sol_memcpy_', 'sol_set_return_data']);
    expect(existsSync(path.join(root, 'resources'))).toBe(false);
    expect(readdirSync(os.tmpdir()).some((d) => d.startsWith('wager-keeper-build-demo-'))).toBe(false);

    const chain = await fundedChain();
    const program = await newProgramAddress();
    chain.runner.svm.addProgram(program, built.bytes);
    const outcome = await invoke(chain, program, [41, 0, 0, 0, 0, 0, 0, 0]);
    expect(returnedU64(outcome)).toBe(42n);
    expect(outcome.logs).toContain('Program log: program/demo/a_entry.c'); // relative __FILE__
  });

  it('builds without program/include sources', async () => {
    const root = checkout({
      'program/solo/main.c': `typedef unsigned long long u64;
        u64 entrypoint(const unsigned char *input) { (void)input; return 0; }`,
    });
    expect((await buildProgram('solo', { root })).length).toBeGreaterThan(0);
  });

  it('names the failing input relative to program/ in link errors', async () => {
    const root = checkout({
      ...SDK,
      'program/stateful/main.c': `#include "sdk.h"
        static u64 calls = 1;
        u64 entrypoint(const u8 *input) { calls += input[0]; return calls; }`,
    });
    const error = await buildProgram('stateful', { root }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinkError);
    expect((error as LinkError).message).toContain('stateful/main.c.o');
    expect((error as LinkError).message).toContain('calls');
  });

  it('surfaces compiler errors with the source path', async () => {
    const root = checkout({
      ...SDK,
      'program/typo/main.c': '#include "sdk.h"\nu64 entrypoint(void) { return missing(); }\n',
    });
    const error = await buildProgram('typo', { root }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompileError);
    expect((error as CompileError).message).toContain('program/typo/main.c');
    expect((error as CompileError).message).toContain("undeclared function 'missing'");
  });

  it('refuses names that are not program folders', async () => {
    const root = checkout({ ...SDK, ...DEMO });
    await expect(buildProgram('include', { root })).rejects.toThrow(/no program named "include"/);
    await expect(buildProgram('../demo', { root })).rejects.toThrow(/no program named/);
  });
});

describe('build-programs CLI', () => {
  it('writes resources/programs/<name>.so for every program and prints size and syscalls', async () => {
    const root = checkout({
      ...SDK,
      ...DEMO,
      'program/zeta/main.c': `typedef unsigned long long u64;
        u64 entrypoint(const unsigned char *input) { (void)input; return 0; }`,
    });
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));

    expect(await main([], { root })).toBe(0);
    for (const name of ['demo', 'zeta']) {
      const written = readFileSync(programOutputPath(name, { root }));
      expect(written.equals(await buildProgram(name, { root }))).toBe(true);
    }
    expect(lines).toEqual([
      expect.stringMatching(
        /^demo: \d+ bytes -> resources\/programs\/demo\.so \(syscalls: sol_log_, sol_memcpy_, sol_set_return_data\)$/,
      ),
      // The SDK runtime (rt.c) is linked into every program, so its memcpy syscall is always there.
      expect.stringMatching(/^zeta: \d+ bytes -> resources\/programs\/zeta\.so \(syscalls: sol_memcpy_\)$/),
      // No record in this checkout yet: a full build records the compiler that built the programs.
      `build-programs: recorded "${installedClangVersion()}" in program/toolchain/CLANG_VERSION`,
    ]);
    const record = readFileSync(path.join(root, 'program/toolchain/CLANG_VERSION'), 'utf8');
    expect(record).toBe(`${installedClangVersion()}\n`);
  });

  it('warns when a partial build uses another clang than the recorded one, and keeps the record', async () => {
    const root = checkout({
      ...SDK,
      ...DEMO,
      'program/toolchain/CLANG_VERSION': 'Debian clang version 19.0.0 (1)\n',
    });
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));

    expect(await main(['demo'], { root })).toBe(0);
    expect(errors.join('\n')).toContain(`the installed clang-19 is "${installedClangVersion()}"`);
    expect(errors.join('\n')).toContain('built with "Debian clang version 19.0.0 (1)"');
    const record = readFileSync(path.join(root, 'program/toolchain/CLANG_VERSION'), 'utf8');
    expect(record).toBe('Debian clang version 19.0.0 (1)\n');
  });

  it('builds only the programs named, and fails for unknown names', async () => {
    const root = checkout({ ...SDK, ...DEMO, 'program/zeta/main.c': 'int entrypoint(void) { return 0; }\n' });
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));

    expect(await main(['demo'], { root })).toBe(0);
    expect(existsSync(programOutputPath('demo', { root }))).toBe(true);
    expect(existsSync(programOutputPath('zeta', { root }))).toBe(false);

    expect(await main(['nope'], { root })).toBe(1);
    expect(errors.join('\n')).toContain('no program named "nope"');
  });
});
