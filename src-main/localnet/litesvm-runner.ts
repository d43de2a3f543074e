/**
 * Sends kit transactions to an in-process LiteSVM (the real Agave runtime) and reports each outcome in
 * one readable shape: signature, logs, compute units, return data, and on failure which instruction
 * failed and with which named error.
 */
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase58Decoder,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  signTransactionMessageWithSigners,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit';
import type { FailedTransactionMetadata, LiteSVM, TransactionMetadata } from 'litesvm';
import { INSTRUCTION_ERROR_NAMES, TRANSACTION_ERROR_NAMES } from '../chain/runtime-error-names';
import { planProgramDeployment } from '../chain/upgradeable-loader';

export interface TransactionFailure {
  /** Index of the failing instruction, when an instruction (not the transaction) failed. */
  instructionIndex?: number;
  /** `Custom(code)` of the failing program, when it returned its own error. */
  customCode?: number;
  /** Runtime variant name, e.g. `Custom`, `MissingRequiredSignature`, `InsufficientFundsForFee`. */
  name: string;
  /** The runtime's own rendering of the error. */
  message: string;
}

export interface TransactionOutcome {
  ok: boolean;
  signature: string;
  logs: string[];
  computeUnits: bigint;
  returnData: Uint8Array;
  failure?: TransactionFailure;
}

function describeFailure(result: FailedTransactionMetadata): TransactionFailure {
  const err = result.err();
  const message = typeof err === 'number' ? (TRANSACTION_ERROR_NAMES[err] ?? `TransactionError(${err})`) : err.toString();
  if (typeof err === 'number') return { name: message, message };
  if ('err' in err) {
    const inner = err.err();
    if (typeof inner === 'number') {
      return { instructionIndex: err.index, name: INSTRUCTION_ERROR_NAMES[inner] ?? `InstructionError(${inner})`, message };
    }
    if ('code' in inner) return { instructionIndex: err.index, customCode: inner.code, name: 'Custom', message };
    return { instructionIndex: err.index, name: 'BorshIoError', message };
  }
  return { name: message.split(/[ ({]/)[0] ?? message, message };
}

function describeSuccess(meta: TransactionMetadata, signature: string): TransactionOutcome {
  return {
    ok: true,
    signature,
    logs: meta.logs(),
    computeUnits: meta.computeUnitsConsumed(),
    returnData: meta.returnData().data(),
  };
}

export interface LiteSvmRunner {
  readonly svm: LiteSVM;
  /** Signs with the fee payer and every signer in the instructions' account metas, then executes. */
  send(feePayer: TransactionSigner, instructions: readonly Instruction[]): Promise<TransactionOutcome>;
  /** Like `send`, but throws with the logs when the transaction fails. */
  sendOrThrow(feePayer: TransactionSigner, instructions: readonly Instruction[]): Promise<TransactionOutcome>;
  /**
   * Deploys `bytes` through the BPF Upgradeable Loader (the strict deploy-time ELF checks run), then
   * advances one slot, since a deployment becomes callable in the next slot.
   */
  deployUpgradeable(input: { payer: TransactionSigner; program: TransactionSigner; buffer: TransactionSigner; authority: TransactionSigner; bytes: Uint8Array }): Promise<void>;
  /**
   * Moves the clock forward by `slots`, recording a SlotHashes entry for every slot passed (LiteSVM's
   * warp does not), like a validator: at slot N the newest entry is N - 1. Slots in `skip` get no entry,
   * as skipped slots on a real cluster.
   */
  advanceSlots(slots?: number, skip?: ReadonlySet<bigint>): void;
  /** The current slot. */
  slot(): bigint;
}

/** SlotHashes holds at most this many entries, newest first. */
const MAX_SLOT_HASHES = 512;
const randomHash = (): string => getBase58Decoder().decode(crypto.getRandomValues(new Uint8Array(32)));

export interface LiteSvmRunnerOptions {
  /** Produces slots instead of the runner's own warp (the localnet's chain keeps its own clock). */
  advanceSlots?: (slots: number) => void;
}

export function createLiteSvmRunner(svm: LiteSVM, options: LiteSvmRunnerOptions = {}): LiteSvmRunner {
  const runner: LiteSvmRunner = {
    svm,
    async send(feePayer, instructions) {
      // A fresh blockhash per transaction: identical transactions in one test would otherwise be
      // refused as AlreadyProcessed.
      svm.expireBlockhash();
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(feePayer, m),
        (m) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(m),
        (m) => appendTransactionMessageInstructions(instructions, m),
      );
      const transaction = await signTransactionMessageWithSigners(message);
      const signature = getSignatureFromTransaction(transaction);
      const result = svm.sendTransaction(transaction);
      if ('err' in result) {
        const meta = result.meta();
        return {
          ok: false,
          signature,
          logs: meta.logs(),
          computeUnits: meta.computeUnitsConsumed(),
          returnData: new Uint8Array(),
          failure: describeFailure(result),
        };
      }
      return describeSuccess(result, signature);
    },
    async sendOrThrow(feePayer, instructions) {
      const outcome = await runner.send(feePayer, instructions);
      if (!outcome.ok) {
        throw new Error(`transaction failed: ${outcome.failure?.message}\n${outcome.logs.join('\n')}`);
      }
      return outcome;
    },
    async deployUpgradeable({ payer, program, buffer, authority, bytes }) {
      const transactions = await planProgramDeployment({
        payer,
        program,
        buffer,
        authority,
        bytes,
        rentExemptLamports: (space) => svm.minimumBalanceForRentExemption(BigInt(space)),
      });
      for (const instructions of transactions) await runner.sendOrThrow(payer, instructions);
      runner.advanceSlots(1);
    },
    advanceSlots(slots = 1, skip) {
      if (options.advanceSlots) return options.advanceSlots(slots);
      const from = svm.getClock().slot;
      const to = from + BigInt(slots);
      const added = [];
      for (let slot = to - 1n; slot >= from; slot--) if (!skip?.has(slot)) added.push({ slot, hash: randomHash() });
      const kept = svm.getSlotHashes().filter((entry) => entry.slot < from);
      svm.warpToSlot(to);
      svm.setSlotHashes([...added, ...kept].slice(0, MAX_SLOT_HASHES));
    },
    slot() {
      return svm.getClock().slot;
    },
  };
  return runner;
}
