/**
 * What the toolchain tests add on top of the shared LiteSVM runner (src-main/localnet/litesvm-runner.ts):
 * a funded fee payer, invoking a program without accounts, and reading a u64 of return data.
 */
import { generateKeyPairSigner, lamports } from '@solana/kit';
import type { Address, KeyPairSigner } from '@solana/kit';
import { LiteSVM } from 'litesvm';
import { createLiteSvmRunner } from '../../../../src-main/localnet/litesvm-runner.ts';
import type { LiteSvmRunner, TransactionOutcome } from '../../../../src-main/localnet/litesvm-runner.ts';

/** A fresh LiteSVM behind the shared runner, and a fee payer with plenty of lamports. */
export interface TestChain {
  readonly runner: LiteSvmRunner;
  readonly payer: KeyPairSigner;
}

export async function fundedChain(): Promise<TestChain> {
  const runner = createLiteSvmRunner(new LiteSVM());
  const payer = await generateKeyPairSigner();
  runner.svm.airdrop(payer.address, lamports(100_000_000_000n));
  return { runner, payer };
}

/** A fresh random program address. */
export async function newProgramAddress(): Promise<Address> {
  return (await generateKeyPairSigner()).address;
}

/** Invokes `program` with instruction data `data` and no accounts, in a transaction of its own. */
export function invoke(
  { runner, payer }: TestChain,
  program: Address,
  data: Iterable<number> = [],
): Promise<TransactionOutcome> {
  return runner.send(payer, [{ programAddress: program, accounts: [], data: Uint8Array.from(data) }]);
}

/** Decodes 8 bytes of return data as a little-endian u64. */
export function returnedU64(outcome: TransactionOutcome): bigint {
  if (outcome.returnData.length !== 8) {
    const error = outcome.failure ? ` (transaction failed: ${outcome.failure.message})` : '';
    throw new Error(
      `expected 8 bytes of return data, got ${outcome.returnData.length}${error}; logs:\n${outcome.logs.join('\n')}`,
    );
  }
  return new DataView(outcome.returnData.buffer, outcome.returnData.byteOffset, 8).getBigUint64(0, true);
}
