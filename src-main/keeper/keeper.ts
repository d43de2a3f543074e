/**
 * The crank loop. Finds wagers (live program subscription, a sweep about every 30 s, and POST /v1/wagers),
 * then on every slot notification moves each one forward: request randomness from open+2, settle as soon
 * as the oracle fulfilled (a filtered oracle program subscription), expire past the window, deliver parked payouts
 * with backoff. Every send is simulated first; losing a race to another keeper is normal and recorded
 * as the winner's outcome. Records live in SQLite, so a restarted keeper resumes every wager. The program
 * config and the oracle's treasury are read again every sweep, after an RPC outage and after a refusal
 * that says they changed; lost subscriptions are made again once the RPC answers.
 */
import { getAddressDecoder, type Address, type Base64EncodedBytes, type KeyPairSigner } from '@solana/kit';
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { ChainConnection } from '../chain/rpc-connection';
import { createSignatureConfirmer } from '../chain/signature-confirmer';
import { createTransactionSender, type SendOptions, type TransactionSender } from '../chain/transaction-sender';
import { findNetworkStatePda } from '../protocol/generated/oracle';
import {
  WagerStatus,
  findConfigPda,
  getClaimPayoutForWager,
  getExpireForWager,
  getRequestRandomnessForWager,
  getSettleForWager,
  getWagerDiscriminatorBytes,
  type Config,
  type SlotHash,
  type Wager,
} from '../protocol/wager';
import type { Database } from '../store/database';
import { createEarningsLedger, type CrankStep, type EarningsLedger } from '../store/earnings-ledger';
import { createOracleLatencyLog, type OracleLatencyLog } from '../store/oracle-latency';
import {
  IN_PROGRESS_STATES,
  createWagerRecordStore,
  type KeeperState,
  type WagerRecord,
  type WagerRecordChanges,
  type WagerRecordStore,
} from '../store/wager-records';
import { decodeWagerAccount, isWagerAt, drawnSettlement, fetchAccounts, fetchConfig, fetchNetworkStateBytes, fetchSlotHashes, fulfilledRequestFilter, isRequestFulfilled } from './chain-view';
import type { KeeperEvents, StepOutcome } from './keeper-events';
import type { HealthRecord, KeeperService, PublicWagerRecord, SubmitWagerResult } from './keeper-service';
import { createLiquidityCranker } from './liquidity-cranker';
import { createCrankSender, type CrankResult } from './crank-sender';
import { TransactionEventCache, findRequestTransaction, readSettlement, resolveWagerOutcome } from './outcome-resolver';

export type { CrankResult } from './crank-sender';

export interface KeeperOptions {
  connection: ChainConnection;
  signer: KeyPairSigner;
  db: Database;
  /** The deployment's wager program (src-main/deployment): the keeper keeps no address of its own. */
  programAddress: Address;
  priorityFeeMicroLamports?: bigint;
  sweepIntervalMs?: number;
  /** Transactions in flight at once. */
  maxInFlight?: number;
  logger?: Logger;
  now?: () => number;
}

export interface Keeper extends KeeperService {
  readonly events: EventEmitter<KeeperEvents>;
  readonly records: WagerRecordStore;
  /** Earnings per crank (totals over time for charts). */
  readonly earnings: EarningsLedger;
  /** Slots the oracle took per request (oracle stall view). */
  readonly oracleLatency: OracleLatencyLog;
  readonly address: Address;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One pass of the loop (the slot subscription calls it; tests may too). */
  tick(): Promise<void>;
  /** Finds open wagers nobody posted (the ~30 s safety net). */
  sweep(): Promise<number>;
  counters(): Record<CrankStep, Record<StepOutcome, number>>;
  /** Sends other instructions with the keeper's key and sender (the faucet uses it). */
  send: TransactionSender['send'];
  /**
   * Pauses or resumes cranking: while paused no new crank is sent (wagers are still found and tracked,
   * and cranks already in flight finish). The console saves the choice so that it survives a restart.
   */
  setPaused(paused: boolean): void;
  isPaused(): boolean;
  /**
   * Sends one crank the operator asked for (the console's Strike epoch and Claim), booked like the loop's
   * own (earnings, step log); also while paused, since a person chose it.
   */
  crank(step: CrankStep, subject: string | null, instructions: Parameters<TransactionSender['send']>[0]): Promise<CrankResult>;
  /**
   * Delivers a parked payout now (the console's "Claim payout now"), as the loop's own retry would, and
   * books it on the wager's record; also while paused. Skipped when the wager is not PayoutPending.
   */
  claimPayoutNow(address: Address): Promise<CrankResult>;
  /** Wagers whose randomness should have been requested 10+ slots ago and was not (the early warning of issue 16). */
  overdueRequests(): OverdueWager[];
}

/** A wager still without a request OVERDUE_AFTER_SLOTS slots after it could be requested. */
export interface OverdueWager {
  wager: string;
  openSlot: number;
  expirySlot: number;
  /** Slots past the moment it could be requested (open + 2). */
  slotsLate: number;
  lastError: string | null;
}

/** Refusals that mean "someone else already moved this wager" (or the clock is not there yet): not failures. */
/**
 * Cranks in flight at once. 128 settles a burst of 2 000 wagers inside T_SETTLE on the localnet
 * (bench:burst); lower it (--max-in-flight) for an RPC provider with a tight rate limit.
 */
export const DEFAULT_MAX_IN_FLIGHT = 128;

/** How a request refused by the oracle for want of funds is named (program-errors: the oracle's insufficientFunds). */
const ORACLE_FEE_SHORTFALL = 'oracle insufficientFunds';
const BACKOFF_BASE_MS = 2_000;
const LIQUIDITY_PASS_INTERVAL_MS = 3_000;
const BACKOFF_MAX_MS = 60_000;
/**
 * A wager's own steps (request, settle, expire) back off at most this long: the window is 150 slots
 * (about a minute), and a backoff grown past it let wagers expire under a faulty RPC (issue 16).
 */
const WAGER_STEP_BACKOFF_MAX_MS = 4_000;
/** Slots a request may be late (past open + 2) before the wager is reported overdue. */
export const OVERDUE_AFTER_SLOTS = 10;
/** Within this many slots of its deadline a step ignores its backoff and is sent every pass, with a raised priority fee. */
export const URGENT_SLOTS = 50n;
/** The urgent priority fee (micro-lamports per compute unit), raised 4x per urgent retry, within half the step's fee. */
const URGENT_PRIORITY_MICRO_LAMPORTS = 20_000n;
const URGENT_PRIORITY_MAX_MICRO_LAMPORTS = 5_000_000n;
/** Overdue wagers listed in the health view (the count is exact). */
const OVERDUE_LISTED = 50;
/** How soon a failed sweep is tried again (the next regular one may be after the window). */
const SWEEP_RETRY_MS = 2_000;
const CLAIM_BACKOFF_BASE_MS = 10_000;
const CLAIM_BACKOFF_MAX_MS = 10 * 60_000;
/** The least time between two attempts to restore lost subscriptions. */
const RESUBSCRIBE_INTERVAL_MS = 5_000;
/** How long stop() waits for the steps in flight to land or fail. */
const STOP_GRACE_MS = 15_000;
/** Reads of a just-confirmed transaction: a load-balanced RPC can lag a few seconds behind (0.4 s doubling, ~6 s in all). */
const LOOKUP_ATTEMPTS = 5;
const LOOKUP_RETRY_MS = 400;
/** Looks for how a closed wager ended before giving up (2 s doubling, about a minute). */
const CLOSED_LOOKUP_ATTEMPTS = 6;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The keeper state a wager starts in, from its status on chain (spec 3.2). */
function initialRecord(wager: Wager | null): WagerRecordChanges & { state: KeeperState } {
  const slots = {
    openSlot: wager ? Number(wager.openSlot) : null,
    expirySlot: wager ? Number(wager.expirySlot) : null,
    ...(wager ? { paytable: wager.paytable as string, stake: wager.stake.toString() } : {}),
  };
  if (wager?.status === WagerStatus.Requested) return { ...slots, state: 'requested', oracleRequest: wager.oracleRequest };
  if (wager?.status === WagerStatus.PayoutPending) {
    return { ...slots, state: 'settled', bucket: wager.bucket, payout: wager.payout.toString(), payoutPending: true };
  }
  return { ...slots, state: 'queued' };
}

const publicRecord = (record: WagerRecord): PublicWagerRecord => ({
  state: record.state,
  ...(record.openSlot !== null ? { openSlot: record.openSlot } : {}),
  ...(record.requestSignature ? { requestSignature: record.requestSignature } : {}),
  ...(record.settleSignature ? { settleSignature: record.settleSignature } : {}),
  ...(record.bucket !== null ? { bucket: record.bucket } : {}),
  ...(record.payout !== null ? { payout: record.payout } : {}),
  updatedAt: record.updatedAt,
});

export function createKeeper(options: KeeperOptions): Keeper {
  const { connection, signer, db } = options;
  const { rpc, subscriptions } = connection;
  const program = options.programAddress;
  const now = options.now ?? Date.now;
  const log = options.logger;
  const records = createWagerRecordStore(db, () => new Date(now()));
  const earnings = createEarningsLedger(db);
  const oracleLatency = createOracleLatencyLog(db);
  const events = new EventEmitter<KeeperEvents>();
  const confirmer = createSignatureConfirmer(rpc);
  const sender: TransactionSender = createTransactionSender({ rpc, confirmer, payer: signer, priorityFeeMicroLamports: options.priorityFeeMicroLamports });
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const wagerFilter = [
    { memcmp: { offset: 0n, bytes: Buffer.from(getWagerDiscriminatorBytes()).toString('base64') as Base64EncodedBytes, encoding: 'base64' as const } },
  ];

  let config: Config | undefined;
  let oracle: { programAddress: Address; networkState: Address; treasury: Address } | undefined;
  let genesisHash: string | undefined;
  /** A step was refused in a way that says config or oracle changed: read them again before the next pass. */
  let setupStale = false;
  let setupRead: Promise<void> | undefined;
  let subscriptionsLost = false;
  let lastTick = 0;
  let rpcError: string | undefined;
  let lamports = 0n;
  let lastBalanceCheck = 0;
  let running = false;
  let paused = false;
  let ticking: Promise<void> | undefined;
  let nextPass: Promise<void> | undefined;
  const inFlight = new Set<string>();
  /** Wagers whose request the oracle refused for want of funds: their next request tops up the fee account. */
  const shortFeeAccounts = new Set<string>();
  /** Oracle requests of our wagers waiting for randomness: a fulfilment of one of these wakes the loop. */
  let awaitedRequests = new Set<string>();
  /** Transactions already read from the wager histories: lookups retry, and none re-fetches what it read. */
  const transactionEvents = new TransactionEventCache();
  /** Which opening at a wager's address a record is about (an address can be opened again once closed). */
  const history = (openSlot: number | bigint | null | undefined) => ({
    cache: transactionEvents,
    ...(openSlot !== null && openSlot !== undefined ? { openSlot: BigInt(openSlot) } : {}),
  });
  const steps = new Set<Promise<void>>();
  const abort = new AbortController();
  const timers: NodeJS.Timeout[] = [];

  const change = (address: string, changes: WagerRecordChanges) => {
    const record = records.update(address, changes);
    if (record) events.emit('record', record);
    return record;
  };

  const track = (address: string, wager: Wager | null) => {
    const inserted = records.insert(address, initialRecord(wager)) || startOverIfReopened(address, wager);
    if (inserted) {
      const record = records.get(address);
      if (record) events.emit('record', record);
      log?.info({ wager: address }, 'tracking wager');
    }
    return inserted;
  };

  /**
   * A wager address is [app, nonce]: once a wager closed, its app may open a new one there. A finished
   * record whose open slot differs from the account's is that earlier wager: the record starts over for
   * the new one (the earlier outcome stays in the earnings ledger and on chain).
   */
  const startOverIfReopened = (address: string, wager: Wager | null) => {
    const existing = records.get(address);
    if (!wager || !existing || IN_PROGRESS_STATES.includes(existing.state) || existing.payoutPending) return false;
    if (existing.openSlot === null || existing.openSlot === Number(wager.openSlot)) return false;
    records.update(address, {
      oracleRequest: null,
      requestSignature: null,
      requestedSlot: null,
      fulfilledSlot: null,
      settleSignature: null,
      expireSignature: null,
      claimSignature: null,
      bucket: null,
      payout: null,
      payoutPending: false,
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
      ...initialRecord(wager),
    });
    return true;
  };

  const health = (): HealthRecord => ({
    keeper: signer.address,
    lamports: lamports.toString(),
    lastTick,
    queue: records.countByState(IN_PROGRESS_STATES),
    ...(rpcError ? { rpcError } : {}),
    ...(overdue.size > 0 ? { overdue: overdue.size } : {}),
  });

  /**
   * Reads the program config and the oracle's network state (its treasury) again. The chain can change
   * under a running keeper (a localnet restarted on the same ports, a config change): a keeper that kept
   * the first ones would have every request refused (the oracle's unknownTreasuryGiven) while looking healthy.
   */
  const readSetup = async () => {
    const hash = await rpc.getGenesisHash().send();
    const nextConfig = await fetchConfig(rpc, (await findConfigPda({ programAddress: program }))[0], program);
    const [networkState] = await findNetworkStatePda({ programAddress: nextConfig.oracleProgram });
    const bytes = await fetchNetworkStateBytes(rpc, networkState, nextConfig.oracleProgram);
    const treasury = getAddressDecoder().decode(bytes.subarray(40, 72)); // NetworkState treasury, bytes 40..72
    if (genesisHash !== undefined && hash !== genesisHash) {
      log?.warn({ rpc: connection.rpcUrl, previousGenesisHash: genesisHash, genesisHash: hash }, 'the cluster changed (new genesis hash): using its program config and oracle');
    }
    const previous = config && oracle ? { usdcMint: config.usdcMint, oracleProgram: oracle.programAddress, treasury: oracle.treasury } : undefined;
    const next = { usdcMint: nextConfig.usdcMint, oracleProgram: nextConfig.oracleProgram, treasury };
    if (previous && (Object.keys(next) as (keyof typeof next)[]).some((key) => previous[key] !== next[key])) {
      log?.warn({ rpc: connection.rpcUrl, previous, now: next }, 'the program config or the oracle changed on chain: using the new ones');
    }
    const oracleProgramChanged = oracle !== undefined && oracle.programAddress !== nextConfig.oracleProgram;
    genesisHash = hash;
    config = nextConfig;
    oracle = { programAddress: nextConfig.oracleProgram, networkState, treasury };
    setupStale = false;
    if (oracleProgramChanged) subscriptionsLost = true; // the fulfilment subscription watches the old oracle
  };
  /** One read at a time; callers at the same moment share it. */
  const refreshSetup = () => (setupRead ??= readSetup().finally(() => (setupRead = undefined)));
  const ensureSetup = async () => {
    if (config && oracle && !setupStale) return;
    await refreshSetup();
  };

  const cranks = createCrankSender({ sender, earnings, events, config: () => config, now, log, programs: {
      wager: program,
      // The oracle this deployment's config names (no crank is sent before the config is read).
      get oracle() {
        return config?.oracleProgram ?? '';
      },
    },
  });
  const sendCrank = cranks.send;

  /** Sends one step for one wager and records what happened on the wager's record. */
  const runStep = async (
    step: CrankStep,
    address: string,
    build: () => Promise<Parameters<TransactionSender['send']>[0]>,
    onLanded: (signature: string, slot: bigint) => Promise<WagerRecordChanges>,
    onResult?: (result: CrankResult) => void,
    sendOptions?: SendOptions,
  ) => {
    inFlight.add(address);
    try {
      let result: CrankResult;
      try {
        result = await sendCrank(step, address, await build(), sendOptions);
      } catch (error) {
        result = { outcome: 'failed', error: (error as Error).message }; // building failed (RPC)
      }
      onResult?.(result);
      if (result.outcome === 'landed') {
        change(address, { ...(await onLanded(result.signature, result.slot)), attempts: 0, lastError: null, nextAttemptAt: 0 });
      } else if (result.outcome === 'failed' && step === 'request' && result.error === ORACLE_FEE_SHORTFALL && !shortFeeAccounts.has(address)) {
        // The oracle's fee rose since the open: the next pass (no backoff) sends the request with a top-up.
        shortFeeAccounts.add(address);
        change(address, { lastError: `${step}: ${result.error} (the oracle's fee rose since the open; topping up)`, nextAttemptAt: 0 });
      } else if (result.outcome === 'failed') {
        const attempts = (records.get(address)?.attempts ?? 0) + 1;
        const claim = step === 'claim_payout';
        const backoff = Math.min((claim ? CLAIM_BACKOFF_BASE_MS : BACKOFF_BASE_MS) * 2 ** (attempts - 1), claim ? CLAIM_BACKOFF_MAX_MS : WAGER_STEP_BACKOFF_MAX_MS);
        change(address, { attempts, lastError: `${step}: ${result.error}`, nextAttemptAt: now() + backoff });
        log?.warn({ wager: address, step, attempts, retryInMs: backoff, error: result.error }, `${step} failed; retrying later`);
        // The refusal says what we cached is stale: the next pass reads config and oracle first.
        if (result.staleSetup) setupStale = true;
      }
      // lost: the next pass reads the wager's new state
    } finally {
      inFlight.delete(address);
    }
  };

  const liquidity = createLiquidityCranker({
    rpc,
    program,
    signer,
    config: () => config,
    send: (step, subject, instructions) => sendCrank(step, subject, instructions),
    now,
  });
  let liquidityPass: Promise<void> | undefined;
  let lastLiquidityPass = 0;

  /** Reads until something is found, a few times: a load-balanced RPC can lag behind what just confirmed. */
  const readWithRetries = async <T>(read: () => Promise<T | null>, attempts = LOOKUP_ATTEMPTS): Promise<T | null> => {
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await pause(LOOKUP_RETRY_MS * 2 ** (attempt - 1));
      const found = await read().catch(() => null);
      if (found) return found;
      if (!running) break; // a stopping keeper does not sit out the retries
    }
    return null;
  };

  /**
   * Bucket and payout of a settlement we sent: its WagerSettled event; else what the chain shows now (the
   * parked wager, or the closed wager's history); else drawn as the program draws them from the randomness.
   */
  const settlementOutcome = async (signature: string, address: Address, settledWager: Wager): Promise<WagerRecordChanges | null> => {
    const event = await readWithRetries(() => readSettlement(rpc, signature, address, program, transactionEvents));
    if (event) return { bucket: event.bucket, payout: event.payout.toString(), payoutPending: event.pending };
    const fromChain = await settlementFromChain(address, settledWager.openSlot).catch(() => null);
    if (fromChain || !oracle) return fromChain;
    // Not parked (that was checked above), so delivered; a parked one shows up as PayoutPending on the next pass.
    const drawn = await drawnSettlement(rpc, settledWager, oracle.programAddress).catch(() => null);
    return drawn ? { bucket: drawn.bucket, payout: drawn.payout.toString(), payoutPending: false } : null;
  };

  /** The parked wager's own fields, or the settlement found in the closed wager's history. */
  const settlementFromChain = async (address: Address, openSlot: bigint): Promise<WagerRecordChanges | null> => {
    const wager = decodeWagerAccount((await fetchAccounts(rpc, [address]))[0] ?? null, program);
    if (wager?.status === WagerStatus.PayoutPending && wager.openSlot === openSlot) return { bucket: wager.bucket, payout: wager.payout.toString(), payoutPending: true };
    const outcome = await resolveWagerOutcome(rpc, address, program, history(openSlot));
    if (outcome.kind !== 'settled') return null;
    return { bucket: outcome.bucket, payout: outcome.payout.toString(), payoutPending: outcome.pending, ...(outcome.claimSignature ? { claimSignature: outcome.claimSignature } : {}) };
  };

  /** Closed wagers whose ending the RPC did not show yet: lookups so far and when to look again (per run). */
  const closedLookups = new Map<string, { attempts: number; nextAt: number }>();

  const resolveClosed = async (record: WagerRecord) => {
    inFlight.add(record.address);
    try {
      const outcome = await resolveWagerOutcome(rpc, record.address as Address, program, history(record.openSlot)).catch((error: Error) => {
        // The history could not be read (RPC error): look again soon, without counting it as "not found".
        const attempts = closedLookups.get(record.address)?.attempts ?? 0;
        closedLookups.set(record.address, { attempts, nextAt: now() + BACKOFF_BASE_MS });
        log?.debug({ wager: record.address, error: error.message }, 'closed wager: history not readable yet');
        return null;
      });
      if (!outcome) return;
      const request = outcome.kind !== 'unknown' && outcome.request && !record.requestSignature
        ? { requestSignature: outcome.request.signature, requestedSlot: Number(outcome.request.slot) }
        : {};
      if (outcome.kind === 'settled') {
        change(record.address, {
          ...request,
          state: 'settled',
          settleSignature: record.settleSignature ?? outcome.signature,
          bucket: outcome.bucket,
          payout: outcome.payout.toString(),
          payoutPending: false,
          lastError: null,
          ...(outcome.claimSignature ? { claimSignature: outcome.claimSignature } : {}),
        });
      } else if (outcome.kind === 'expired') {
        change(record.address, { ...request, state: 'expired', expireSignature: record.expireSignature ?? outcome.signature, lastError: null });
      } else {
        closedWithoutOutcome(record);
      }
      if (outcome.kind !== 'unknown') closedLookups.delete(record.address);
    } finally {
      inFlight.delete(record.address);
    }
  };

  /** History not found (yet): look again with backoff, then settle for what is known. */
  const closedWithoutOutcome = (record: WagerRecord) => {
    const attempts = (closedLookups.get(record.address)?.attempts ?? 0) + 1;
    if (attempts < CLOSED_LOOKUP_ATTEMPTS) {
      closedLookups.set(record.address, { attempts, nextAt: now() + Math.min(BACKOFF_BASE_MS * 2 ** (attempts - 1), BACKOFF_MAX_MS) });
      change(record.address, { lastError: 'closed; how it ended is not in the RPC history yet' });
      return;
    }
    closedLookups.delete(record.address);
    // Our settlement landed (or we saw it parked), so it is settled; only the RPC's history is missing.
    if (record.settleSignature || record.state === 'settled') {
      const unread = record.bucket === null ? 'its WagerSettled event' : 'the delivery of its parked payout';
      change(record.address, { state: 'settled', payoutPending: false, lastError: `settled; ${unread} could not be read from the RPC` });
    } else {
      change(record.address, { state: 'unknown', lastError: 'closed with no settlement or expiry found' });
    }
  };

  /** Wagers found overdue (no request OVERDUE_AFTER_SLOTS slots after open + 2), until their request lands or they close. */
  const overdue = new Map<string, OverdueWager>();
  const noteOverdue = (record: WagerRecord, wager: Wager, slot: bigint) => {
    const entry: OverdueWager = {
      wager: record.address,
      openSlot: Number(wager.openSlot),
      expirySlot: Number(wager.expirySlot),
      slotsLate: Number(slot - (wager.openSlot + 2n)),
      lastError: record.lastError,
    };
    if (!overdue.has(record.address)) {
      log?.warn(
        { wager: record.address, openSlot: entry.openSlot, expirySlot: entry.expirySlot, slotsLate: entry.slotsLate, lastError: record.lastError },
        `randomness for wager ${record.address} is overdue: still not requested ${entry.slotsLate} slots after it could be; retrying every pass, with a raised priority fee near its expiry`,
      );
      events.emit('overdue', entry);
    }
    overdue.set(record.address, entry);
  };
  /** Forgets overdue wagers that were requested or closed (seen in this pass's read). */
  const clearOverdue = (addresses: readonly string[], wagers: readonly (Wager | null)[]) => {
    addresses.forEach((address, index) => {
      if (overdue.has(address) && wagers[index]?.status !== WagerStatus.Open) overdue.delete(address);
    });
  };
  /** The priority of an urgent send: raised 4x per attempt already made, from URGENT_PRIORITY_MICRO_LAMPORTS. */
  const urgentSendOptions = (record: WagerRecord): SendOptions => {
    const raised = URGENT_PRIORITY_MICRO_LAMPORTS * 4n ** BigInt(Math.min(record.attempts, 6));
    const floor = options.priorityFeeMicroLamports ?? 0n;
    const price = raised > URGENT_PRIORITY_MAX_MICRO_LAMPORTS ? URGENT_PRIORITY_MAX_MICRO_LAMPORTS : raised;
    return { priorityFeeMicroLamports: price > floor ? price : floor };
  };

  const launch = (work: () => Promise<void>) => {
    // A pass that started before stop() (a late slot notification) must not send anything new after it.
    if (!running || paused) return;
    // Fix: remember each step in flight so that stop() can let it finish (see stop()).
    const step = work().catch((error: Error) => void log?.error({ error: error.message }, 'crank step crashed'));
    steps.add(step);
    void step.finally(() => steps.delete(step));
  };

  const advance = async (slot: bigint, record: WagerRecord, wager: Wager | null, fulfilled: boolean, slotHashes: () => Promise<SlotHash[]>) => {
    const address = record.address as Address;
    if (!wager) {
      if ((closedLookups.get(address)?.nextAt ?? 0) > now()) return;
      return launch(() => resolveClosed(record));
    }
    const context = { caller: signer, wagerAddress: address, wager, programAddress: program };
    if (record.openSlot === null || record.paytable === null)
      change(address, { openSlot: Number(wager.openSlot), expirySlot: Number(wager.expirySlot), paytable: wager.paytable, stake: wager.stake.toString() });

    if (wager.status === WagerStatus.PayoutPending) {
      if (record.state !== 'settled' || !record.payoutPending) {
        change(address, { state: 'settled', bucket: wager.bucket, payout: wager.payout.toString(), payoutPending: true });
      }
      if (!record.settleSignature) recordSettlementFromChain(address, wager.openSlot);
      if (record.nextAttemptAt > now()) return;
      return launch(() =>
        runStep('claim_payout', address, async () => [await getClaimPayoutForWager(context)], async (signature) => ({ claimSignature: signature, payoutPending: false })),
      );
    }
    // Close to the deadline a step is sent every pass whatever its backoff, and pays for priority.
    const urgent = slot + URGENT_SLOTS >= wager.expirySlot;
    if (record.nextAttemptAt > now() && !urgent) return;
    const priority = urgent ? urgentSendOptions(record) : undefined;
    const expirable = slot > wager.expirySlot && !fulfilled;
    if (expirable) {
      return launch(() => runStep('expire', address, async () => [await getExpireForWager(context)], async (signature) => ({ state: 'expired', expireSignature: signature })));
    }
    if (wager.status === WagerStatus.Open && slot >= wager.openSlot + 2n + BigInt(OVERDUE_AFTER_SLOTS)) {
      noteOverdue(record, wager, slot);
    }
    if (wager.status === WagerStatus.Open && slot >= wager.openSlot + 2n) {
      const hashes = await slotHashes();
      if (!oracle || !config) return;
      const endpoint = oracle;
      const programConfig = config;
      let oracleRequest: Address | null = null;
      return launch(() =>
        runStep(
          'request',
          address,
          async () => {
            // Once the oracle refused for want of funds (its fee rose since the open), the fee account is checked
            // and a top-up from our key comes first; the usual request costs no extra RPC call.
            const funding = shortFeeAccounts.has(address) ? { rpc, config: programConfig } : undefined;
            const built = await getRequestRandomnessForWager({ ...context, oracle: endpoint, slotHashes: hashes, feeAccountFunding: funding });
            oracleRequest = built.oracleRequest;
            if (built.topUp) {
              const { needs } = built.topUp;
              log?.info(
                { wager: address, feeAccount: built.topUp.feeAccount, topUpLamports: built.topUp.lamports.toString(), balance: needs.balance.toString(), required: needs.required.toString(), oracleFee: needs.oracleFee.toString() },
                'wager fee account short of the request (oracle fee rose since the open): topping it up from the keeper in the request transaction',
              );
            }
            return built.instructions;
          },
          async (signature, landedSlot) => {
            shortFeeAccounts.delete(address);
            if (oracleRequest) awaitedRequests.add(oracleRequest);
            return { state: 'requested', requestSignature: signature, requestedSlot: Number(landedSlot), oracleRequest };
          },
          undefined,
          priority && { ...priority, maxPriorityFeeLamports: programConfig.requestFee / 2n },
        ),
      );
    }
    if (wager.status === WagerStatus.Requested) {
      if (record.state === 'queued') change(address, { state: 'requested', oracleRequest: wager.oracleRequest });
      if (!record.requestSignature) recordRequestFromChain(address, wager.openSlot);
      if (!fulfilled) return;
      if (record.state !== 'fulfilled') {
        const requestedSlot = record.requestedSlot;
        change(address, { state: 'fulfilled', fulfilledSlot: Number(slot), oracleRequest: wager.oracleRequest });
        if (requestedSlot !== null) {
          const latency = { wager: address, requestedSlot, fulfilledSlot: Number(slot), slots: Number(slot) - requestedSlot };
          oracleLatency.record({ wager: address, requestedSlot, fulfilledSlot: Number(slot), at: new Date(now()).toISOString() });
          events.emit('latency', latency);
        }
      }
      return launch(() =>
        runStep(
          'settle',
          address,
          async () => [await getSettleForWager(context)],
          async (signature) => {
            const outcome = await settlementOutcome(signature, address, wager);
            // Not readable yet: stay `fulfilled` with the signature; the next passes find the outcome (resolveClosed).
            return outcome ? { state: 'settled', settleSignature: signature, ...outcome } : { settleSignature: signature };
          },
          undefined,
          priority && config && { ...priority, maxPriorityFeeLamports: config.settleFee / 2n },
        ),
      );
    }
  };

  const tickOnce = async () => {
    try {
      // Back from an RPC outage, the chain behind the URL may be another one (a restarted localnet).
      if (rpcError) await refreshSetup();
      else await ensureSetup();
      const slot = await rpc.getSlot({ commitment: 'confirmed' }).send();
      if (now() - lastBalanceCheck > 5_000) {
        lamports = (await rpc.getBalance(signer.address, { commitment: 'confirmed' }).send()).value;
        lastBalanceCheck = now();
      }
      const work = [...records.byState(IN_PROGRESS_STATES), ...records.withParkedPayout()].filter(
        (record) => !inFlight.has(record.address),
      );
      const accounts = await fetchAccounts(rpc, work.map((r) => r.address as Address));
      const decoded = accounts.map((account) => decodeWagerAccount(account, program));
      // A wager read back is checked to be the account asked for (its PDA from its own seeds and bump): an
      // answer meant for other addresses (a stale or mixed-up RPC answer) is refused, not acted on.
      const mismatched = work.findIndex((record, index) => decoded[index] && !isWagerAt(record.address as Address, decoded[index], program));
      if (mismatched >= 0) throw new Error(`the RPC answered for other accounts than ${work[mismatched]!.address} (a stale or mixed-up answer); reading again`);
      const wagers = decoded;
      clearOverdue(work.map((r) => r.address), wagers);
      const requests = wagers.map((w) => (w && w.status === WagerStatus.Requested ? w.oracleRequest : null));
      const requestAddresses = requests.filter((r): r is Address => r !== null);
      // From every record waiting for randomness, in flight or not, read now (not from `work`, read before
      // the awaits above: a request that landed meanwhile is on its record), plus those found on chain.
      awaitedRequests = new Set([
        ...records.byState(['requested']).flatMap((r) => (r.oracleRequest ? [r.oracleRequest] : [])),
        ...requestAddresses,
      ]);
      const requestAccounts = new Map(requestAddresses.map((a, i) => [a, i]));
      const fetchedRequests = requestAddresses.length ? await fetchAccounts(rpc, requestAddresses) : [];
      let hashes: Promise<SlotHash[]> | undefined;
      const slotHashes = () => (hashes ??= fetchSlotHashes(rpc));
      for (const [index, record] of work.entries()) {
        if (inFlight.size >= maxInFlight) break;
        const wager = wagers[index] ?? null;
        const request = requests[index];
        const fulfilled = request ? isRequestFulfilled(fetchedRequests[requestAccounts.get(request)!] ?? null, oracle!.programAddress) : false;
        await advance(slot, record, wager, fulfilled, slotHashes);
      }
      // The liquidity side runs beside the wagers and never holds up their pass. Epochs last hundreds of
      // slots, so every few seconds is soon enough (and spares the RPC a pool read per slot).
      if (!paused && !liquidityPass && now() - lastLiquidityPass >= LIQUIDITY_PASS_INTERVAL_MS) {
        lastLiquidityPass = now();
        liquidityPass = liquidity
          .pass(slot)
          .catch((error: Error) => log?.warn({ error: error.message }, 'liquidity pass failed'))
          .finally(() => (liquidityPass = undefined));
      }
      lastTick = now();
      if (rpcError) log?.info('RPC reachable again');
      rpcError = undefined;
      if (subscriptionsLost) resubscribe();
    } catch (error) {
      const message = (error as Error).message;
      if (rpcError !== message) log?.error({ rpc: connection.rpcUrl, error: message }, 'cannot read the chain');
      rpcError = `${connection.rpcUrl}: ${message}`;
    }
    events.emit('health', health());
  };

  /**
   * One pass at a time. A call during a pass gets one more pass after it, shared by every caller meanwhile,
   * and its promise settles when that pass ends: a caller never waits for an open-ended run of passes
   * (with a slow RPC every pass outlasts the 1 s heartbeat, and start() used to wait forever).
   */
  const tick = (): Promise<void> => {
    if (!ticking) {
      ticking = tickOnce().finally(() => (ticking = undefined));
      return ticking;
    }
    nextPass ??= ticking.then(() => {
      nextPass = undefined;
      return running ? tick() : undefined;
    });
    return nextPass;
  };

  const sweep = async () => {
    // Every sweep (~30 s) also re-reads config and oracle: a change on chain is picked up without a failure.
    await refreshSetup();
    const found = await rpc
      .getProgramAccounts(program, {
        encoding: 'base64',
        commitment: 'confirmed',
        filters: wagerFilter,
      })
      .send();
    let added = 0;
    for (const { pubkey, account } of found) {
      const wager = decodeWagerAccount({ data: account.data, owner: account.owner }, program);
      if (wager && track(pubkey, wager)) added += 1;
    }
    return added;
  };

  /** The subscriptions of this run: a new set replaces a lost one (WebSocket closed, oracle program changed). */
  let subscriptionRun: AbortController | undefined;
  let resubscribing = false;
  let lastResubscribe = 0;
  const lost = (run: AbortController) => () => {
    if (run === subscriptionRun && !run.signal.aborted) subscriptionsLost = true;
  };

  const subscribe = async () => {
    subscriptionRun?.abort();
    const run = new AbortController();
    subscriptionRun = run;
    subscriptionsLost = false;
    const signal = AbortSignal.any([abort.signal, run.signal]);
    const ended = lost(run);
    const slots = await subscriptions.slotNotifications().subscribe({ abortSignal: signal });
    void (async () => {
      for await (const notification of slots) if (notification) void tick();
    })().catch(() => undefined).finally(ended);
    const wagers = await subscriptions
      .programNotifications(program, {
        encoding: 'base64',
        commitment: 'confirmed',
        filters: wagerFilter,
      })
      .subscribe({ abortSignal: signal });
    void (async () => {
      for await (const { value } of wagers) {
        const wager = decodeWagerAccount({ data: value.account.data, owner: value.account.owner }, program);
        if (wager?.status === WagerStatus.Open) track(value.pubkey, wager);
      }
    })().catch(() => undefined).finally(ended);
    if (oracle) {
      // One subscription for all fulfilments (not one per request: a burst of thousands of requests would mean
      // thousands of subscriptions); a pass only when one of ours is fulfilled. See docs/keeper.md.
      const fulfilments = await subscriptions
        .programNotifications(oracle.programAddress, { encoding: 'base64', commitment: 'confirmed', filters: [fulfilledRequestFilter()] })
        .subscribe({ abortSignal: signal });
      void (async () => {
        for await (const { value } of fulfilments) if (awaitedRequests.has(value.pubkey)) void tick();
      })().catch(() => undefined).finally(ended);
    }
  };

  /**
   * Subscribes again once the RPC answers (called after a good pass), at most every few seconds: without
   * it a dropped WebSocket leaves only the 1 s heartbeat and the sweep to find new wagers.
   */
  const resubscribe = () => {
    if (resubscribing || !running || now() - lastResubscribe < RESUBSCRIBE_INTERVAL_MS) return;
    resubscribing = true;
    lastResubscribe = now();
    void subscribe()
      .then(() => {
        log?.info('subscriptions restored');
        // Wagers opened while we were not subscribed.
        return sweepUntilDone();
      })
      .catch((error: Error) => {
        subscriptionsLost = true;
        log?.warn({ error: error.message }, 'subscriptions unavailable; polling only until they can be restored');
      })
      .finally(() => (resubscribing = false));
  };

  /**
   * A sweep that failed is tried again within seconds, not at the next regular sweep: wagers opened while
   * the keeper was down (or unsubscribed) are only found by a sweep, and the next one can be after their window.
   */
  let sweepRetry: NodeJS.Timeout | undefined;
  const sweepUntilDone = async (): Promise<void> => {
    clearTimeout(sweepRetry);
    sweepRetry = undefined;
    try {
      await sweep();
    } catch (error) {
      log?.warn({ error: (error as Error).message, retryInMs: SWEEP_RETRY_MS }, 'sweep failed; trying again shortly');
      if (!running) return;
      sweepRetry = setTimeout(() => void sweepUntilDone(), SWEEP_RETRY_MS);
      sweepRetry.unref?.();
    }
  };

  const setUpWhenReachable = async (): Promise<void> => {
    try {
      await ensureSetup();
    } catch (error) {
      rpcError = `${connection.rpcUrl}: ${(error as Error).message}`;
      log?.error({ rpc: connection.rpcUrl, error: (error as Error).message }, `cannot read the chain; retrying in ${SWEEP_RETRY_MS / 1000} s`);
      const retry = setTimeout(() => void (running ? setUpWhenReachable() : undefined), SWEEP_RETRY_MS);
      retry.unref?.();
      timers.push(retry);
      return;
    }
    await subscribe().catch((error: Error) => {
      subscriptionsLost = true; // a later good pass tries again
      log?.warn({ error: error.message }, 'subscriptions unavailable; polling only');
    });
    await sweepUntilDone();
  };

  /**
   * The settle transaction of a wager found parked that we did not settle (another keeper did, or we did
   * before a crash): read from the wager's history, once per run (with retries), with the request if missing.
   */
  const settlementLookedUp = new Set<string>();
  const recordSettlementFromChain = (address: Address, openSlot: bigint) => {
    if (settlementLookedUp.has(address)) return;
    settlementLookedUp.add(address);
    launch(async () => {
      if (await fillSettlementFromChain(address, openSlot)) settlementLookedUp.delete(address);
      else log?.warn({ wager: address }, 'settle transaction not found in the RPC history; not looking again in this run');
    });
  };

  const fillSettlementFromChain = async (address: Address, openSlot: bigint, attempts = LOOKUP_ATTEMPTS) => {
    // Each retry reads the signature list again; transactions already read come from the cache.
    const settled = await readWithRetries(async () => {
      const outcome = await resolveWagerOutcome(rpc, address, program, history(openSlot));
      return outcome.kind === 'settled' ? outcome : null;
    }, attempts);
    const record = records.get(address);
    if (!settled || !record) return false;
    const request = settled.request && !record.requestSignature ? { requestSignature: settled.request.signature, requestedSlot: Number(settled.request.slot) } : {};
    change(address, { ...request, settleSignature: record.settleSignature ?? settled.signature });
    return true;
  };

  /** The request transaction of a wager someone else requested (or we did just before a crash). */
  const lookingUpRequest = new Set<string>();
  const recordRequestFromChain = (address: Address, openSlot: bigint) => {
    if (lookingUpRequest.has(address)) return;
    lookingUpRequest.add(address);
    launch(async () => {
      try {
        const found = await findRequestTransaction(rpc, address, program, history(openSlot));
        if (found) change(address, { requestSignature: found.signature, requestedSlot: Number(found.slot) });
      } finally {
        lookingUpRequest.delete(address);
      }
    });
  };

  return {
    events,
    records,
    earnings,
    oracleLatency,
    address: signer.address,
    tick,
    sweep,
    counters: () => cranks.counters(),
    send: (instructions) => sender.send(instructions),
    setPaused(value) {
      if (paused === value) return;
      paused = value;
      log?.info({ paused }, paused ? 'crank loop paused: no new cranks are sent' : 'crank loop resumed');
      if (!paused && running) void tick();
    },
    isPaused: () => paused,
    overdueRequests: () => [...overdue.values()].sort((a, b) => b.slotsLate - a.slotsLate).slice(0, OVERDUE_LISTED),
    crank: (step, subject, instructions) => sendCrank(step, subject, instructions),
    async claimPayoutNow(address) {
      const wager = decodeWagerAccount((await fetchAccounts(rpc, [address]))[0] ?? null, program);
      if (wager?.status !== WagerStatus.PayoutPending) return { outcome: 'skipped', reason: 'the wager has no parked payout (already delivered, or not settled yet)' };
      if (inFlight.has(address)) return { outcome: 'skipped', reason: 'a claim for this wager is already in flight' };
      if (!records.get(address)) track(address, wager);
      let result: CrankResult = { outcome: 'skipped', reason: 'not sent' };
      await runStep('claim_payout', address, async () => [await getClaimPayoutForWager({ caller: signer, wagerAddress: address, wager, programAddress: program })], async (signature) => ({ claimSignature: signature, payoutPending: false }), (sent) => (result = sent));
      return result;
    },
    async start() {
      running = true;
      // The chain may be unreachable at start: the keeper still starts (health shows rpcError) and
      // finishes its set-up as soon as the RPC answers.
      await setUpWhenReachable();
      timers.push(setInterval(() => void sweepUntilDone(), options.sweepIntervalMs ?? 30_000));
      // A slow heartbeat in case the slot subscription drops: the loop never stops for long.
      timers.push(setInterval(() => void tick(), 1_000));
      for (const timer of timers) timer.unref?.();
      await tick();
    },
    async stop() {
      running = false;
      abort.abort();
      for (const timer of timers) clearInterval(timer);
      clearTimeout(sweepRetry);
      await nextPass;
      await ticking;
      await liquidityPass;
      // Fix: the confirmer used to be stopped under the steps still in flight: it reported their
      // transactions as not landed, so the sender rebuilt and re-sent them after stop() had returned (they
      // landed as failed transactions, fees paid), and the steps then crashed writing to the store the
      // caller had closed, leaving landed cranks unrecorded. Let them finish first; bounded, because with
      // the RPC gone a confirmation may never come.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...steps]), new Promise((resolve) => (grace = setTimeout(resolve, STOP_GRACE_MS)))]);
      clearTimeout(grace);
      confirmer.stop();
    },
    async submitWager(address): Promise<SubmitWagerResult> {
      const { value } = await rpc.getAccountInfo(address, { encoding: 'base64', commitment: 'confirmed' }).send();
      if (!value) return { kind: 'accountNotFound' };
      const wager = decodeWagerAccount({ data: value.data, owner: value.owner }, program);
      if (!wager) return { kind: 'notAWager' };
      track(address, wager);
      void tick();
      return { kind: 'queued' };
    },
    async lookupWager(address) {
      const existing = records.get(address);
      if (existing) return publicRecord(existing);
      const { value } = await rpc.getAccountInfo(address, { encoding: 'base64', commitment: 'confirmed' }).send();
      const wager = value ? decodeWagerAccount({ data: value.data, owner: value.owner }, program) : null;
      if (!wager) return { state: 'unknown', updatedAt: new Date(now()).toISOString() };
      track(address, wager);
      // A parked payout answers settled; one quick look for its settle transaction (the loop keeps looking).
      // Docs (keeper.md): a GET on an untracked parked payout answers with its settle transaction if the
      // history shows it; POST /v1/wagers never waits for a history read (the loop fills the record in).
      if (wager.status === WagerStatus.PayoutPending) await fillSettlementFromChain(address, wager.openSlot, 1);
      void tick();
      const record = records.get(address);
      return record ? publicRecord(record) : { state: 'unknown', updatedAt: new Date(now()).toISOString() };
    },
    async health() {
      return health();
    },
  };
}
