/**
 * KNOWN_SYSCALLS is the linker's promise that a name will resolve at deploy time. This test keeps the
 * promise honest against the runtime itself: for every name in the list it links a tiny program that
 * calls it and deploys it through the BPF Upgradeable Loader (strict checks: an unregistered name fails
 * DeployWithMaxDataLen with "Unresolved symbol"). A name LiteSVM's Agave does not register fails here,
 * not in a program's first deployment.
 */
import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkSbpfV0 } from '../linker.ts';
import { KNOWN_SYSCALLS } from '../sbpf-v0.ts';
import { createWorkspace } from './helpers/c-objects.ts';
import type { Workspace } from './helpers/c-objects.ts';
import { fundedChain } from './helpers/svm.ts';

const names = [...KNOWN_SYSCALLS].sort();
let workspace: Workspace;
const programs = new Map<string, Uint8Array>();

/**
 * A program whose only import is `name`, declared without arguments: it is deployed, never run. No
 * fixture.h: that header declares some syscalls with their real prototypes.
 */
const callerOf = (name: string) => `void ${name}(void);
  unsigned long long entrypoint(const unsigned char *input) { (void)input; ${name}(); return 0; }`;

beforeAll(async () => {
  workspace = createWorkspace('known-syscalls-');
  const sources = Object.fromEntries(names.map((name) => [`call_${name}.c`, callerOf(name)]));
  // `abort` is a library name; its prototype here is the real one, the flag only keeps clang quiet.
  const objects = await workspace.compile(sources, ['-Wno-incompatible-library-redeclaration']);
  objects.forEach((object, i) => programs.set(names[i]!, linkSbpfV0([object]).bytes));
}, 120_000);
afterAll(() => workspace.dispose());

describe('every syscall the linker accepts is registered by the runtime', () => {
  it('has a list to check', () => {
    expect(names.length).toBeGreaterThan(20);
  });

  it('deploys a program calling each known syscall through the upgradeable loader', async () => {
    const { runner, payer } = await fundedChain();
    const unresolved: string[] = [];
    for (const name of names) {
      const so = programs.get(name)!;
      const [program, buffer] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
      try {
        await runner.deployUpgradeable({ payer, program, buffer, authority: payer, bytes: so });
      } catch (error) {
        const message = (error as Error).message;
        unresolved.push(message.includes('Unresolved symbol') ? name : `${name} (${message.split('\n')[0]})`);
      }
    }
    expect(
      unresolved,
      `KNOWN_SYSCALLS names the runtime refuses at deploy: remove them from sbpf-v0.ts`,
    ).toEqual([]);
  }, 120_000);
});
