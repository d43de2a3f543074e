/**
 * Sends a transaction the gateway simulated a moment ago (the paid request's check): with that
 * simulation's compute units and blockhash, and the RPC's preflight instead of a second simulation (the
 * same checks, in the same call as the send; a refusal costs no fee). Confirmed by the gateway's
 * subscription, resent every 2 s until confirmed or its blockhash expired, as the keeper's sender does.
 *
 * A preflight refusal by a program comes back as TransactionFailedError ('simulation'), a failure after
 * landing as TransactionFailedError ('execution'). Anything else (an unknown blockhash on a lagging node,
 * an expiry before landing) throws `PreparedSendFailed`: nothing landed, so the caller may send again the
 * usual way.
 */
import {
  appendTransactionMessageInstructions,
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
  type Blockhash,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS, getSetComputeUnitLimitInstruction } from '@solana-program/compute-budget';
import { SIMULATION_UNIT_LIMIT, TransactionFailedError } from '../chain/transaction-sender';
import type { SubscribedConfirmer } from '../chain/subscribed-confirmer';

const RESEND_MS = 2_000;

/** What a simulation of these instructions just gave: its units and the blockhash it ran with. */
export interface Simulated {
  unitsConsumed: bigint;
  lifetime: { blockhash: Blockhash; lastValidBlockHeight: bigint };
}

/** Nothing landed: send again the usual way (fresh blockhash, simulation). */
export class PreparedSendFailed extends Error {}

/** The program refusal a preflight failure carries, in the RPC's TransactionError form, or undefined for any other failure. */
function preflightRefusal(error: unknown): { err: unknown; logs: readonly string[] } | undefined {
  if (!isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) return undefined;
  const cause = error.cause;
  if (!isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)) return undefined;
  const logs = (error.context as { logs?: readonly string[] | null }).logs ?? [];
  return { err: { InstructionError: [cause.context.index, { Custom: cause.context.code }] }, logs };
}

export async function sendPrepared(
  chain: { rpc: Rpc<SolanaRpcApi>; confirmer: SubscribedConfirmer; payer: KeyPairSigner },
  instructions: readonly Instruction[],
  simulated: Simulated,
): Promise<{ signature: string; slot: bigint }> {
  const { rpc, confirmer, payer } = chain;
  const units = Math.min(SIMULATION_UNIT_LIMIT, Math.ceil(Number(simulated.unitsConsumed) * 1.2) + 1_000);
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(simulated.lifetime, m),
    (m) => appendTransactionMessageInstructions([getSetComputeUnitLimitInstruction({ units }), ...instructions], m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const wire = getBase64EncodedWireTransaction(signed);
  const signature = getSignatureFromTransaction(signed);
  const programs = [COMPUTE_BUDGET_PROGRAM_ADDRESS, ...instructions.map((ix) => ix.programAddress)];

  try {
    await rpc.sendTransaction(wire, { encoding: 'base64', preflightCommitment: 'confirmed', maxRetries: 0n }).send();
  } catch (error) {
    const refusal = preflightRefusal(error);
    if (refusal) throw new TransactionFailedError('simulation', refusal.err, refusal.logs, programs);
    throw new PreparedSendFailed(`the prepared transaction was not sent: ${(error as Error).message}`, { cause: error });
  }
  let expired = false;
  const resender = setInterval(() => {
    void rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight: true, maxRetries: 0n }).send().catch(() => undefined);
    void rpc
      .getBlockHeight({ commitment: 'confirmed' })
      .send()
      .then((height) => (expired = height > simulated.lifetime.lastValidBlockHeight))
      .catch(() => undefined);
  }, RESEND_MS);
  try {
    const outcome = await confirmer.wait(signature, () => expired);
    if (!outcome.landed) throw new PreparedSendFailed('the prepared transaction did not land before its blockhash expired');
    if (outcome.err) {
      // The notification carries the logs; a polled outcome does not.
      const logs = 'logs' in outcome && outcome.logs ? outcome.logs : ((await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send().catch(() => null))?.meta?.logMessages ?? []);
      throw new TransactionFailedError('execution', outcome.err, logs, programs);
    }
    return { signature, slot: outcome.slot };
  } finally {
    clearInterval(resender);
  }
}
