/**
 * A linked program survives a real deployment: BPF Upgradeable Loader InitializeBuffer, Write,
 * DeployWithMaxDataLen, which run the loader's strict deploy-time ELF checks (unlike
 * `svm.addProgram`), then runs in the next slot.
 */
import { LiteSVM } from 'litesvm';
import type { KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkSbpfV0 } from '../linker.ts';
import { createWorkspace } from './helpers/c-objects.ts';
import type { Workspace } from './helpers/c-objects.ts';
import { readSharedObject } from './helpers/shared-object.ts';
import { deployUpgradeable } from './helpers/upgradeable-loader.ts';
import { fundedPayer, invoke, newProgramAddress, returnedU64 } from './helpers/svm.ts';

let workspace: Workspace;
let so: Uint8Array;

/** One program that needs every relocation kind the linker handles, split over two objects. */
const SOURCES = {
  'deploy_main.c': `#include "fixture.h"
    u64 weigh(u64 x);
    __attribute__((noinline)) static u64 plus_three(u64 x) { return x + 3; }
    __attribute__((noinline)) static u64 doubled(u64 x) { return x * 2; }
    static u64 (*const STEPS[2])(u64) = { plus_three, doubled };
    u64 entrypoint(const u8 *input) {
      const u8 *data = INSTRUCTION_DATA(input);
      LOG("deployed through the upgradeable loader");
      u64 value = STEPS[data[0] & 1](data[1]);
      return_u64(weigh(value));
      return 0;
    }`,
  'deploy_lib.c': `#include "fixture.h"
    static const u64 WEIGHTS[4] = { 1, 10, 100, 1000 };
    u64 weigh(u64 x) { return x * WEIGHTS[x & 3]; }`,
};

beforeAll(async () => {
  workspace = createWorkspace('deploy-test-');
  so = linkSbpfV0(await workspace.compile(SOURCES)).bytes;
});
afterAll(() => workspace.dispose());

async function freshChain(): Promise<{ svm: LiteSVM; payer: KeyPairSigner }> {
  const svm = new LiteSVM();
  return { svm, payer: await fundedPayer(svm) };
}

describe('deploying a linked program through the BPF Upgradeable Loader', () => {
  it('passes the strict deploy checks and runs in the next slot', async () => {
    const { svm, payer } = await freshChain();
    const { program, programData, deploy } = await deployUpgradeable(svm, payer, so);
    expect(deploy.error, deploy.logs.join('\n')).toBeUndefined();
    expect(deploy.ok).toBe(true);
    expect(svm.getAccount(programData).exists).toBe(true);

    svm.warpToSlot(svm.getClock().slot + 1n); // a deployment becomes visible in the next slot
    const outcome = await invoke(svm, payer, program, [1, 7]); // doubled(7) = 14; 14 & 3 = 2 -> * 100
    expect(outcome.error, outcome.logs.join('\n')).toBeUndefined();
    expect(outcome.logs).toContain('Program log: deployed through the upgradeable loader');
    expect(returnedU64(outcome)).toBe(1400n);
    expect(returnedU64(await invoke(svm, payer, program, [0, 6]))).toBe(9n * 10n); // plus_three(6) = 9
  });

  it('is stricter than addProgram: an unknown syscall name is refused at deploy time', async () => {
    // Rename the syscall in .dynstr only: the bytes stay a well-formed ELF, but the loader cannot
    // resolve "sol_set_return_datx".
    const broken = Uint8Array.from(so);
    const dynstr = readSharedObject(broken).sections.get('.dynstr')!;
    const name = Buffer.from(broken.buffer, dynstr.offset, dynstr.size).indexOf('sol_set_return_data');
    expect(name).toBeGreaterThan(0);
    broken[dynstr.offset + name + 'sol_set_return_data'.length - 1] = 'x'.charCodeAt(0);

    const { svm, payer } = await freshChain();
    svm.addProgram(await newProgramAddress(), broken); // lenient path: accepted (FINDINGS.md)

    const { deploy } = await deployUpgradeable(svm, payer, broken);
    expect(deploy.ok).toBe(false);
    expect(deploy.error).toContain('InvalidAccountData');
    expect(deploy.logs).toContainEqual(expect.stringContaining('Unresolved symbol (sol_set_return_datx)'));
  });
});
