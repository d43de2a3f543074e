/**
 * compileC: the FINDINGS.md flags, clang's diagnostics surfaced, and objects that do not depend
 * on where the checkout lives.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clangArguments, compileC, CompileError, SBPF_V0_CFLAGS } from '../compile.ts';

const roots: string[] = [];
function tempRoot(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'compile-test-'));
  roots.push(root);
  return root;
}
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function writeTree(root: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
}

async function compileError(promise: Promise<unknown>): Promise<CompileError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CompileError) return error;
    throw error;
  }
  throw new Error('expected compilation to fail');
}

describe('compileC', () => {
  it('passes the FINDINGS.md flags, relative paths and the checkout prefix map, and no debug info', () => {
    const root = '/some/checkout';
    const args = clangArguments('/some/checkout/program/x/main.c', 'out/main.o', {
      root,
      includeDirs: ['/some/checkout/program/include'],
    });
    expect(SBPF_V0_CFLAGS).toEqual([
      '-target', 'bpf', '-mcpu=v2', '-O2', '-fno-builtin', '-ffreestanding', '-fno-common', '-mllvm', '-bpf-stack-size=4096',
    ]); // prettier-ignore
    expect(args.slice(0, SBPF_V0_CFLAGS.length)).toEqual(SBPF_V0_CFLAGS);
    expect(args).toEqual(
      expect.arrayContaining(['-Wall', '-Wextra', '-Werror=implicit-function-declaration', '-std=c11']),
    );
    expect(args).toContain('-ffile-prefix-map=/some/checkout=.');
    expect(args.slice(-6)).toEqual(['-I', 'program/include', '-c', 'program/x/main.c', '-o', 'out/main.o']);
    expect(args.some((a) => a.startsWith('-g'))).toBe(false);
    expect(args.some((a) => a.includes('/some/checkout') && !a.startsWith('-ffile-prefix-map='))).toBe(false);
  });

  it('surfaces clang errors, e.g. a call to an undeclared function', async () => {
    const root = tempRoot();
    writeTree(root, { 'broken.c': 'unsigned long long entrypoint(void) { return undeclared_helper(); }\n' });
    const error = await compileError(compileC('broken.c', 'broken.o', { root }));
    expect(error.stderr).toContain("call to undeclared function 'undeclared_helper'");
    expect(error.message).toContain('broken.c');
    expect(error.message).toContain('undeclared_helper');
    expect(error.exitCode).not.toBe(0);
  });

  it('refuses stack frames over the 4 KiB Solana frame at compile time', async () => {
    const root = tempRoot();
    writeTree(root, {
      'big_frame.c': `typedef unsigned long long u64;
        void sol_log_(const char *, u64);
        u64 entrypoint(const unsigned char *input) {
          volatile char buffer[5000];
          for (int i = 0; i < 5000; i++) buffer[i] = input[i];
          sol_log_((const char *)buffer, 5000);
          return 0;
        }`,
    });
    const error = await compileError(compileC('big_frame.c', 'big_frame.o', { root }));
    expect(error.stderr).toContain('BPF stack limit is exceeded');
  });

  it('returns warnings of a successful compile', async () => {
    const root = tempRoot();
    writeTree(root, {
      'warn.c': 'unsigned long long entrypoint(const unsigned char *input) { return 0; }\n',
    });
    const { diagnostics } = await compileC('warn.c', 'warn.o', { root });
    expect(diagnostics).toContain("unused parameter 'input'");
  });

  it('produces identical objects from two checkouts at different paths, even with __FILE__', async () => {
    const files = {
      'program/include/where.h': 'static inline const char *header_file(void) { return __FILE__; }\n',
      'program/demo/main.c': `#include "where.h"
        typedef unsigned long long u64;
        void sol_log_(const char *, u64);
        u64 entrypoint(const unsigned char *input) {
          (void)input;
          sol_log_(__FILE__, sizeof(__FILE__) - 1);
          sol_log_(header_file(), 8);
          return 0;
        }`,
    };
    const objects = [];
    for (const root of [tempRoot(), path.join(tempRoot(), 'deeper', 'checkout')]) {
      writeTree(root, files);
      await compileC(path.join(root, 'program/demo/main.c'), path.join(root, 'out/main.o'), {
        root,
        includeDirs: [path.join(root, 'program/include')],
      });
      const object = readFileSync(path.join(root, 'out/main.o'));
      expect(object.includes(root), 'object mentions the checkout path').toBe(false);
      expect(object.includes('program/demo/main.c')).toBe(true);
      objects.push(object);
    }
    expect(objects[1]!.equals(objects[0]!)).toBe(true);
  });
});
