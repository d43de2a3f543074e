/**
 * The linker, end to end: real C compiled by clang-19, linked by linkSbpfV0, run in LiteSVM
 * (the Agave runtime). Each relocation kind is checked to be present in the input (so the test
 * really exercises it) and to behave correctly when the program runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  R_BPF_64_32,
  R_BPF_64_64,
  R_BPF_64_ABS32,
  R_BPF_64_ABS64,
  R_BPF_64_RELATIVE,
  readBpfObject,
  SHN_ABS,
} from '../elf.ts';
import { LinkError } from '../link-error.ts';
import type { LinkErrorCode } from '../link-error.ts';
import { linkSbpfV0 } from '../linker.ts';
import type { LinkInput, LinkOptions } from '../linker.ts';
import type { TransactionOutcome } from '../../../src-main/localnet/litesvm-runner.ts';
import { createWorkspace } from './helpers/c-objects.ts';
import type { Workspace } from './helpers/c-objects.ts';
import { readSharedObject } from './helpers/shared-object.ts';
import { fundedChain, invoke, newProgramAddress, returnedU64 } from './helpers/svm.ts';
import type { TestChain } from './helpers/svm.ts';

let workspace: Workspace;
let chain: TestChain;

beforeAll(async () => {
  workspace = createWorkspace('linker-test-');
  chain = await fundedChain();
});
afterAll(() => workspace.dispose());

/** Loads `so` under a fresh address and invokes it once with `data`. */
async function run(so: Uint8Array, data: Iterable<number> = []): Promise<TransactionOutcome> {
  const program = await newProgramAddress();
  chain.runner.svm.addProgram(program, so);
  return invoke(chain, program, data);
}

/** Relocation types `object` applies to the input section named `target`. */
function relocationsOf(object: LinkInput, target: string): { type: number; symbol: string }[] {
  const parsed = readBpfObject(object.name, object.bytes);
  return parsed.relocations
    .filter((table) => parsed.sections[table.target]?.name === target)
    .flatMap((table) =>
      table.entries.map((r) => {
        const symbol = parsed.symbols[r.symbol]!;
        return { type: r.type, symbol: symbol.name || (parsed.sections[symbol.shndx]?.name ?? '') };
      }),
    );
}

function sectionNames(object: LinkInput): string[] {
  return readBpfObject(object.name, object.bytes).sections.map((s) => s.name);
}

/** The LinkError a link throws; fails the test when the link succeeds or throws something else. */
function refusal(objects: readonly LinkInput[], options?: LinkOptions): LinkError {
  try {
    linkSbpfV0(objects, options);
  } catch (error) {
    if (error instanceof LinkError) return error;
    throw error;
  }
  throw new Error('expected the link to be refused, but it succeeded');
}

function expectRefusal(error: LinkError, code: LinkErrorCode, file: string, ...mentions: string[]): void {
  expect(error.code).toBe(code);
  expect(error.message).toContain(file);
  for (const text of mentions) expect(error.message).toContain(text);
}

/** A copy of `object` with its bytes changed by `patch`. */
function patched(object: LinkInput, patch: (bytes: Uint8Array, view: DataView) => void): LinkInput {
  const bytes = Uint8Array.from(object.bytes);
  patch(bytes, new DataView(bytes.buffer));
  return { name: object.name, bytes };
}

function textOf(so: Uint8Array): { bytes: Uint8Array; address: number } {
  const text = readSharedObject(so).sections.get('.text')!;
  return { bytes: so.subarray(text.offset, text.offset + text.size), address: text.addr };
}

describe('relocations, run in LiteSVM', () => {
  it('logs a string literal from .rodata (lddw: R_BPF_64_64 -> R_BPF_64_RELATIVE)', async () => {
    const [main] = await workspace.compile({
      'literal.c': `#include "fixture.h"
        u64 entrypoint(const u8 *input) { (void)input; LOG("hello from .rodata.str1.1"); return 0; }`,
    });
    expect(relocationsOf(main!, '.text')).toContainEqual({ type: R_BPF_64_64, symbol: '.rodata.str1.1' });

    const so = linkSbpfV0([main!]).bytes;
    const relative = readSharedObject(so).relocations.filter((r) => r.type === R_BPF_64_RELATIVE);
    expect(relative).toHaveLength(1);
    const outcome = await run(so);
    expect(outcome.failure).toBeUndefined();
    expect(outcome.logs).toContain('Program log: hello from .rodata.str1.1');
  });

  it('calls a syscall by name (call: R_BPF_64_32 -> imm -1 + dynamic R_BPF_64_32)', async () => {
    const [main] = await workspace.compile({
      'syscall.c': `#include "fixture.h"
        u64 entrypoint(const u8 *input) { (void)input; return_u64(0x1122334455667788ULL); return 0; }`,
    });
    expect(relocationsOf(main!, '.text')).toContainEqual({
      type: R_BPF_64_32,
      symbol: 'sol_set_return_data',
    });

    const { bytes: so, stats } = linkSbpfV0([main!]);
    expect(stats.syscalls).toEqual(['sol_set_return_data']);
    const [call] = readSharedObject(so).relocations.filter((r) => r.type === R_BPF_64_32);
    expect(call?.symbol).toBe('sol_set_return_data');
    const text = textOf(so);
    const site = call!.offset - text.address;
    expect(text.bytes[site]).toBe(0x85);
    expect(new DataView(text.bytes.buffer, text.bytes.byteOffset).getInt32(site + 4, true)).toBe(-1);

    expect(returnedU64(await run(so))).toBe(0x1122334455667788n);
  });

  it('calls a function defined in another object, in either link order', async () => {
    const [main, lib] = await workspace.compile({
      'caller.c': `#include "fixture.h"
        u64 scale(u64 x);
        u64 entrypoint(const u8 *input) { return_u64(scale(INSTRUCTION_DATA(input)[0]) + 1); return 0; }`,
      'callee.c': `#include "fixture.h"
        u64 scale(u64 x) { return x * 1000 + 7; }`,
    });
    expect(relocationsOf(main!, '.text')).toContainEqual({ type: R_BPF_64_32, symbol: 'scale' });

    expect(returnedU64(await run(linkSbpfV0([main!, lib!]).bytes, [5]))).toBe(5008n);
    expect(returnedU64(await run(linkSbpfV0([lib!, main!]).bytes, [9]))).toBe(9008n);
  });

  it('follows pointer tables stored in .rodata (R_BPF_64_ABS64), function and string pointers', async () => {
    const [tables] = await workspace.compile({
      'tables.c': `#include "fixture.h"
        __attribute__((noinline)) static u64 add_one(u64 x) { return x + 1; }
        __attribute__((noinline)) static u64 times_ten(u64 x) { return x * 10; }
        __attribute__((noinline)) u64 flip(u64 x) { return x ^ 0xff; }
        static u64 (*const OPERATIONS[3])(u64) = { add_one, times_ten, flip };
        static const char *const NAMES[3] = { "op=inc", "op=x10", "op=xor" };
        u64 entrypoint(const u8 *input) {
          u8 i = INSTRUCTION_DATA(input)[0] % 3;
          sol_log_(NAMES[i], 6);
          return_u64(OPERATIONS[i](40));
          return 0;
        }`,
    });
    const dataRelocations = relocationsOf(tables!, '.rodata').map((r) => r.type);
    expect(dataRelocations.length).toBe(6);
    expect(new Set(dataRelocations)).toEqual(new Set([R_BPF_64_ABS64]));

    const so = linkSbpfV0([tables!]).bytes;
    const expected: [number, bigint, string][] = [
      [0, 41n, 'op=inc'],
      [1, 400n, 'op=x10'],
      [2, 40n ^ 0xffn, 'op=xor'],
    ];
    for (const [index, value, name] of expected) {
      const outcome = await run(so, [index]);
      expect(returnedU64(outcome)).toBe(value);
      expect(outcome.logs).toContain(`Program log: ${name}`);
    }
  });

  it('calls through a function pointer held in a register (callx register moved to imm)', async () => {
    const [main] = await workspace.compile({
      'callx.c': `#include "fixture.h"
        __attribute__((noinline)) static u64 halve(u64 x) { return x / 2; }
        __attribute__((noinline)) static u64 square(u64 x) { return x * x; }
        u64 entrypoint(const u8 *input) {
          const u8 *data = INSTRUCTION_DATA(input);
          u64 (*volatile pick)(u64) = data[0] ? square : halve;
          return_u64(pick(data[1]));
          return 0;
        }`,
    });
    const inputText = readBpfObject(main!.name, main!.bytes);
    const textSection = inputText.sections.find((s) => s.name === '.text')!;
    const inputCode = main!.bytes.subarray(textSection.offset, textSection.offset + textSection.size);
    const callxIn = inputCode.findIndex((byte, i) => i % 8 === 0 && byte === 0x8d);
    expect(callxIn).toBeGreaterThanOrEqual(0);
    const register = inputCode[callxIn + 1]! & 0x0f; // clang: register in dst_reg
    expect(register).not.toBe(0);

    const so = linkSbpfV0([main!]).bytes;
    const text = textOf(so);
    const callxOut = text.bytes.findIndex((byte, i) => i % 8 === 0 && byte === 0x8d);
    expect(text.bytes[callxOut + 1]! & 0x0f).toBe(0);
    expect(new DataView(text.bytes.buffer, text.bytes.byteOffset).getInt32(callxOut + 4, true)).toBe(
      register,
    );

    expect(returnedU64(await run(so, [1, 9]))).toBe(81n);
    expect(returnedU64(await run(so, [0, 9]))).toBe(4n);
  });

  it('merges .rodata and .rodata.str1.1 of two objects into one .rodata, all readable', async () => {
    const objects = await workspace.compile({
      'merge_a.c': `#include "fixture.h"
        u64 b_part(u64 index);
        static const char A_ARRAY[] = "a: array in .rodata";
        u64 entrypoint(const u8 *input) {
          sol_log_(A_ARRAY, sizeof A_ARRAY - 1);
          LOG("a: literal in .rodata.str1.1");
          return_u64(b_part(INSTRUCTION_DATA(input)[0]));
          return 0;
        }`,
      'merge_b.c': `#include "fixture.h"
        static const char B_ARRAY[] = "b: array in .rodata";
        static const u64 B_WORDS[3] = { 0x0102030405060708ULL, 0x1111111111111111ULL, 0x2222222222222222ULL };
        u64 b_part(u64 index) {
          sol_log_(B_ARRAY, sizeof B_ARRAY - 1);
          LOG("b: literal in .rodata.str1.1");
          return B_WORDS[index % 3];
        }`,
    });
    let inputRodata = 0;
    for (const object of objects) {
      expect(sectionNames(object)).toEqual(expect.arrayContaining(['.rodata', '.rodata.str1.1']));
      inputRodata += readBpfObject(object.name, object.bytes)
        .sections.filter((s) => s.name.startsWith('.rodata'))
        .reduce((sum, s) => sum + s.size, 0);
    }

    const { bytes: so, stats } = linkSbpfV0(objects);
    const output = readSharedObject(so);
    expect([...output.sections.keys()].filter((name) => name.startsWith('.rodata'))).toEqual(['.rodata']);
    expect(stats.rodata).toBeGreaterThanOrEqual(inputRodata);
    expect(output.sections.get('.rodata')!.size).toBe(stats.rodata);
    // B_WORDS (u64[3]) follows odd-sized strings of merge_a: it must still be 8-aligned.
    const rodata = output.sections.get('.rodata')!;
    const firstWord = Buffer.from([8, 7, 6, 5, 4, 3, 2, 1]);
    const wordsAt = Buffer.from(output.contents('.rodata')).indexOf(firstWord);
    expect(wordsAt).toBeGreaterThan(0);
    expect((rodata.addr + wordsAt) % 8).toBe(0);

    const outcome = await run(so, [2]);
    expect(outcome.logs).toEqual(
      expect.arrayContaining([
        'Program log: a: array in .rodata',
        'Program log: a: literal in .rodata.str1.1',
        'Program log: b: array in .rodata',
        'Program log: b: literal in .rodata.str1.1',
      ]),
    );
    expect(returnedU64(outcome)).toBe(0x2222222222222222n);
  });

  it('enters at a custom entry symbol when asked to', async () => {
    const [main] = await workspace.compile({
      'custom_entry.c': `#include "fixture.h"
        u64 start_here(const u8 *input) { (void)input; return_u64(77); return 0; }`,
    });
    expect(returnedU64(await run(linkSbpfV0([main!], { entry: 'start_here' }).bytes))).toBe(77n);
  });
});

describe('output file', () => {
  let objects: LinkInput[];
  beforeAll(async () => {
    objects = await workspace.compile({
      'shape_lib.c': `#include "fixture.h"
        u64 twice(u64 x) { LOG("twice"); return 2 * x; }`,
      'shape_main.c': `#include "fixture.h"
        u64 twice(u64 x);
        u64 entrypoint(const u8 *input) { return_u64(twice(INSTRUCTION_DATA(input)[0])); return 0; }`,
    });
  });

  it('is an ELF64 ET_DYN for EM_BPF with e_flags 0 (SBPF v0) and an aligned entry inside .text', () => {
    const { bytes: so, stats } = linkSbpfV0(objects);
    const view = new DataView(so.buffer, so.byteOffset, so.byteLength);
    expect([...so.subarray(0, 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]);
    expect(so[4]).toBe(2); // ELFCLASS64
    expect(so[5]).toBe(1); // little-endian
    expect(view.getUint16(16, true)).toBe(3); // ET_DYN
    expect(view.getUint16(18, true)).toBe(247); // EM_BPF
    expect(view.getUint32(48, true)).toBe(0); // e_flags: SBPF v0

    const output = readSharedObject(so);
    const text = output.sections.get('.text')!;
    expect(output.entry).toBe(stats.entry);
    // shape_lib comes first, so the entry is not simply the start of .text.
    expect(output.entry).toBeGreaterThan(text.addr);
    expect(output.entry).toBeLessThan(text.addr + text.size);
    expect((output.entry - text.addr) % 8).toBe(0);
    for (const name of ['.text', '.rodata', '.dynsym', '.dynstr', '.rel.dyn', '.dynamic']) {
      const section = output.sections.get(name)!;
      expect(section.addr, `${name} sh_addr == sh_offset`).toBe(section.offset);
    }
  });

  it('encodes calls the v0 way: no src_reg on call, no dst_reg on callx', () => {
    const { bytes: code } = textOf(linkSbpfV0(objects).bytes);
    const calls = [];
    for (let at = 0; at < code.length; at += code[at] === 0x18 ? 16 : 8) {
      if (code[at] === 0x85) calls.push(code[at + 1]);
    }
    expect(calls.length).toBeGreaterThanOrEqual(3); // twice(), sol_log_, sol_set_return_data
    expect(calls.every((registers) => registers === 0)).toBe(true);
    // clang marks calls with src_reg BPF_PSEUDO_CALL (1); make sure there was something to clear.
    const input = readBpfObject(objects[1]!.name, objects[1]!.bytes);
    const text = input.sections.find((s) => s.name === '.text')!;
    const inputCode = objects[1]!.bytes.subarray(text.offset, text.offset + text.size);
    expect(inputCode.some((byte, i) => i % 8 === 0 && byte === 0x85 && inputCode[i + 1] !== 0)).toBe(true);
  });

  it('is byte-for-byte the same for the same inputs', () => {
    const first = linkSbpfV0(objects).bytes;
    const second = linkSbpfV0(objects.map((o) => ({ name: o.name, bytes: Uint8Array.from(o.bytes) }))).bytes;
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
  });

  it('runs', async () => {
    const outcome = await run(linkSbpfV0(objects).bytes, [21]);
    expect(outcome.logs).toContain('Program log: twice');
    expect(returnedU64(outcome)).toBe(42n);
  });
});

describe('refusals', () => {
  it('refuses a writable global in .data, naming file and variable', async () => {
    const [state] = await workspace.compile({
      'state.c': `#include "fixture.h"
        static u64 counter = 5;
        u64 entrypoint(const u8 *input) { counter += INSTRUCTION_DATA(input)[0]; return_u64(counter); return 0; }`,
    });
    const error = refusal([state!]);
    expectRefusal(error, 'WritableSection', 'state.c.o', 'counter', '.data');
    expect(error.symbol).toBe('counter');
  });

  it('refuses a zero-initialised global in .bss', async () => {
    const [state] = await workspace.compile({
      'zeroed.c': `#include "fixture.h"
        static u64 hits;
        u64 entrypoint(const u8 *input) { hits += INSTRUCTION_DATA(input)[0]; return_u64(hits); return 0; }`,
    });
    expectRefusal(refusal([state!]), 'WritableSection', 'zeroed.c.o', 'hits', '.bss');
  });

  it('refuses a COMMON symbol (object compiled with -fcommon)', async () => {
    const [state] = await workspace.compile(
      {
        'common.c': `#include "fixture.h"
          u64 tally;
          u64 entrypoint(const u8 *input) { tally += INSTRUCTION_DATA(input)[0]; return_u64(tally); return 0; }`,
      },
      ['-fcommon'],
    );
    expectRefusal(refusal([state!]), 'CommonSymbol', 'common.c.o', 'tally');
  });

  it('refuses JMP32 from an -mcpu=v3 object, naming file, function and offset', async () => {
    const [v3] = await workspace.compile(
      {
        'narrow.c': `#include "fixture.h"
          u64 entrypoint(const u8 *input) {
            u32 x = *(const u32 *)INSTRUCTION_DATA(input);
            return_u64(x < 7 ? 1 : 2);
            return 0;
          }`,
      },
      ['-mcpu=v3'],
    );
    const text = readBpfObject(v3!.name, v3!.bytes).sections.find((s) => s.name === '.text')!;
    const code = v3!.bytes.subarray(text.offset, text.offset + text.size);
    const jmp32 = code.findIndex((byte, i) => i % 8 === 0 && (byte & 0x07) === 0x06);
    expect(jmp32, 'clang -mcpu=v3 emitted a JMP32 instruction').toBeGreaterThanOrEqual(0);

    const error = refusal([v3!]);
    expectRefusal(
      error,
      'InvalidOpcode',
      'narrow.c.o',
      'entrypoint',
      'JMP32',
      `.text+0x${jmp32.toString(16)}`,
    );
    expect(error.offset).toBe(jmp32);
    expect(error.symbol).toContain('entrypoint');
  });

  it('refuses BPF v4 signed division (ALU with a non-zero offset)', async () => {
    const [v4] = await workspace.compile(
      {
        'signed.c': `#include "fixture.h"
          __attribute__((noinline)) i64 quotient(i64 a, i64 b) { return a / b; }
          u64 entrypoint(const u8 *input) {
            const i64 *args = (const i64 *)INSTRUCTION_DATA(input);
            return_u64((u64)quotient(args[0], args[1]));
            return 0;
          }`,
      },
      ['-mcpu=v4'],
    );
    expectRefusal(refusal([v4!]), 'SignedAluOffset', 'signed.c.o', 'quotient', 'offset 1');
  });

  it('refuses a call to an unknown syscall', async () => {
    const [main] = await workspace.compile({
      'unknown.c': `#include "fixture.h"
        void sol_not_a_syscall(void);
        u64 entrypoint(const u8 *input) { (void)input; sol_not_a_syscall(); return 0; }`,
    });
    const error = refusal([main!]);
    expectRefusal(error, 'UnknownSyscall', 'unknown.c.o', 'sol_not_a_syscall', 'not a known Solana syscall');
    expect(error.symbol).toBe('sol_not_a_syscall');
  });

  it('refuses sol_remaining_compute_units, which LiteSVM 1.5 does not activate', async () => {
    const [main] = await workspace.compile({
      'remaining.c': `#include "fixture.h"
        u64 sol_remaining_compute_units(void);
        u64 entrypoint(const u8 *input) { (void)input; return_u64(sol_remaining_compute_units()); return 0; }`,
    });
    expectRefusal(refusal([main!]), 'UnknownSyscall', 'remaining.c.o', 'sol_remaining_compute_units');
  });

  it('refuses calls and data references to symbols no input defines', async () => {
    const [call, data] = await workspace.compile({
      'missing_fn.c': `#include "fixture.h"
        u64 helper(u64 x);
        u64 entrypoint(const u8 *input) { return_u64(helper(INSTRUCTION_DATA(input)[0])); return 0; }`,
      'missing_data.c': `#include "fixture.h"
        extern const u8 MISSING_TABLE[4];
        u64 entrypoint(const u8 *input) { return_u64(MISSING_TABLE[INSTRUCTION_DATA(input)[0] & 3]); return 0; }`,
    });
    expectRefusal(refusal([call!]), 'UndefinedSymbol', 'missing_fn.c.o', 'helper');
    expectRefusal(refusal([data!]), 'UndefinedSymbol', 'missing_data.c.o', 'MISSING_TABLE');
  });

  it('refuses the same function defined in two objects, naming both', async () => {
    const objects = await workspace.compile({
      'dup_a.c': `#include "fixture.h"
        u64 helper(u64 x) { return x + 1; }
        u64 entrypoint(const u8 *input) { return_u64(helper(INSTRUCTION_DATA(input)[0])); return 0; }`,
      'dup_b.c': `#include "fixture.h"
        u64 helper(u64 x) { return x + 2; }`,
    });
    expectRefusal(refusal(objects), 'DuplicateSymbol', 'dup_b.c.o', 'helper', 'dup_a.c.o');
  });

  it('refuses an internal call left at imm -1 without a relocation', async () => {
    const [main] = await workspace.compile({
      'selfcall.c': `#include "fixture.h"
        __attribute__((noinline)) static u64 inner(u64 x) { return x * 3; }
        u64 entrypoint(const u8 *input) { return_u64(inner(INSTRUCTION_DATA(input)[0])); return 0; }`,
    });
    // clang resolves calls to static functions itself: a pc-relative call with no relocation.
    const parsed = readBpfObject(main!.name, main!.bytes);
    const text = parsed.sections.find((s) => s.name === '.text')!;
    const relocatedOffsets = new Set(
      parsed.relocations
        .filter((t) => t.target === text.index)
        .flatMap((t) => t.entries.map((r) => r.offset)),
    );
    let callOffset = -1;
    for (let at = 0; at < text.size; at += 8) {
      if (main!.bytes[text.offset + at] === 0x85 && !relocatedOffsets.has(at)) callOffset = at;
    }
    expect(callOffset, 'the object has an unrelocated internal call').toBeGreaterThanOrEqual(0);
    expect(linkSbpfV0([main!]).bytes.length).toBeGreaterThan(0); // unpatched, it links

    const broken = patched(main!, (_, view) => view.setInt32(text.offset + callOffset + 4, -1, true));
    const error = refusal([broken]);
    expectRefusal(
      error,
      'UnresolvedInternalCall',
      'selfcall.c.o',
      'entrypoint',
      `.text+0x${callOffset.toString(16)}`,
    );
  });

  it('refuses a call or jump whose target lies outside its code', async () => {
    const [call, jump] = await workspace.compile({
      'wild_call.c': `#include "fixture.h"
        u64 entrypoint(const u8 *input) { (void)input; __asm__ volatile ("call 1000"); return 0; }`,
      'wild_jump.c': `#include "fixture.h"
        u64 entrypoint(const u8 *input) { (void)input; __asm__ volatile ("goto +100"); return 0; }`,
    });
    expectRefusal(refusal([call!]), 'BadCallTarget', 'wild_call.c.o', 'entrypoint', 'outside');
    expectRefusal(refusal([jump!]), 'BadJumpTarget', 'wild_jump.c.o', 'entrypoint', 'outside');
  });

  it('refuses a 32-bit absolute relocation in a loaded section', async () => {
    const [tables] = await workspace.compile({
      'abs32.c': `#include "fixture.h"
        static const char *const WORDS[2] = { "left", "right" };
        u64 entrypoint(const u8 *input) { sol_log_(WORDS[INSTRUCTION_DATA(input)[0] & 1], 4); return 0; }`,
    });
    const parsed = readBpfObject(tables!.name, tables!.bytes);
    const table = parsed.relocations.find((t) => parsed.sections[t.target]?.name === '.rodata')!;
    expect(table.entries[0]?.type).toBe(R_BPF_64_ABS64);
    // Rewrite the first entry's type (low half of r_info) to R_BPF_64_ABS32.
    const broken = patched(tables!, (_, view) =>
      view.setUint32(table.section.offset + 8, R_BPF_64_ABS32, true),
    );
    expectRefusal(refusal([broken]), 'UnsupportedRelocation', 'abs32.c.o', '.rodata', '32-bit');
  });

  it('refuses an absolute (SHN_ABS) symbol used by lddw or stored as a pointer, naming symbol and file', async () => {
    const [definition, lddw, pointer] = await workspace.compile({
      // `.set` makes ABS_VALUE a constant (st_shndx SHN_ABS), not an address in any section.
      'abs_def.c': `__asm__(".globl ABS_VALUE\\n.set ABS_VALUE, 0x1234");`,
      'abs_lddw.c': `#include "fixture.h"
        extern const char ABS_VALUE[];
        u64 entrypoint(const u8 *input) { (void)input; return (u64)ABS_VALUE; }`,
      'abs_pointer.c': `#include "fixture.h"
        extern const char ABS_VALUE[];
        static const char *const POINTERS[2] = { ABS_VALUE, "text" };
        u64 entrypoint(const u8 *input) { return (u64)POINTERS[INSTRUCTION_DATA(input)[0] & 1]; }`,
    });
    const symbols = readBpfObject(definition!.name, definition!.bytes).symbols;
    expect(symbols.find((s) => s.name === 'ABS_VALUE')?.shndx).toBe(SHN_ABS);
    expect(relocationsOf(lddw!, '.text')).toContainEqual({ type: R_BPF_64_64, symbol: 'ABS_VALUE' });
    expect(relocationsOf(pointer!, '.rodata')).toContainEqual({ type: R_BPF_64_ABS64, symbol: 'ABS_VALUE' });

    const viaLddw = refusal([lddw!, definition!]);
    expectRefusal(
      viaLddw,
      'UnsupportedRelocation',
      'abs_lddw.c.o',
      'lddw',
      'ABS_VALUE',
      'SHN_ABS',
      'abs_def.c.o',
    );
    expect(viaLddw.symbol).toBe('ABS_VALUE');
    const viaPointer = refusal([pointer!, definition!]);
    expectRefusal(viaPointer, 'UnsupportedRelocation', 'abs_pointer.c.o', '.rodata', 'ABS_VALUE', 'SHN_ABS');
  });

  it('refuses a link without the entry symbol, and names the inputs', async () => {
    const [main] = await workspace.compile({
      'no_entry.c': `#include "fixture.h"
        u64 main_function(const u8 *input) { (void)input; return 0; }`,
    });
    const error = refusal([main!]);
    expectRefusal(error, 'MissingEntry', 'no_entry.c.o', 'entrypoint');
    expect(error.symbol).toBe('entrypoint');
    expectRefusal(refusal([main!], { entry: 'start' }), 'MissingEntry', 'no_entry.c.o', 'start');
  });

  it('refuses inputs without code', async () => {
    const [data] = await workspace.compile({
      'only_data.c': `#include "fixture.h"
        const u64 ONLY_DATA[2] = { 1, 2 };`,
    });
    expectRefusal(refusal([data!]), 'NoCode', 'only_data.c.o');
  });

  it('refuses files that are not BPF relocatable objects', async () => {
    const notElf = {
      name: 'notes.txt.o',
      bytes: new TextEncoder().encode('just some text, not an object file'),
    };
    expectRefusal(refusal([notElf]), 'NotElf64', 'notes.txt.o');

    const [main] = await workspace.compile({
      'finished.c': `#include "fixture.h"
        u64 entrypoint(const u8 *input) { (void)input; return 0; }`,
    });
    const linked = { name: 'finished.so', bytes: linkSbpfV0([main!]).bytes };
    expectRefusal(refusal([main!, linked]), 'NotBpfObject', 'finished.so', 'ET_REL');
  });

  it('reports truncated section tables as malformed, not as a crash', async () => {
    const [main] = await workspace.compile({
      'truncated.c': `#include "fixture.h"
        u64 entrypoint(const u8 *input) { (void)input; return 0; }`,
    });
    const truncated = { name: main!.name, bytes: main!.bytes.subarray(0, main!.bytes.length - 100) };
    expectRefusal(refusal([truncated]), 'MalformedElf', 'truncated.c.o');
  });
});
