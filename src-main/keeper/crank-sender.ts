/**
 * Sends one crank and books it: the earnings ledger (fee received, transaction fee paid), the counters,
 * a `step` event and a log line. Classifies refusals: "another keeper already did it" is lost, "not the
 * right moment any more" is skipped; only the rest is a failure.
 */
import type { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { TransactionFailedError, type SendOptions, type TransactionSender } from '../chain/transaction-sender';
import { customErrorName, type ErrorNamingPrograms } from '../protocol/program-errors';
import type { Config } from '../protocol/wager';
import type { EarningsLedger } from '../store/earnings-ledger';
import type { CrankOutcome, CrankStep } from '../../src-shared/crank-vocabulary';
import type { KeeperEvents } from './keeper-events';

/** Refusals meaning another keeper already did this step: the race is lost, which is normal. */
const RACE_ERRORS = new Set(['invalidWagerStatus', 'invalidWager', 'alreadyFulfilled', 'invalidLiquidityRequest']);
/** Refusals meaning the moment is not (or no longer) right, e.g. the chain moved between read and send. */
const TIMING_ERRORS = new Set(['notFulfilled', 'tooEarly', 'notExpired', 'requestWindowClosed', 'epochNotClosed', 'epochHasOpenWagers', 'epochNotStruck']);
/**
 * Refusals meaning the keeper's cached set-up (program config, oracle network state and treasury) no
 * longer matches the chain (a new genesis, a config change): read it again before retrying.
 */
const STALE_SETUP_ERRORS = new Set([
  'invalidConfig',
  'invalidPool',
  'invalidMint',
  'invalidVault',
  'invalidOracleProgram',
  'invalidOracleAccount',
  'oracle unknownTreasuryGiven',
  'oracle invalidNetworkState',
]);

export type CrankResult =
  | { outcome: 'landed'; signature: string; slot: bigint }
  | { outcome: 'lost' | 'skipped'; reason: string }
  | { outcome: 'failed'; error: string; /** The refusal says the keeper's cached config or oracle is stale. */ staleSetup?: boolean };

export interface CrankSenderOptions {
  sender: TransactionSender;
  earnings: EarningsLedger;
  events: EventEmitter<KeeperEvents>;
  /** The program config, for the fee each step pays (undefined until the keeper read it). */
  config: () => Config | undefined;
  now: () => number;
  log?: Logger;
  /** Whose error names apply: the deployment's wager and oracle programs. */
  programs: ErrorNamingPrograms;
}

export interface CrankSender {
  send(step: CrankStep, subject: string | null, instructions: Parameters<TransactionSender['send']>[0], options?: SendOptions): Promise<CrankResult>;
  counters(): Record<CrankStep, Record<CrankOutcome, number>>;
}

/** What `step` pays its caller, in lamports. */
export function feeFor(step: CrankStep, config: Config | undefined): bigint {
  if (!config) return 0n;
  if (step === 'request') return config.requestFee;
  if (step === 'settle') return config.settleFee;
  if (step === 'expire') return config.expireFee;
  if (step === 'claim_payout') return 0n;
  return config.liquidityFee;
}

export function createCrankSender({ sender, earnings, events, config, now, log, programs }: CrankSenderOptions): CrankSender {
  const counts = {} as Record<CrankStep, Record<CrankOutcome, number>>;
  const count = (step: CrankStep, outcome: CrankOutcome) => {
    counts[step] ??= { landed: 0, lost: 0, skipped: 0, failed: 0 };
    counts[step][outcome] += 1;
  };

  return {
    counters: () => counts,
    async send(step, subject, instructions, options) {
      try {
        const sent = await sender.send(instructions, options);
        const entry = {
          at: new Date(now()).toISOString(),
          wager: subject,
          step,
          signature: sent.signature,
          receivedLamports: Number(feeFor(step, config())),
          feeLamports: Number(sent.feeLamports),
        };
        earnings.record(entry);
        events.emit('earnings', entry);
        events.emit('step', { wager: subject, step, outcome: 'landed', signature: sent.signature });
        count(step, 'landed');
        log?.info({ subject, step, signature: sent.signature }, `${step} landed`);
        return { outcome: 'landed', signature: sent.signature, slot: sent.slot };
      } catch (error) {
        // Named by the program that raised it: an oracle refusal inside the request's CPI is reported on
        // the wager's instruction, with a code that means something else to the wager program.
        const name =
          error instanceof TransactionFailedError && error.customCode !== undefined
            ? customErrorName(error.failingProgram, error.customCode, programs)
            : undefined;
        // Only the wager program's names (bare) can be a lost race or bad timing.
        if (name && (RACE_ERRORS.has(name) || TIMING_ERRORS.has(name))) {
          const outcome = RACE_ERRORS.has(name) ? 'lost' : 'skipped';
          count(step, outcome);
          events.emit('step', { wager: subject, step, outcome, error: name });
          log?.debug({ subject, step, reason: name }, `${step} not needed: ${name}`);
          return { outcome, reason: name };
        }
        const message = name ?? (error as Error).message;
        count(step, 'failed');
        events.emit('step', { wager: subject, step, outcome: 'failed', error: message });
        return { outcome: 'failed', error: message, ...(name && STALE_SETUP_ERRORS.has(name) ? { staleSetup: true } : {}) };
      }
    },
  };
}
