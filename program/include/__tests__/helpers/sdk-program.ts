/**
 * Runs the C test programs of program/include/__tests__/programs/ in LiteSVM: each is built against the
 * SDK the way buildProgram builds a real program (the program's file, then every program/include/*.c,
 * linked with entry `entrypoint`), loaded with `svm.addProgram`, and invoked through the shared runner.
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSigner, lamports } from '@solana/kit';
import type { AccountMeta, Address, Instruction, KeyPairSigner } from '@solana/kit';
import { LiteSVM } from 'litesvm';
import { createLiteSvmRunner } from '../../../../src-main/localnet/litesvm-runner.ts';
import type { LiteSvmRunner, TransactionOutcome } from '../../../../src-main/localnet/litesvm-runner.ts';
import { INCLUDE_DIR } from '../../../toolchain/build-programs.ts';
import { compileC, REPO_ROOT } from '../../../toolchain/compile.ts';
import { DEFAULT_ENTRY, linkSbpfV0 } from '../../../toolchain/linker.ts';

const TEST_PROGRAMS_DIR = `${INCLUDE_DIR}/__tests__/programs`;

/**
 * Compiles `program/include/__tests__/programs/<file>` with the SDK runtime and links it.
 * Compiler warnings fail the build: the SDK headers are meant to compile cleanly under -Wall -Wextra.
 */
export async function buildSdkTestProgram(file: string): Promise<Uint8Array> {
  const runtime = readdirSync(path.join(REPO_ROOT, INCLUDE_DIR))
    .filter((name) => name.endsWith('.c'))
    .sort()
    .map((name) => `${INCLUDE_DIR}/${name}`);
  const sources = [`${TEST_PROGRAMS_DIR}/${file}`, ...runtime];
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'sdk-test-program-'));
  try {
    const objects = await Promise.all(
      sources.map(async (source, i) => {
        const object = path.join(workDir, `${i}-${path.basename(source)}.o`);
        const { diagnostics } = await compileC(source, object, { includeDirs: [INCLUDE_DIR] });
        if (diagnostics) throw new Error(`${source} compiled with warnings:\n${diagnostics}`);
        return { name: `${path.basename(source)}.o`, bytes: new Uint8Array(await readFile(object)) };
      }),
    );
    return linkSbpfV0(objects, { entry: DEFAULT_ENTRY }).bytes;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** A LiteSVM chain with one SDK test program loaded, and a funded fee payer. */
export interface SdkTestChain {
  readonly runner: LiteSvmRunner;
  readonly payer: KeyPairSigner;
  readonly program: Address;
  /**
   * Sends one transaction: `before` (e.g. a precompile instruction), then the test program with
   * `data` and `accounts`.
   */
  call(
    data: Uint8Array,
    accounts?: readonly AccountMeta[],
    before?: readonly Instruction[],
  ): Promise<TransactionOutcome>;
  /** Like `call`, but fails with the program's logs unless the transaction succeeds; returns its return data. */
  returnData(
    data: Uint8Array,
    accounts?: readonly AccountMeta[],
    before?: readonly Instruction[],
  ): Promise<Uint8Array>;
}

/** Loads the already built `bytes` into a fresh LiteSVM (or `svm`) at a random address. */
export async function loadSdkTestProgram(bytes: Uint8Array, svm = new LiteSVM()): Promise<SdkTestChain> {
  const runner = createLiteSvmRunner(svm);
  const payer = await generateKeyPairSigner();
  svm.airdrop(payer.address, lamports(100_000_000_000n));
  const program = (await generateKeyPairSigner()).address;
  svm.addProgram(program, bytes);

  const instructions = (
    data: Uint8Array,
    accounts: readonly AccountMeta[] = [],
    before: readonly Instruction[] = [],
  ) => [...before, { programAddress: program, accounts, data }];
  return {
    runner,
    payer,
    program,
    call: (data, accounts, before) => runner.send(payer, instructions(data, accounts, before)),
    returnData: async (data, accounts, before) =>
      (await runner.sendOrThrow(payer, instructions(data, accounts, before))).returnData,
  };
}

/** Little-endian u64s, as the test programs read them. */
export function u64s(values: readonly bigint[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  values.forEach((value, i) => view.setBigUint64(i * 8, value, true));
  return bytes;
}

/** A little-endian reader over return data. */
export function reader(bytes: Uint8Array): {
  u8(at: number): number;
  u64(at: number): bigint;
  i64(at: number): bigint;
  bytes(at: number, length: number): Uint8Array;
} {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    u8: (at) => view.getUint8(at),
    u64: (at) => view.getBigUint64(at, true),
    i64: (at) => view.getBigInt64(at, true),
    bytes: (at, length) => bytes.slice(at, at + length),
  };
}
