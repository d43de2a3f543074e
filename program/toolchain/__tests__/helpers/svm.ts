/**
 * Sending transactions to LiteSVM with @solana/kit, as the spike's run.mjs does, reduced to what
 * the toolchain tests check: success, logs, return data and the error text.
 */
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import type { Address, Instruction, InstructionWithSigners, KeyPairSigner } from '@solana/kit';
import type { LiteSVM } from 'litesvm';

/** What a test needs to know about one transaction. */
export interface Outcome {
  readonly ok: boolean;
  readonly logs: readonly string[];
  readonly returnData: Uint8Array;
  /** The transaction error, when it failed. */
  readonly error?: string;
}

/** A fee payer with plenty of lamports. */
export async function fundedPayer(svm: LiteSVM): Promise<KeyPairSigner> {
  const payer = await generateKeyPairSigner();
  svm.airdrop(payer.address, lamports(100_000_000_000n));
  return payer;
}

/** A fresh random program address. */
export async function newProgramAddress(): Promise<Address> {
  return (await generateKeyPairSigner()).address;
}

/** Signs and sends `instructions` in one transaction paid by `payer`. */
export async function send(
  svm: LiteSVM,
  payer: KeyPairSigner,
  instructions: readonly (Instruction & InstructionWithSigners)[],
): Promise<Outcome> {
  svm.expireBlockhash(); // a fresh blockhash per transaction: identical transactions would be duplicates
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const result = svm.sendTransaction(await signTransactionMessageWithSigners(message));
  if ('err' in result) {
    const meta = result.meta();
    return {
      ok: false,
      logs: meta.logs(),
      returnData: meta.returnData().data(),
      error: result.err().toString(),
    };
  }
  return { ok: true, logs: result.logs(), returnData: result.returnData().data() };
}

/** Invokes `program` with instruction data `data` and no accounts. */
export function invoke(
  svm: LiteSVM,
  payer: KeyPairSigner,
  program: Address,
  data: Iterable<number> = [],
): Promise<Outcome> {
  return send(svm, payer, [{ programAddress: program, accounts: [], data: Uint8Array.from(data) }]);
}

/** Decodes 8 bytes of return data as a little-endian u64. */
export function returnedU64(outcome: Outcome): bigint {
  if (outcome.returnData.length !== 8) {
    throw new Error(
      `expected 8 bytes of return data, got ${outcome.returnData.length}; logs:\n${outcome.logs.join('\n')}`,
    );
  }
  return new DataView(outcome.returnData.buffer, outcome.returnData.byteOffset, 8).getBigUint64(0, true);
}
