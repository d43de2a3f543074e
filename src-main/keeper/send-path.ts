/**
 * The keeper's one send path (spec 4.4, step 6: simulate before sending, since several keepers may race for
 * the same step and only the first lands). Every crank of the loop, of the liquidity side and of the
 * operator goes through here: the transaction sender (blockhash, simulation, priority fee, confirmation),
 * then the crank sender's booking (earnings, counters, `step` events, lost/skipped/failed), then, for a
 * wager's own step, its record (backoff after a failure, the urgent priority fee near the deadline).
 * How transactions are built and confirmed is decided in this one place (issue 19, "Cost per wager": about
 * 2 RPC calls per wager, its two sends):
 * - one blockhash shared by every transaction for BLOCKHASH_MAX_AGE_MS (fetched again when the RPC calls
 *   it unknown or a transaction outlived it), not one getLatestBlockhash per transaction;
 * - a fixed compute-unit limit per step (UNIT_LIMITS) checked by the send's own preflight at `confirmed`,
 *   not a separate simulation: a refusal there is the same program error, with its logs, at no fee;
 * - confirmations (with the transaction's logs) from one logsSubscribe on the keeper's address, polling
 *   getSignatureStatuses only when the WebSocket is down or silent; a settlement's bucket and payout come
 *   from those logs, not a getTransaction;
 * - a transaction slow to confirm is resent after 2, 4, 8 s then every 16 s (the RPC rebroadcasts it in
 *   between), its expiry checked with one getBlockHeight a second for all of them;
 * - earnings from what the keeper knows: the fee the program pays by rule (spec 8) and the fee it set.
 * And no crank is sent whose fee (base plus priority) is above what it pays the keeper (FEE_EXCEEDS_PAY).
 * With `--priority-fee auto` the price is the estimator's for the accounts the crank writes (or the urgent
 * raise, whichever is higher), lowered within the crank's pay instead of skipped for it.
 */
import { isWritableRole } from '@solana/kit';
import { createSignatureConfirmer, type SignatureConfirmer } from '../chain/signature-confirmer';
import { createTransactionSender, type SendOptions, type TransactionSender } from '../chain/transaction-sender';
import { autoCrankPrice, LAMPORTS_PER_SIGNATURE, priorityPriceWithin, transactionFeeLamports } from '../chain/fees';
import { fixedPriorityFeeStatus, type PriorityFeeEstimator, type PriorityFeeStatus } from '../chain/priority-fee-estimate';
import { createSubscribedConfirmer } from '../chain/subscribed-confirmer';
import type { EarningsLedger } from '../store/earnings-ledger';
import type { CrankOutcome, CrankStep } from '../../src-shared/crank-vocabulary';
import type { WagerRecord, WagerRecordChanges } from '../store/wager-records';
import { createCrankSender, feeFor, type CrankResult, type CrankSender } from './crank-sender';
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

/**
 * How long one blockhash serves every transaction. A blockhash lives 150 blocks (about 60 s at 400 ms
 * slots): a transaction built on one this old still has 50 s to land before the sender rebuilds it.
 */
export const BLOCKHASH_MAX_AGE_MS = 10_000;

/**
 * The compute-unit limit of each crank, fixed so that no simulation precedes a send (the preflight checks
 * it; one found too small falls back to simulating and sends with the measured units). Measured with
 * `npm run bench:cu` (2026-11-26), then given a wide margin: without a priority fee a limit costs nothing,
 * and with one the fee check below counts the whole limit.
 * - request: 11 645 CU at 1 oracle bump try, +1 500 per further try (the oracle's PDA search, each try half
 *   as likely as the one before), plus a System transfer when topping up the fee account: 60 000 covers
 *   32 tries;
 * - settle: 4 415 (losing) to 5 854 (paying, 32 buckets; +6 per bucket drawn): 20 000;
 * - expire: 3 806 to 3 943; claim_payout: 2 511; strike_epoch: 1 152 to 3 984: 10 000 each;
 * - claim_deposit: 4 042 to 4 054; claim_withdraw: 4 100 to 5 393: 15 000 each.
 */
export const UNIT_LIMITS: Readonly<Record<CrankStep, number>> = {
  request: 60_000,
  settle: 20_000,
  expire: 10_000,
  claim_payout: 10_000,
  strike_epoch: 10_000,
  claim_deposit: 15_000,
  claim_withdraw: 15_000,
};

/** Why a crank was not sent: its fee (base plus priority) is above what the program pays the keeper for it. */
export const FEE_EXCEEDS_PAY = 'fee exceeds pay';

export interface WagerSend {
  step: CrankStep;
  address: string;
  build: () => Promise<Instructions>;
  /** The record's changes once the step landed (`logs`: the transaction's, when its confirmation carried them). */
  onLanded: (signature: string, slot: bigint, logs?: readonly string[]) => Promise<WagerRecordChanges>;
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
  /** The priority fee in use now and why (fixed, or the market's for the accounts cranked). */
  priorityFee(): PriorityFeeStatus;
  /** The prices the keeper's auto-priced cranks landed at in `slot` (the estimator's ownFees). */
  ownFees(slot: bigint): ReadonlySet<bigint> | undefined;
}

export interface SendPathOptions {
  earnings: EarningsLedger;
  setup: KeeperSetup;
  priorityFeeMicroLamports?: bigint;
  /** `--priority-fee auto`: the market's price for the accounts each crank writes (priorityFeeMicroLamports is then unused). */
  priorityFeeEstimator?: PriorityFeeEstimator;
}

/**
 * Confirms by one logsSubscribe on the keeper's address (every crank is paid by the keeper, so each is
 * notified with its error and logs), polling only while the WebSocket is down or silent. Subscribed on the
 * first wait: a keeper that never sends opens no subscription.
 */
function createKeeperConfirmer(ctx: KeeperContext): SignatureConfirmer {
  const polling = createSignatureConfirmer(ctx.rpc);
  let subscribed: SignatureConfirmer | undefined;
  let stopped = false;
  return {
    wait(signature, expired) {
      if (stopped) return polling.wait(signature, expired);
      subscribed ??= createSubscribedConfirmer(ctx.connection.subscriptions, ctx.signer.address, polling);
      return subscribed.wait(signature, expired);
    },
    stop() {
      stopped = true;
      if (subscribed) subscribed.stop();
      else polling.stop();
    },
  };
}

export function createSendPath(ctx: KeeperContext, { earnings, setup, priorityFeeMicroLamports, priorityFeeEstimator }: SendPathOptions): SendPath {
  const { rpc, signer, program, events, now, log, records } = ctx;
  const confirmer = createKeeperConfirmer(ctx);
  const sender: TransactionSender = createTransactionSender({
    rpc,
    confirmer,
    payer: signer,
    priorityFeeMicroLamports,
    blockhashMaxAgeMs: BLOCKHASH_MAX_AGE_MS,
    resendBackoff: true,
  });
  /** The logs of cranks that just landed, by signature, for the step that sent them (the crank sender books only signature and slot). */
  const landedLogs = new Map<string, readonly string[]>();
  const cranks = createCrankSender({
    sender: {
      simulate: (instructions) => sender.simulate(instructions),
      async send(instructions, options) {
        const sent = await sender.send(instructions, options);
        if (sent.logs) landedLogs.set(sent.signature, sent.logs);
        return sent;
      },
    },
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

  /** Cranks not sent because their fee is above their pay, by step (added to the crank sender's counters). */
  const feeSkips: Partial<Record<CrankStep, number>> = {};
  /** Which wager (or subject) was already reported for which step, so that a crank skipped every pass warns once. */
  const feeReported = new Set<string>();

  /** The options a crank is sent with: its fixed limit, and a priority fee kept within its pay. */
  const crankOptions = (step: CrankStep, options: SendOptions = {}): SendOptions => {
    const pay = feeFor(step, setup.config());
    const room = pay - LAMPORTS_PER_SIGNATURE;
    const cap = options.maxPriorityFeeLamports;
    return {
      ...options,
      unitLimit: UNIT_LIMITS[step],
      // A backstop: should the fixed limit prove too small, the simulated one must not push the fee above the pay.
      ...(pay > 0n && room >= 0n ? { maxPriorityFeeLamports: cap !== undefined && cap < room ? cap : room } : {}),
    };
  };

  /**
   * The fee and pay of a crank that would cost more than it pays (not to be sent), else undefined. A
   * crank that pays nothing by rule (claim_payout: a player's parked payout) is a duty, not paid work: sent.
   */
  const feeAbovePay = (step: CrankStep, options: SendOptions = {}) => {
    const pay = feeFor(step, setup.config());
    if (pay === 0n) return undefined;
    const limit = BigInt(UNIT_LIMITS[step]);
    const price = priorityPriceWithin(options.priorityFeeMicroLamports ?? priorityFeeMicroLamports ?? 0n, limit, options.maxPriorityFeeLamports);
    const fee = transactionFeeLamports(price, limit);
    return fee > pay ? { fee, pay, price } : undefined;
  };

  /** Not sent: said once per wager and step (warn, a `skipped` step event with the reason), counted every time. */
  const skipForFee = (step: CrankStep, subject: string | null, { fee, pay, price }: { fee: bigint; pay: bigint; price: bigint }): CrankResult => {
    feeSkips[step] = (feeSkips[step] ?? 0) + 1;
    const key = `${step}:${subject ?? ''}`;
    if (!feeReported.has(key)) {
      feeReported.add(key);
      if (feeReported.size > 100_000) feeReported.clear(); // bounded; at worst a wager is reported again
      log?.warn(
        { wager: subject, step, feeLamports: fee.toString(), payLamports: pay.toString(), priorityFeeMicroLamports: price.toString(), unitLimit: UNIT_LIMITS[step] },
        `${step} not sent: ${FEE_EXCEEDS_PAY} (fee ${fee} lamports, pays ${pay})`,
      );
      events.emit('step', { wager: subject, step, outcome: 'skipped', error: FEE_EXCEEDS_PAY });
    }
    return { outcome: 'skipped', reason: FEE_EXCEEDS_PAY };
  };

  /**
   * The accounts whose recent fees price a crank: the writable ones every crank of this step has written
   * (the pool, the vault, the oracle's state...), so one estimate per slot serves a burst of cranks; not the
   * keeper's own key nor the wager's, which no one else bids for (and whose fees would be the keeper's own).
   */
  const sharedWritable = new Map<CrankStep, Set<string>>();
  const feeAccounts = (step: CrankStep, subject: string | null, instructions: Instructions): string[] => {
    const writable = new Set<string>();
    for (const instruction of instructions) for (const account of instruction.accounts ?? []) if (isWritableRole(account.role)) writable.add(account.address);
    writable.delete(signer.address);
    if (subject) writable.delete(subject);
    const before = sharedWritable.get(step);
    const shared = before ? new Set([...before].filter((account) => writable.has(account))) : writable;
    sharedWritable.set(step, shared);
    return [...shared];
  };
  /** The last auto price the pay rule lowered (said in the status). */
  let lowered: { step: CrankStep; market: bigint; price: bigint } | undefined;
  /** The prices the keeper's auto cranks landed at, by slot, for getRecentPrioritizationFees' 150 slots. */
  const ownLanded = new Map<bigint, Set<bigint>>();
  const noteLanded = (slot: bigint, price: bigint) => {
    const prices = ownLanded.get(slot) ?? new Set<bigint>();
    prices.add(price);
    ownLanded.set(slot, prices);
    for (const old of ownLanded.keys()) {
      if (old > slot - 150n) break;
      ownLanded.delete(old);
    }
  };

  /**
   * An auto-priced crank: the market's price lowered within its pay (never skipped for it), or the urgent
   * raise within its own cap (half the pay) when that is higher.
   */
  const sendAutoCrank = async (estimator: PriorityFeeEstimator, step: CrankStep, subject: string | null, build: () => Promise<Instructions>, options: SendOptions = {}) => {
    const instructions = await build();
    const market = await estimator.priceFor(feeAccounts(step, subject, instructions));
    const { maxPriorityFeeLamports: urgentCapLamports, priorityFeeMicroLamports: urgent, ...rest } = options;
    const withinPay = crankOptions(step, rest); // the pay's room as the cap
    const { price, marketWithinPay: marketPrice } = autoCrankPrice({
      market,
      unitLimit: BigInt(UNIT_LIMITS[step]),
      payRoomLamports: withinPay.maxPriorityFeeLamports,
      urgent,
      urgentCapLamports,
    });
    const priced = { ...withinPay, priorityFeeMicroLamports: price };
    const above = feeAbovePay(step, priced);
    if (above) return skipForFee(step, subject, above); // the base fee alone is above the pay
    if (marketPrice < market) lowered = { step, market, price: marketPrice };
    feeReported.delete(`${step}:${subject ?? ''}`);
    const result = await cranks.send(step, subject, instructions, priced);
    if (result.outcome === 'landed') noteLanded(result.slot, price);
    return result;
  };

  /** A crank, unless its fee is above its pay; with its fixed limit. */
  const sendCrank = async (step: CrankStep, subject: string | null, instructions: () => Promise<Instructions>, options?: SendOptions): Promise<CrankResult> => {
    if (priorityFeeEstimator) return sendAutoCrank(priorityFeeEstimator, step, subject, instructions, options);
    const above = feeAbovePay(step, options);
    if (above) return skipForFee(step, subject, above);
    feeReported.delete(`${step}:${subject ?? ''}`);
    return cranks.send(step, subject, await instructions(), crankOptions(step, options));
  };

  return {
    send: (instructions, options) => sender.send(instructions, options),
    crank: async (step, subject, instructions, options) => {
      const result = await sendCrank(step, subject, async () => instructions, options);
      if (result.outcome === 'landed') landedLogs.delete(result.signature);
      return result;
    },
    counters: () => {
      const counts = cranks.counters();
      const merged = {} as Record<CrankStep, Record<CrankOutcome, number>>;
      for (const step of Object.keys({ ...counts, ...feeSkips }) as CrankStep[]) {
        const base = counts[step] ?? { landed: 0, lost: 0, skipped: 0, failed: 0 };
        merged[step] = { ...base, skipped: base.skipped + (feeSkips[step] ?? 0) };
      }
      return merged;
    },
    inFlight,
    stop: () => confirmer.stop(),
    ownFees: (slot) => ownLanded.get(slot),
    priorityFee() {
      if (!priorityFeeEstimator) return fixedPriorityFeeStatus(priorityFeeMicroLamports);
      const status = priorityFeeEstimator.status();
      if (!lowered || BigInt(status.microLamports) !== lowered.market) return status;
      return { ...status, why: `${status.why}; lowered to ${lowered.price} µL/CU for ${lowered.step}, so that its fee stays within its pay` };
    },
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
          result = await sendCrank(step, address, build, sendOptions);
        } catch (error) {
          result = { outcome: 'failed', error: (error as Error).message }; // building failed (RPC)
        }
        onResult?.(result);
        if (result.outcome === 'landed') {
          const logs = landedLogs.get(result.signature);
          landedLogs.delete(result.signature);
          ctx.change(address, { ...(await onLanded(result.signature, result.slot, logs)), attempts: 0, lastError: null, nextAttemptAt: 0 });
        } else if (result.outcome === 'skipped' && result.reason === FEE_EXCEEDS_PAY) {
          // Shown on the wager (the console's queue) until it is sent: urgent, its priority fee is capped within the pay.
          const lastError = `${step}: ${FEE_EXCEEDS_PAY} (its fee with the priority fee set is above what ${step} pays the keeper)`;
          if (records.get(address)?.lastError !== lastError) ctx.change(address, { lastError });
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
