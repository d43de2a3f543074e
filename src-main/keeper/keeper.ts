/**
 * The keeper, wired from its parts (docs/keeper.md). One file per rule of spec 4.4:
 * - discovery.ts: find work (1): the wager subscription, a sweep about every 30 s, POST /v1/wagers;
 * - steps/request-randomness-step.ts (2), steps/settle-step.ts and steps/claim-payout-step.ts (3),
 *   steps/expire-step.ts (4), steps/liquidity-step.ts (5): one step each, behind steps/step.ts;
 * - send-path.ts: simulate before sending (6), the one way every crank is sent and booked;
 * - scheduler.ts: the pass on every slot, backoff and urgency, start/stop; crank-turns.ts: when a crank is
 *   this keeper's turn (a fleet's shard.ts, the turns taken with rivals in rival-yield.ts).
 * Records live in SQLite (a restarted keeper resumes every wager); setup.ts keeps the program config and
 * the oracle read; wager-history.ts fills in what other keepers did; overdue.ts is the early warning;
 * step-booking.ts books every step in the step log.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import type { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { createPriorityFeeEstimator, type AutoPriorityFeePolicy, type PriorityFeeStatus } from '../chain/priority-fee-estimate';
import type { ChainConnection } from '../chain/rpc-connection';
import type { TransactionSender } from '../chain/transaction-sender';
import { WagerStatus } from '../protocol/wager';
import type { Database } from '../store/database';
import { createEarningsLedger, type EarningsLedger } from '../store/earnings-ledger';
import type { CrankOutcome, CrankStep } from '../../src-shared/crank-vocabulary';
import { createOracleLatencyLog, type OracleLatencyLog } from '../store/oracle-latency';
import { createStepLog, type StepLog } from '../store/step-log';
import type { WagerRecord, WagerRecordStore } from '../store/wager-records';
import { decodeWagerAccount, fetchAccounts } from './chain-view';
import type { CrankResult } from './crank-sender';
import { createDiscovery } from './discovery';
import { createKeeperContext } from './keeper-context';
import type { KeeperEvents } from './keeper-events';
import type { HealthRecord, KeeperService, PublicWagerRecord, SubmitWagerResult } from './keeper-service';
import { createOverdueWatch, type OverdueWager } from './overdue';
import { createScheduler } from './scheduler';
import { createSendPath } from './send-path';
import { createKeeperSetup } from './setup';
import { createCrankTurns, type FleetStatus } from './crank-turns';
import { createRivalYield } from './rival-yield';
import { DEFAULT_SHARD_TAKEOVER_SLOTS } from './shard';
import { createClaimPayoutStep } from './steps/claim-payout-step';
import { createExpireStep } from './steps/expire-step';
import { createLiquidityStep } from './steps/liquidity-step';
import { createRequestRandomnessStep } from './steps/request-randomness-step';
import { createSettleStep } from './steps/settle-step';
import { bookSteps } from './step-booking';
import { createWagerHistory } from './wager-history';

export type { CrankResult } from './crank-sender';
export { OVERDUE_AFTER_SLOTS, type OverdueWager } from './overdue';
export { DEFAULT_MAX_IN_FLIGHT, URGENT_SLOTS } from './scheduler';
export type { FleetStatus } from './crank-turns';
export { DEFAULT_SHARD_TAKEOVER_SLOTS } from './shard';

export interface KeeperOptions {
  connection: ChainConnection;
  signer: KeyPairSigner;
  db: Database;
  /** The deployment's wager program (src-main/deployment): the keeper keeps no address of its own. */
  programAddress: Address;
  priorityFeeMicroLamports?: bigint;
  /** `--priority-fee auto`: price each crank from recent fees for the accounts it writes (priorityFeeMicroLamports is then unused). */
  priorityFeeAuto?: AutoPriorityFeePolicy;
  sweepIntervalMs?: number;
  /** Transactions in flight at once. */
  maxInFlight?: number;
  /**
   * This keeper's part of a fleet (`--shard I/N`): it cranks first the wagers of shard `index` of `count`,
   * and another shard's wager once it has waited `takeoverSlots` (DEFAULT_SHARD_TAKEOVER_SLOTS) past its due slot.
   */
  shard?: { index: number; count: number; takeoverSlots?: number };
  /** Take turns with rival keepers once one has beaten this keeper to a crank (rival-yield.ts); on by default. */
  yieldToRivals?: boolean;
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
  /** Every crank step it tried and how it went, booked by the keeper itself (step-booking.ts). */
  readonly stepLog: StepLog;
  readonly address: Address;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One pass of the loop (the slot subscription calls it; tests may too). */
  tick(): Promise<void>;
  /** Finds open wagers nobody posted (the ~30 s safety net). */
  sweep(): Promise<number>;
  counters(): Record<CrankStep, Record<CrankOutcome, number>>;
  /** Sends other instructions with the keeper's key and sender (the faucet uses it). */
  send: TransactionSender['send'];
  /**
   * Pauses or resumes cranking: while paused no new crank is sent (wagers are still found and tracked,
   * and cranks already in flight finish). The console saves the choice so that it survives a restart.
   */
  setPaused(paused: boolean): void;
  isPaused(): boolean;
  /** Wagers with a crank in flight now (sent, not yet landed or failed): what "Restart to update" waits for. */
  inFlight(): number;
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
  /** Its place in a fleet: shard, takeovers and held cranks per step, the rivals it takes turns with. */
  fleet(): FleetStatus;
  /** The other members of its fleet (their keys, from Settings → Fleet's members' health): never taken for rivals. */
  setFleetPeers(addresses: readonly string[]): void;
  /** The priority fee in use now and why (StatusView.priorityFee). */
  priorityFee(): PriorityFeeStatus;
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
  const now = options.now ?? Date.now;
  const ctx = createKeeperContext({ connection, program: options.programAddress, signer, db, now, log: options.logger });
  const { rpc, program, records, events, log } = ctx;
  const earnings = createEarningsLedger(db);
  const oracleLatency = createOracleLatencyLog(db);
  // First listener of 'step': the row is written before anyone else hears of the step.
  const stepLog = createStepLog(db);
  bookSteps(events, stepLog, now);

  // The fulfilment subscription watches the oracle program: a new one means subscribing again.
  const setup = createKeeperSetup(ctx, () => discovery.markLost());
  const sendPath = createSendPath(ctx, {
    earnings,
    setup,
    priorityFeeMicroLamports: options.priorityFeeMicroLamports,
    // Called once cranks land, when sendPath exists: its own cranks' prices are left out of the market.
    priorityFeeEstimator: options.priorityFeeAuto && createPriorityFeeEstimator({ rpc, policy: options.priorityFeeAuto, now, ownFees: (slot) => sendPath.ownFees(slot) }),
  });
  // The wager steps send through the turns' gate: a fleet's shard and the turns taken with rivals.
  const turns = createCrankTurns({
    records,
    shard: options.shard && { ...options.shard, takeoverSlots: options.shard.takeoverSlots ?? DEFAULT_SHARD_TAKEOVER_SLOTS },
    rivals: options.yieldToRivals === false ? undefined : createRivalYield(ctx),
    reread: async (address) => decodeWagerAccount((await fetchAccounts(rpc, [address]))[0] ?? null, program),
    inFlight: sendPath.inFlight,
  });
  const wagerSends = turns.gate(sendPath);
  const discovery = createDiscovery(ctx, setup, () => void scheduler.tick());
  const history = createWagerHistory(ctx, setup, sendPath.inFlight);
  const overdue = createOverdueWatch(ctx, (address) => turns.heldFor(address, 'request'));
  const claimPayout = createClaimPayoutStep(ctx, wagerSends, history);
  const scheduler = createScheduler(ctx, {
    setup,
    sendPath,
    discovery,
    history,
    overdue,
    // The order a wager is looked at: a parked payout; then, past its backoff (or urgent), expiry before
    // request before settlement.
    steps: [
      claimPayout,
      createExpireStep(ctx, wagerSends),
      createRequestRandomnessStep(ctx, { sendPath: wagerSends, setup, overdue, discovery }),
      createSettleStep(ctx, { sendPath: wagerSends, setup, history, oracleLatency }),
    ],
    turns,
    liquidity: createLiquidityStep(ctx, setup, sendPath, turns),
    maxInFlight: options.maxInFlight,
    sweepIntervalMs: options.sweepIntervalMs,
  });

  return {
    events,
    records,
    earnings,
    oracleLatency,
    stepLog,
    address: signer.address,
    tick: scheduler.tick,
    sweep: discovery.sweep,
    counters: () => sendPath.counters(),
    send: (instructions) => sendPath.send(instructions),
    setPaused(value) {
      if (ctx.paused === value) return;
      ctx.paused = value;
      log?.info({ paused: value }, value ? 'crank loop paused: no new cranks are sent' : 'crank loop resumed');
      if (!value && ctx.running) void scheduler.tick();
    },
    isPaused: () => ctx.paused,
    inFlight: () => sendPath.inFlight.size,
    overdueRequests: () => overdue.list(),
    fleet: () => turns.status(),
    setFleetPeers: (addresses) => turns.setFleetPeers(addresses.filter((peer) => peer !== signer.address)),
    priorityFee: () => sendPath.priorityFee(),
    crank: (step, subject, instructions) => sendPath.crank(step, subject, instructions),
    async claimPayoutNow(address) {
      const wager = decodeWagerAccount((await fetchAccounts(rpc, [address]))[0] ?? null, program);
      if (wager?.status !== WagerStatus.PayoutPending) return { outcome: 'skipped', reason: 'the wager has no parked payout (already delivered, or not settled yet)' };
      if (sendPath.inFlight.has(address)) return { outcome: 'skipped', reason: 'a claim for this wager is already in flight' };
      if (!records.get(address)) discovery.track(address, wager);
      return claimPayout.claimNow(address, wager);
    },
    start: scheduler.start,
    stop: scheduler.stop,
    async submitWager(address): Promise<SubmitWagerResult> {
      const { value } = await rpc.getAccountInfo(address, { encoding: 'base64', commitment: 'confirmed' }).send();
      if (!value) return { kind: 'accountNotFound' };
      const wager = decodeWagerAccount({ data: value.data, owner: value.owner }, program);
      if (!wager) return { kind: 'notAWager' };
      discovery.track(address, wager);
      void scheduler.tick();
      return { kind: 'queued' };
    },
    async lookupWager(address) {
      const existing = records.get(address);
      if (existing) return publicRecord(existing);
      const { value } = await rpc.getAccountInfo(address, { encoding: 'base64', commitment: 'confirmed' }).send();
      const wager = value ? decodeWagerAccount({ data: value.data, owner: value.owner }, program) : null;
      if (!wager) return { state: 'unknown', updatedAt: new Date(now()).toISOString() };
      discovery.track(address, wager);
      // A parked payout answers settled; one quick look for its settle transaction (the loop keeps looking).
      // Docs (keeper.md): a GET on an untracked parked payout answers with its settle transaction if the
      // history shows it; POST /v1/wagers never waits for a history read (the loop fills the record in).
      if (wager.status === WagerStatus.PayoutPending) await history.fillSettlementFromChain(address, wager.openSlot, 1);
      void scheduler.tick();
      const record = records.get(address);
      return record ? publicRecord(record) : { state: 'unknown', updatedAt: new Date(now()).toISOString() };
    },
    async health(): Promise<HealthRecord> {
      return scheduler.health();
    },
  };
}
