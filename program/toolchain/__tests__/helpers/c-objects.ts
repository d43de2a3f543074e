/**
 * Writes small C sources to a temporary directory and compiles them with the project's compileC,
 * so linker tests work on real clang-19 objects.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { compileC } from '../../compile.ts';
import type { LinkInput } from '../../linker.ts';

/** Declarations shared by the fixtures (the project SDK is not a dependency of toolchain tests). */
export const FIXTURE_HEADER = `
typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long i64;
void sol_log_(const char *message, u64 length);
void sol_set_return_data(const u8 *data, u64 length);
#define LOG(literal) sol_log_(literal, sizeof(literal) - 1)
/* Instruction data of an invocation without accounts: u64 account count, u64 length, bytes. */
#define INSTRUCTION_DATA(input) ((input) + 16)
static inline void return_u64(u64 value) { sol_set_return_data((const u8 *)&value, sizeof value); }
`;

/** A temporary directory used as compile root; `dispose` removes it. */
export interface Workspace {
  readonly root: string;
  /**
   * Compiles `sources` (file name -> C text; `#include "fixture.h"` gets {@link FIXTURE_HEADER})
   * and returns link inputs named `<file>.o`, in the order given.
   */
  compile(sources: Readonly<Record<string, string>>, extraFlags?: readonly string[]): Promise<LinkInput[]>;
  dispose(): void;
}

export function createWorkspace(prefix = 'toolchain-test-'): Workspace {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  let headerWritten: Promise<void> | undefined;
  return {
    root,
    async compile(sources, extraFlags = []) {
      headerWritten ??= writeFile(path.join(root, 'fixture.h'), FIXTURE_HEADER);
      await headerWritten;
      return Promise.all(
        Object.entries(sources).map(async ([file, text]) => {
          await writeFile(path.join(root, file), text);
          const object = `${file}.o`;
          await compileC(file, object, { root, includeDirs: ['.'], extraFlags });
          return { name: object, bytes: new Uint8Array(await readFile(path.join(root, object))) };
        }),
      );
    },
    dispose() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
