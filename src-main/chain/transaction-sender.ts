/**
 * Sends instructions the way a careful keeper does: simulate first (a refusal costs nothing), set the
 * compute-unit limit from the simulation with a margin, add the priority fee if configured, send, and
 * resend until confirmed or the blockhash expires, then rebuild with a fresh one (a few times).
 */
import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS, getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { LAMPORTS_PER_SIGNATURE, priorityFeeLamports } from './fees';
import type { SignatureConfirmer } from './signature-confirmer';

export const SIMULATION_UNIT_LIMIT = 1_400_000;

export interface SenderOptions {
  rpc: Rpc<SolanaRpcApi>;
  confirmer: SignatureConfirmer;
  payer: KeyPairSigner;
  /** Micro-lamports per compute unit (0 or undefined: no priority fee instruction). */
  priorityFeeMicroLamports?: bigint;
  /** Compute-unit limit = simulated units x margin + 1 000 (default margin 1.2). */
  computeUnitMargin?: number;
  resendIntervalMs?: number;
  maxRebuilds?: number;
}

/** "Program <id> failed: custom program error: 0x<code>", the runtime's line for a program's own error. */
const CUSTOM_FAILURE_LOG = /^Program (\w+) failed: custom program error: 0x([0-9a-fA-F]+)$/;

/** The transaction error a simulation or a landed transaction reported, as the RPC gives it. */
export class TransactionFailedError extends Error {
  constructor(
    readonly stage: 'simulation' | 'execution',
    readonly err: unknown,
    readonly logs: readonly string[],
    /** The program of each top-level instruction, in transaction order (compute budget included). */
    readonly instructionPrograms: readonly string[] = [],
  ) {
    super(`${stage} failed: ${JSON.stringify(err, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
  }

  /** `Custom(code)` of the failing instruction, when it was a program's own error. */
  get customCode(): number | undefined {
    const custom = (this.instructionError?.[1] as { Custom?: number | bigint } | undefined)?.Custom;
    return custom === undefined ? undefined : Number(custom);
  }

  /**
   * The program that raised `customCode`. A failure inside a CPI is reported on the top-level
   * instruction, so the logs decide: the runtime logs the innermost failing program first. Without logs,
   * the program of the failing top-level instruction.
   */
  get failingProgram(): string | undefined {
    if (this.customCode === undefined) return undefined;
    for (const line of this.logs) {
      const failed = CUSTOM_FAILURE_LOG.exec(line);
      if (failed && Number.parseInt(failed[2]!, 16) === this.customCode) return failed[1];
    }
    const index = this.instructionError?.[0];
    return index === undefined ? undefined : this.instructionPrograms[Number(index)];
  }

  private get instructionError(): [number | bigint, unknown] | undefined {
    return (this.err as { InstructionError?: [number | bigint, unknown] } | null)?.InstructionError;
  }
}

export class BlockhashExpiredError extends Error {}

export interface SentTransaction {
  signature: string;
  slot: bigint;
  unitsConsumed: bigint;
  /** Lamports the fee payer paid for the transaction (base + priority). */
  feeLamports: bigint;
}

/** Per-send choices: a higher priority fee for a crank close to its deadline, within a lamport budget. */
export interface SendOptions {
  /** Micro-lamports per compute unit for this send (instead of the sender's own). */
  priorityFeeMicroLamports?: bigint;
  /** The most this send may pay in priority fee (lamports): the price is lowered to fit. */
  maxPriorityFeeLamports?: bigint;
}

export interface TransactionSender {
  send(instructions: readonly Instruction[], options?: SendOptions): Promise<SentTransaction>;
  /** Simulates as `send` would first, without sending: the compute units, or the refusal (TransactionFailedError). */
  simulate(instructions: readonly Instruction[]): Promise<{ unitsConsumed: bigint }>;
}

export function createTransactionSender(options: SenderOptions): TransactionSender {
  const { rpc, payer } = options;
  const margin = options.computeUnitMargin ?? 1.2;
  const defaultPriority = options.priorityFeeMicroLamports ?? 0n;
  const resendMs = options.resendIntervalMs ?? 2_000;

  type Lifetime = Awaited<ReturnType<ReturnType<typeof rpc.getLatestBlockhash>['send']>>['value'];
  const build = async (instructions: readonly Instruction[], unitLimit: number, priority: bigint, known?: Lifetime) => {
    const lifetime = known ?? (await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value;
    const budget = [
      getSetComputeUnitLimitInstruction({ units: unitLimit }),
      ...(priority > 0n ? [getSetComputeUnitPriceInstruction({ microLamports: priority })] : []),
    ];
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions([...budget, ...instructions], m),
    );
    return { message, lifetime };
  };
  /** The compute-budget instructions `build` puts first (their programs, for naming a failing instruction). */
  const budgetPrograms = (priority: bigint) => (priority > 0n ? [COMPUTE_BUDGET_PROGRAM_ADDRESS, COMPUTE_BUDGET_PROGRAM_ADDRESS] : [COMPUTE_BUDGET_PROGRAM_ADDRESS]);

  /** Simulates with room to spare; a refusal here costs nothing and names the reason. */
  const simulate = async (instructions: readonly Instruction[], priority = defaultPriority) => {
    const draft = await build(instructions, SIMULATION_UNIT_LIMIT, priority);
    const unsigned = getBase64EncodedWireTransaction(compileTransaction(draft.message));
    const { value: simulation } = await rpc
      .simulateTransaction(unsigned, { encoding: 'base64', sigVerify: false, replaceRecentBlockhash: true, commitment: 'confirmed' })
      .send();
    const programs = [...budgetPrograms(priority), ...instructions.map((ix) => ix.programAddress)];
    if (simulation.err) throw new TransactionFailedError('simulation', simulation.err, simulation.logs ?? [], programs);
    return { draft, simulation, programs };
  };

  return {
    async simulate(instructions) {
      const { simulation } = await simulate(instructions);
      return { unitsConsumed: simulation.unitsConsumed ?? 0n };
    },
    async send(instructions, sendOptions = {}) {
      const asked = sendOptions.priorityFeeMicroLamports ?? defaultPriority;
      // 1. Simulate.
      const { draft, simulation, programs } = await simulate(instructions, asked);
      const unitLimit = Math.min(SIMULATION_UNIT_LIMIT, Math.ceil(Number(simulation.unitsConsumed ?? 200_000n) * margin) + 1_000);
      const budget = sendOptions.maxPriorityFeeLamports;
      const priority =
        budget !== undefined && priorityFeeLamports(asked, BigInt(unitLimit)) > budget ? (budget * 1_000_000n) / BigInt(unitLimit) : asked;
      const feeLamports = LAMPORTS_PER_SIGNATURE + priorityFeeLamports(priority, BigInt(unitLimit));

      // 2. Send; resend until confirmed or the blockhash expires; then rebuild with a fresh blockhash.
      for (let rebuild = 0; rebuild <= (options.maxRebuilds ?? 3); rebuild++) {
        // The first attempt reuses the simulation's blockhash (one RPC call less per crank).
        const { message, lifetime } = await build(instructions, unitLimit, priority, rebuild === 0 ? draft.lifetime : undefined);
        const signed = await signTransactionMessageWithSigners(message);
        const wire = getBase64EncodedWireTransaction(signed);
        const signature = getSignatureFromTransaction(signed);
        let expired = false;
        const checkExpiry = async () => {
          const height = await rpc.getBlockHeight({ commitment: 'confirmed' }).send();
          expired = height > lifetime.lastValidBlockHeight;
        };
        const sendOnce = () => rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight: true, maxRetries: 0n }).send();
        await sendOnce();
        const resender = setInterval(() => {
          void sendOnce().catch(() => undefined);
          void checkExpiry().catch(() => undefined);
        }, resendMs);
        try {
          const outcome = await options.confirmer.wait(signature, () => expired);
          if (outcome.landed) {
            if (outcome.err) {
              const tx = await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send().catch(() => null);
              throw new TransactionFailedError('execution', outcome.err, tx?.meta?.logMessages ?? [], programs);
            }
            return { signature, slot: outcome.slot, unitsConsumed: simulation.unitsConsumed ?? 0n, feeLamports };
          }
        } finally {
          clearInterval(resender);
        }
      }
      throw new BlockhashExpiredError('the transaction did not land before its blockhash expired (rebuilt and resent 3 times)');
    },
  };
}
