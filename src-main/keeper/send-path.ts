/**
 * The keeper's one send path (spec 4.4, step 6: simulate before sending, since several keepers may race for
 * the same step and only the first lands). Every crank of the loop, of the liquidity side and of the
 * operator goes through here: the transaction sender (blockhash, simulation, priority fee, confirmation),
 * then the crank sender's booking (earnings, counters, `step` events, lost/skipped/failed), then, for a
 * wager's own step, its record (backoff after a failure, the urgent priority fee near the deadline).
 * How transactions are built and confirmed (a shared blockhash, preflight instead of a separate
 * simulation) is decided in this one place.
 */
import { createSignatureConfirmer } from '../chain/signature-confirmer';
import { createTransactionSender, type SendOptions, type TransactionSender } from '../chain/transaction-sender';
import type { CrankStep, EarningsLedger } from '../store/earnings-ledger';
import type { WagerRecord, WagerRecordChanges } from '../store/wager-records';
import { createCrankSender, type CrankResult, type CrankSender } from './crank-sender';
import type { KeeperContext } from './keeper-context';
import type { KeeperSetup } from './setup';

export type Instructions = Parameters<TransactionSender['send']>[0];

const BACKOFF_BASE_MS = 2_000;
/**
 * A wager's own steps (request, settle, expire) back off at most this long: the window is 150 slots
 * (about a minute), and a backoff grown past it let wagers expire under a faulty RPC (issue 16).
 */
const WAGER_STEP_BACKOFF_MAX_MS = 4_000;
const CLAIM_BACKOFF_BASE_MS = 10_000;
const CLAIM_BACKOFF_MAX_MS = 10 * 60_000;
/** The urgent priority fee (micro-lamports per compute unit), raised 4x per urgent retry, within half the step's fee. */
const URGENT_PRIORITY_MICRO_LAMPORTS = 20_000n;
const URGENT_PRIORITY_MAX_MICRO_LAMPORTS = 5_000_000n;

export interface WagerSend {
  step: CrankStep;
  address: string;
  build: () => Promise<Instructions>;
  /** The record's changes once the step landed. */
  onLanded: (signature: string, slot: bigint) => Promise<WagerRecordChanges>;
  onResult?: (result: CrankResult) => void;
  /**
   * A failure the step handles itself (e.g. a request short of the oracle's fee): the changes to make
   * instead of the usual backoff, or undefined for the usual backoff.
   */
  onFailed?: (error: string) => WagerRecordChanges | undefined;
  sendOptions?: SendOptions;
}

export interface SendPath {
  /** Sends other instructions with the keeper's key and sender, unbooked (the faucet). */
  send: TransactionSender['send'];
  /** Sends one crank and books it (earnings, counters, step event); no wager record. */
  crank: CrankSender['send'];
  counters: CrankSender['counters'];
  /** Sends one step for one wager and records what happened on the wager's record. */
  sendForWager(send: WagerSend): Promise<void>;
  /** The send options of an urgent step: priority raised 4x per attempt already made. */
  urgentOptions(record: WagerRecord): SendOptions;
  /** Wagers with a step in flight (the pass leaves them alone). */
  readonly inFlight: Set<string>;
  /** Stops confirming (after the steps in flight ended). */
  stop(): void;
}

export interface SendPathOptions {
  earnings: EarningsLedger;
  setup: KeeperSetup;
  priorityFeeMicroLamports?: bigint;
}

export function createSendPath(ctx: KeeperContext, { earnings, setup, priorityFeeMicroLamports }: SendPathOptions): SendPath {
  const { rpc, signer, program, events, now, log, records } = ctx;
  const confirmer = createSignatureConfirmer(rpc);
  const sender: TransactionSender = createTransactionSender({ rpc, confirmer, payer: signer, priorityFeeMicroLamports });
  const cranks = createCrankSender({
    sender,
    earnings,
    events,
    config: () => setup.config(),
    now,
    log,
    programs: {
      wager: program,
      // The oracle this deployment's config names (no crank is sent before the config is read).
      get oracle() {
        return setup.config()?.oracleProgram ?? '';
      },
    },
  });
  const inFlight = new Set<string>();

  return {
    send: (instructions, options) => sender.send(instructions, options),
    crank: (step, subject, instructions, options) => cranks.send(step, subject, instructions, options),
    counters: () => cranks.counters(),
    inFlight,
    stop: () => confirmer.stop(),
    urgentOptions(record) {
      const raised = URGENT_PRIORITY_MICRO_LAMPORTS * 4n ** BigInt(Math.min(record.attempts, 6));
      const floor = priorityFeeMicroLamports ?? 0n;
      const price = raised > URGENT_PRIORITY_MAX_MICRO_LAMPORTS ? URGENT_PRIORITY_MAX_MICRO_LAMPORTS : raised;
      return { priorityFeeMicroLamports: price > floor ? price : floor };
    },
    async sendForWager({ step, address, build, onLanded, onResult, onFailed, sendOptions }) {
      inFlight.add(address);
      try {
        let result: CrankResult;
        try {
          result = await cranks.send(step, address, await build(), sendOptions);
        } catch (error) {
          result = { outcome: 'failed', error: (error as Error).message }; // building failed (RPC)
        }
        onResult?.(result);
        if (result.outcome === 'landed') {
          ctx.change(address, { ...(await onLanded(result.signature, result.slot)), attempts: 0, lastError: null, nextAttemptAt: 0 });
        } else if (result.outcome === 'failed') {
          const handled = onFailed?.(result.error);
          if (handled) {
            ctx.change(address, handled);
          } else {
            const attempts = (records.get(address)?.attempts ?? 0) + 1;
            const claim = step === 'claim_payout';
            const backoff = Math.min((claim ? CLAIM_BACKOFF_BASE_MS : BACKOFF_BASE_MS) * 2 ** (attempts - 1), claim ? CLAIM_BACKOFF_MAX_MS : WAGER_STEP_BACKOFF_MAX_MS);
            ctx.change(address, { attempts, lastError: `${step}: ${result.error}`, nextAttemptAt: now() + backoff });
            log?.warn({ wager: address, step, attempts, retryInMs: backoff, error: result.error }, `${step} failed; retrying later`);
            // The refusal says what we cached is stale: the next pass reads config and oracle first.
            if (result.staleSetup) setup.markStale();
          }
        }
        // lost: the next pass reads the wager's new state
      } finally {
        inFlight.delete(address);
      }
    },
  };
}
