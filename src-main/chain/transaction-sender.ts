/**
 * Sends instructions the way a careful keeper does: simulate first (a refusal costs nothing), set the
 * compute-unit limit from the simulation with a margin, add the priority fee if configured, send, and
 * resend until confirmed or the blockhash expires, then rebuild with a fresh one (a few times).
 *
 * Two opt-in economies (the keeper's, issue 19): a blockhash shared by every transaction for a while
 * (`blockhashMaxAgeMs`) instead of one `getLatestBlockhash` per transaction; and a fixed compute-unit
 * limit (`unitLimit`) checked by the send's own preflight instead of a separate simulation. Without them
 * a sender behaves as it always did. (`resendBackoff` spares resends and block height reads of transactions
 * that take long to confirm.)
 */
import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS, getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { priorityPriceWithin, transactionFeeLamports } from './fees';
import type { SignatureConfirmer } from './signature-confirmer';
import { readConfirmedTransaction } from './read-transaction';

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
  /**
   * Shares one blockhash between transactions until it is this old (ms), instead of fetching one per
   * transaction; a blockhash the RPC calls unknown, or one a transaction outlived, is fetched again.
   * Undefined (the default): a fresh one per transaction.
   */
  blockhashMaxAgeMs?: number;
  /**
   * Resends at a doubling interval (1, 2, 4, then every 8 resend intervals) and lets the RPC rebroadcast
   * in between (sent without `maxRetries: 0`), instead of resending every interval; the expiry is still
   * checked every interval, with one `getBlockHeight` a second shared by every transaction waiting.
   */
  resendBackoff?: boolean;
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
  /** The transaction's logs, when its confirmation carried them (a logs notification); else undefined. */
  logs?: readonly string[];
}

/** Per-send choices: a higher priority fee for a crank close to its deadline, within a lamport budget. */
export interface SendOptions {
  /** Micro-lamports per compute unit for this send (instead of the sender's own). */
  priorityFeeMicroLamports?: bigint;
  /** The most this send may pay in priority fee (lamports): the price is lowered to fit. */
  maxPriorityFeeLamports?: bigint;
  /**
   * A fixed compute-unit limit: no separate simulation. The send's own preflight (at `confirmed`) runs
   * the same checks, and a program's refusal there is the same TransactionFailedError('simulation'), with
   * its logs. A preflight that refuses for any other reason (the limit too small, say) falls back to the
   * simulation, which measures the units and reports the exact error. `unitsConsumed` is then 0 (unknown).
   */
  unitLimit?: number;
  /**
   * With `unitLimit`: the blockhash a simulation of these instructions just ran with (the gateway's
   * check), so the first attempt needs no blockhash read. Dropped if the RPC calls it unknown.
   */
  lifetime?: Lifetime;
}

export interface TransactionSender {
  send(instructions: readonly Instruction[], options?: SendOptions): Promise<SentTransaction>;
  /** Simulates as `send` would first, without sending: the compute units, or the refusal (TransactionFailedError). */
  simulate(instructions: readonly Instruction[]): Promise<{ unitsConsumed: bigint }>;
}

/** A preflight that failed on a program's own error: that error in the RPC's form, with the logs. */
function programRefusal(error: unknown): { err: unknown; logs: readonly string[] } | undefined {
  if (!isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) return undefined;
  const cause = error.cause;
  if (!isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)) return undefined;
  return { err: { InstructionError: [cause.context.index, { Custom: cause.context.code }] }, logs: error.context.logs ?? [] };
}

const isPreflightFailure = (error: unknown) => isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE);
const isAlreadyProcessed = (error: unknown) => isPreflightFailure(error) && isSolanaError((error as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED);
const isUnknownBlockhash = (error: unknown) => isPreflightFailure(error) && isSolanaError((error as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND);

/** How long one block height read serves every waiting transaction (resendBackoff). */
const BLOCK_HEIGHT_SHARED_MS = 1_000;
/** With resendBackoff, resends wait 1, 2, 4, then 8 resend intervals. */
const MAX_RESEND_INTERVALS = 8;

/** Refetches of a blockhash the RPC called unknown (a lagging node behind a load balancer), per transaction. */
const UNKNOWN_BLOCKHASH_REFETCHES = 2;
/** Signatures remembered per shared blockhash, to never build the same transaction twice (a retry of an identical step). */
const SIGNATURES_PER_BLOCKHASH = 20_000;

type Lifetime = Awaited<ReturnType<ReturnType<Rpc<SolanaRpcApi>['getLatestBlockhash']>['send']>>['value'];

/** One blockhash for every transaction while it is young enough; the signatures built with it. */
function createBlockhashSource(rpc: Rpc<SolanaRpcApi>, maxAgeMs: number | undefined) {
  const latest = async () => (await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value;
  let shared: { lifetime: Promise<Lifetime>; at: number; signatures: Set<string> } | undefined;
  return {
    async get(): Promise<Lifetime> {
      if (maxAgeMs === undefined) return latest();
      if (!shared || Date.now() - shared.at > maxAgeMs) {
        const fetching = { lifetime: latest(), at: Date.now(), signatures: new Set<string>() };
        shared = fetching;
        fetching.lifetime.catch(() => {
          if (shared === fetching) shared = undefined; // a failed fetch is not shared
        });
      }
      return shared.lifetime;
    },
    /** Not to be used again: unknown to the RPC, or outlived by a transaction. */
    async drop(blockhash: string) {
      if (!shared) return;
      const lifetime = await shared.lifetime.catch(() => undefined);
      if (lifetime?.blockhash === blockhash) shared = undefined;
    },
    /**
     * Notes a transaction built on the shared blockhash; false when the same one was built already (the
     * same step again within the blockhash's life: it would be refused as already processed).
     */
    async firstBuild(blockhash: string, signature: string): Promise<boolean> {
      if (maxAgeMs === undefined || !shared) return true;
      const lifetime = await shared.lifetime.catch(() => undefined);
      if (lifetime?.blockhash !== blockhash) return true;
      if (shared.signatures.has(signature)) return false;
      shared.signatures.add(signature);
      if (shared.signatures.size >= SIGNATURES_PER_BLOCKHASH) shared = undefined; // the next transaction starts a new one
      return true;
    },
  };
}

export function createTransactionSender(options: SenderOptions): TransactionSender {
  const { rpc, payer } = options;
  const margin = options.computeUnitMargin ?? 1.2;
  const defaultPriority = options.priorityFeeMicroLamports ?? 0n;
  const resendMs = options.resendIntervalMs ?? 2_000;
  const blockhashes = createBlockhashSource(rpc, options.blockhashMaxAgeMs);
  const backoff = options.resendBackoff === true;
  /** The confirmed block height; with resendBackoff one read a second serves every waiting transaction. */
  let height: { at: number; value: Promise<bigint> } | undefined;
  const blockHeight = () => {
    if (!backoff) return rpc.getBlockHeight({ commitment: 'confirmed' }).send();
    if (!height || Date.now() - height.at >= BLOCK_HEIGHT_SHARED_MS) {
      const reading = { at: Date.now(), value: rpc.getBlockHeight({ commitment: 'confirmed' }).send() };
      reading.value.catch(() => {
        if (height === reading) height = undefined;
      });
      height = reading;
    }
    return height.value;
  };

  const build = async (instructions: readonly Instruction[], unitLimit: number, priority: bigint, known?: Lifetime) => {
    const lifetime = known ?? (await blockhashes.get());
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

  /**
   * Signs a transaction on `known` (or the shared blockhash), never one built before on the shared
   * blockhash: the same instructions again (a step retried within the blockhash's life) get one compute
   * unit more, so that they are a new transaction rather than a duplicate the RPC drops.
   */
  const signNew = async (instructions: readonly Instruction[], unitLimit: number, priority: bigint, known?: Lifetime) => {
    const lifetime = known ?? (await blockhashes.get());
    for (let extra = 0; ; extra++) {
      const { message } = await build(instructions, unitLimit + extra, priority, lifetime);
      const signed = await signTransactionMessageWithSigners(message);
      const signature = getSignatureFromTransaction(signed);
      if (await blockhashes.firstBuild(lifetime.blockhash, signature)) {
        return { wire: getBase64EncodedWireTransaction(signed), signature, lifetime, unitLimit: unitLimit + extra };
      }
    }
  };

  const send = async (instructions: readonly Instruction[], sendOptions: SendOptions): Promise<SentTransaction> => {
    const asked = sendOptions.priorityFeeMicroLamports ?? defaultPriority;
    // 1. The compute-unit limit: fixed (checked by the send's preflight), or simulated with a margin.
    const preflight = sendOptions.unitLimit !== undefined;
    let unitLimit: number;
    let unitsConsumed = 0n;
    let known: Lifetime | undefined;
    if (sendOptions.unitLimit !== undefined) {
      unitLimit = Math.min(SIMULATION_UNIT_LIMIT, sendOptions.unitLimit);
      known = sendOptions.lifetime;
    } else {
      const simulated = await simulate(instructions, asked);
      unitsConsumed = simulated.simulation.unitsConsumed ?? 0n;
      unitLimit = Math.min(SIMULATION_UNIT_LIMIT, Math.ceil(Number(simulated.simulation.unitsConsumed ?? 200_000n) * margin) + 1_000);
      known = simulated.draft.lifetime; // the first attempt reuses the simulation's blockhash
    }
    const priority = priorityPriceWithin(asked, BigInt(unitLimit), sendOptions.maxPriorityFeeLamports);
    const programs = [...budgetPrograms(asked), ...instructions.map((ix) => ix.programAddress)];

    // 2. Send; resend until confirmed or the blockhash expires; then rebuild with a fresh blockhash.
    let unknownBlockhashes = 0;
    for (let rebuild = 0; rebuild <= (options.maxRebuilds ?? 3); rebuild++) {
      const built = await signNew(instructions, unitLimit, priority, rebuild === 0 ? known : undefined);
      const { wire, signature, lifetime } = built;
      let expired = false;
      const checkExpiry = async () => {
        expired = (await blockHeight()) > lifetime.lastValidBlockHeight;
      };
      // With resendBackoff the RPC rebroadcasts it too (its default retries); else only our resends do.
      const retries = backoff ? {} : { maxRetries: 0n };
      const resend = () => rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight: true, ...retries }).send();
      if (preflight && rebuild === 0) {
        const sent = await rpc
          .sendTransaction(wire, { encoding: 'base64', preflightCommitment: 'confirmed', ...retries })
          .send()
          .then(() => 'sent' as const, (error: unknown) => error);
        if (sent !== 'sent') {
          const refusal = programRefusal(sent);
          if (refusal) throw new TransactionFailedError('simulation', refusal.err, refusal.logs, programs);
          if (isUnknownBlockhash(sent) && unknownBlockhashes++ < UNKNOWN_BLOCKHASH_REFETCHES) {
            await blockhashes.drop(lifetime.blockhash);
            known = undefined;
            rebuild -= 1; // not an expiry: the same attempt on a blockhash the RPC knows
            continue;
          }
          // Else, unless this very transaction is in already (a retried call whose first answer was lost: wait
          // for it), simulate: the measured limit (the fixed one too small?) and the exact error.
          if (!isAlreadyProcessed(sent)) {
            if (isPreflightFailure(sent)) return send(instructions, { ...sendOptions, unitLimit: undefined });
            throw sent;
          }
        }
      } else {
        await resend();
      }
      let intervals = 0;
      let nextResend = 1;
      let gap = 1;
      const resender = setInterval(() => {
        intervals += 1;
        if (intervals >= nextResend) {
          void resend().catch(() => undefined);
          if (backoff) gap = Math.min(gap * 2, MAX_RESEND_INTERVALS);
          nextResend = intervals + gap;
        }
        void checkExpiry().catch(() => undefined);
      }, resendMs);
      try {
        const outcome = await options.confirmer.wait(signature, () => expired);
        if (outcome.landed) {
          // A logs notification carries the logs; a polled status does not.
          const logs = 'logs' in outcome && Array.isArray(outcome.logs) ? (outcome.logs as readonly string[]) : undefined;
          if (outcome.err) {
            const failedLogs =
              logs ??
              (await readConfirmedTransaction(rpc, signature).catch(() => null))?.meta
                ?.logMessages ??
              [];
            throw new TransactionFailedError('execution', outcome.err, failedLogs, programs);
          }
          const feeLamports = transactionFeeLamports(priority, BigInt(built.unitLimit));
          return { signature, slot: outcome.slot, unitsConsumed, feeLamports, ...(logs ? { logs } : {}) };
        }
        await blockhashes.drop(lifetime.blockhash); // outlived: the next build needs a newer one
      } finally {
        clearInterval(resender);
      }
    }
    throw new BlockhashExpiredError('the transaction did not land before its blockhash expired (rebuilt and resent 3 times)');
  };

  return {
    async simulate(instructions) {
      const { simulation } = await simulate(instructions);
      return { unitsConsumed: simulation.unitsConsumed ?? 0n };
    },
    send: (instructions, sendOptions = {}) => send(instructions, sendOptions),
  };
}
