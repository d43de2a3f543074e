/**
 * A linked program survives a real deployment: BPF Upgradeable Loader InitializeBuffer, Write,
 * DeployWithMaxDataLen, which run the loader's strict deploy-time ELF checks (unlike
 * `svm.addProgram`), then runs in the next slot.
 */
import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProgramDataAddress, planProgramDeployment } from '../../../src-main/chain/upgradeable-loader.ts';
import { linkSbpfV0 } from '../linker.ts';
import { createWorkspace } from './helpers/c-objects.ts';
import type { Workspace } from './helpers/c-objects.ts';
import { readSharedObject } from './helpers/shared-object.ts';
import { fundedChain, invoke, newProgramAddress, returnedU64 } from './helpers/svm.ts';

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

describe('deploying a linked program through the BPF Upgradeable Loader', () => {
  it('passes the strict deploy checks and runs in the next slot', async () => {
    const chain = await fundedChain();
    const { runner, payer } = chain;
    const [program, buffer] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    // Throws with the loader's logs if any step, DeployWithMaxDataLen included, fails; then advances
    // one slot, since a deployment becomes visible in the next slot.
    await runner.deployUpgradeable({ payer, program, buffer, authority: payer, bytes: so });
    expect(runner.svm.getAccount(await findProgramDataAddress(program.address)).exists).toBe(true);

    const outcome = await invoke(chain, program.address, [1, 7]); // doubled(7) = 14; 14 & 3 = 2 -> * 100
    expect(outcome.failure, outcome.logs.join('\n')).toBeUndefined();
    expect(outcome.logs).toContain('Program log: deployed through the upgradeable loader');
    expect(returnedU64(outcome)).toBe(1400n);
    expect(returnedU64(await invoke(chain, program.address, [0, 6]))).toBe(9n * 10n); // plus_three(6) = 9
  });

  it('is stricter than addProgram: an unknown syscall name is refused at deploy time', async () => {
    // Rename the syscall in .dynstr only: the bytes stay a well-formed ELF, but the loader cannot
    // resolve "sol_set_return_datx".
    const broken = Uint8Array.from(so);
    const dynstr = readSharedObject(broken).sections.get('.dynstr')!;
    const name = Buffer.from(broken.buffer, dynstr.offset, dynstr.size).indexOf('sol_set_return_data');
    expect(name).toBeGreaterThan(0);
    broken[dynstr.offset + name + 'sol_set_return_data'.length - 1] = 'x'.charCodeAt(0);

    const { runner, payer } = await fundedChain();
    runner.svm.addProgram(await newProgramAddress(), broken); // lenient path: accepted (FINDINGS.md)

    // The transactions runner.deployUpgradeable would send, sent one by one to see the last one fail.
    const [program, buffer] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    const transactions = await planProgramDeployment({
      payer,
      program,
      buffer,
      authority: payer,
      bytes: broken,
      rentExemptLamports: (space) => runner.svm.minimumBalanceForRentExemption(BigInt(space)),
    });
    const bufferSteps = transactions.slice(0, -1);
    expect(bufferSteps.length).toBeGreaterThan(1); // create + InitializeBuffer, then the Writes
    for (const instructions of bufferSteps) await runner.sendOrThrow(payer, instructions);

    const deploy = await runner.send(payer, transactions.at(-1)!);
    expect(deploy.ok).toBe(false);
    expect(deploy.failure?.message).toContain('InvalidAccountData');
    expect(deploy.logs).toContainEqual(expect.stringContaining('Unresolved symbol (sol_set_return_datx)'));
  });
});
