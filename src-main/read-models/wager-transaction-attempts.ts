/**
 * A wager's failed transactions, for support: those the chain kept (failed transactions on the wager's
 * address: any sender's, with the error the program raised) and those this keeper tried (its step log:
 * failed or lost cranks, most never reached the chain because the preflight refused them), merged by
 * signature, newest first, each with its time, sender, step and error in words.
 */
import { getBase58Encoder, type Address, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { lastErrorInWords } from '../protocol/program-error-sentences';
import type { ErrorNamingPrograms } from '../protocol/program-errors';
import { WagerInstruction, identifyWagerInstruction } from '../protocol/generated/wager/programs/wager';
import type { Database } from '../store/database';
import type { FailedAttemptView } from '../../src-shared/contract/inspection';
import { newestSignatures } from '../history/wager-history-walk';
import { failureInWords, readTransactionJson, type TransactionJson } from './wager-transaction';

/** Signatures read on the wager's address (its whole life is a handful: open, request, settle, claim, retries). */
const SIGNATURES_READ = 100;

const STEP_WORDS: Partial<Record<WagerInstruction, string>> = {
  [WagerInstruction.OpenWager]: 'open',
  [WagerInstruction.RequestRandomness]: 'request randomness',
  [WagerInstruction.SettleWager]: 'settle',
  [WagerInstruction.ExpireWager]: 'expire',
  [WagerInstruction.ClaimPayout]: 'claim payout',
};

/** The keeper's step names (crank_steps.step) in the same words. */
const KEEPER_STEP_WORDS: Record<string, string> = {
  request: 'request randomness',
  settle: 'settle',
  expire: 'expire',
  claim_payout: 'claim payout',
};

/** Which wager step a transaction was: its first wager-program instruction, in words. */
export function stepOfTransaction(tx: TransactionJson, program: string): string {
  const keys = tx.transaction.message.accountKeys;
  const instruction = (
    tx.transaction.message.instructions as readonly { programIdIndex: number; data?: string }[]
  ).find((ix) => keys[ix.programIdIndex] === program);
  if (!instruction?.data) return 'another program';
  try {
    return (
      STEP_WORDS[identifyWagerInstruction(getBase58Encoder().encode(instruction.data))] ??
      'another wager instruction'
    );
  } catch {
    return 'an unknown wager instruction';
  }
}

interface KeeperStepRow {
  atMs: number;
  step: string;
  outcome: 'failed' | 'lost';
  signature: string | null;
  error: string | null;
}

/** This keeper's failed and lost cranks of `wager` (read-only). */
export function keeperFailedSteps(db: Database, wager: string): KeeperStepRow[] {
  return db
    .prepare(
      "SELECT at_ms AS atMs, step, outcome, signature, error FROM crank_steps WHERE wager = ? AND outcome IN ('failed', 'lost') ORDER BY at_ms DESC, id DESC LIMIT 100",
    )
    .all(wager) as unknown as KeeperStepRow[];
}

/** A keeper step's error in words ("lost" says another keeper got there first). */
function keeperError(row: KeeperStepRow): string {
  const words = row.error ? lastErrorInWords(row.error) : 'no error recorded';
  return row.outcome === 'lost' ? `lost: another sender did this step first (${words})` : words;
}

/** Chain failures and keeper failures in one list, one entry per signature, newest first. */
export function mergeAttempts(
  chain: FailedAttemptView[],
  keeper: KeeperStepRow[],
  keeperAddress: string | null,
): FailedAttemptView[] {
  const bySignature = new Map(chain.filter((a) => a.signature).map((a) => [a.signature!, a]));
  const merged = [...chain];
  for (const row of keeper) {
    const onChain = row.signature ? bySignature.get(row.signature) : undefined;
    if (onChain) {
      onChain.source = 'chain and this keeper';
      continue;
    }
    merged.push({
      at: new Date(row.atMs).toISOString(),
      signature: row.signature,
      step: KEEPER_STEP_WORDS[row.step] ?? row.step,
      sender: keeperAddress,
      error: keeperError(row),
      source: 'this keeper',
    });
  }
  return merged.sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''));
}

/** The failed transactions the chain kept on the wager's address. */
export async function chainFailedAttempts(
  rpc: Rpc<SolanaRpcApi>,
  wager: Address,
  programs: ErrorNamingPrograms,
): Promise<FailedAttemptView[]> {
  const page = await newestSignatures(rpc, wager, SIGNATURES_READ);
  const failed = page.filter((entry) => entry.err !== null);
  return Promise.all(
    failed.map(async (entry) => {
      const tx = await readTransactionJson(rpc, entry.signature);
      const blockTime = entry.blockTime ?? tx?.blockTime ?? null;
      return {
        at: blockTime === null ? null : new Date(Number(blockTime) * 1000).toISOString(),
        signature: entry.signature,
        step: tx ? stepOfTransaction(tx, programs.wager) : 'unknown (the transaction is no longer kept)',
        sender: tx?.transaction.message.accountKeys[0] ?? null,
        error:
          (tx && failureInWords(tx, programs)) ??
          JSON.stringify(entry.err, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
        source: 'chain' as const,
      };
    }),
  );
}
