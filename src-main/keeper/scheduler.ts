/**
 * The pass loop. On every slot notification (and a 1 s heartbeat) one pass reads every wager this keeper
 * takes, then shows each to the steps in order (steps/): the first step that takes a wager ends its pass.
 * The scheduler owns the rules across steps: when a crank is this keeper's turn (`turns`: a fleet's shard,
 * the turns taken with rival keepers; crank-turns.ts), how many cranks
 * are in flight at once, the backoff a failed step waits out, and urgency: within URGENT_SLOTS of its
 * deadline a step ignores its backoff and pays a raised priority fee (send-path.ts). It also owns the
 * keeper's health (last pass, RPC error, balance) and start/stop.
 */
import type { Address } from '@solana/kit';
import { endpointLabel } from '../chain/rpc-endpoints';
import { scrubSecrets } from '../../src-shared/secret-scrub';
import { WagerStatus, type SlotHash } from '../protocol/wager';
import { IN_PROGRESS_STATES, type WagerRecord } from '../store/wager-records';
import { decodeWagerAccount, fetchAccounts, fetchSlotHashes, isRequestFulfilled, isWagerAt } from './chain-view';
import { SWEEP_RETRY_MS, type Discovery } from './discovery';
import type { KeeperContext } from './keeper-context';
import type { HealthRecord } from './keeper-service';
import type { OverdueWatch } from './overdue';
import type { SendPath } from './send-path';
import type { KeeperSetup } from './setup';
import type { LiquidityStep } from './steps/liquidity-step';
import type { WagerStep } from './steps/step';
import type { CrankTurns } from './crank-turns';
import type { WagerHistory } from './wager-history';

/**
 * Cranks in flight at once. 128 settles a burst of 2 000 wagers inside T_SETTLE on the localnet
 * (bench:burst); lower it (--max-in-flight) for an RPC provider with a tight rate limit.
 */
export const DEFAULT_MAX_IN_FLIGHT = 128;
/** Within this many slots of its deadline a step ignores its backoff and is sent every pass, with a raised priority fee. */
export const URGENT_SLOTS = 50n;
/** How long stop() waits for the steps in flight to land or fail. */
const STOP_GRACE_MS = 15_000;
const BALANCE_CHECK_MS = 5_000;
const HEARTBEAT_MS = 1_000;

export interface SchedulerOptions {
  setup: KeeperSetup;
  sendPath: SendPath;
  discovery: Discovery;
  history: WagerHistory;
  overdue: OverdueWatch;
  /** The wager steps, in the order they look at a wager. */
  steps: readonly WagerStep[];
  liquidity: LiquidityStep;
  maxInFlight?: number;
  sweepIntervalMs?: number;
  /**
   * When a crank is this keeper's turn (crank-turns.ts: a fleet's shard and takeover, the turns taken with
   * rivals). Shown each wager before its steps; the steps send through its gate. Every crank at once by default.
   */
  turns?: Pick<CrankTurns, 'see' | 'done' | 'forget' | 'status'>;
}

export interface Scheduler {
  /** One pass (shared by every caller during a pass in flight). */
  tick(): Promise<void>;
  health(): HealthRecord;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createScheduler(ctx: KeeperContext, options: SchedulerOptions): Scheduler {
  const { rpc, connection, signer, program, records, events, now, log } = ctx;
  const { setup, sendPath, discovery, history, overdue, steps, liquidity } = options;
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const turns = options.turns;
  const inFlight = sendPath.inFlight;
  const timers: NodeJS.Timeout[] = [];
  let lastTick = 0;
  let rpcError: string | undefined;
  let lamports = 0n;
  let lastBalanceCheck = 0;
  let ticking: Promise<void> | undefined;
  let nextPass: Promise<void> | undefined;

  const health = (): HealthRecord => ({
    keeper: signer.address,
    lamports: lamports.toString(),
    lastTick,
    queue: records.countByState(IN_PROGRESS_STATES),
    ...(rpcError ? { rpcError } : {}),
    ...(overdue.count() > 0 ? { overdue: overdue.count() } : {}),
    ...(turns?.status().shard ? { shard: turns.status().shard } : {}),
  });

  /**
   * The endpoint reads go to, by its masked label (the pool's): rpcError is served on /v1/health and sent
   * in alerts, so the raw URL (an API key in its query, path, user part or host) never goes into it.
   */
  const endpointInUse = (): string =>
    connection.endpoints?.().find((endpoint) => endpoint.role === 'read' && endpoint.inUse)?.label ?? endpointLabel(connection.rpcUrl);
  /** What health shows for a failed read: the endpoint's label and the error, itself scrubbed (fetch errors may quote the URL). */
  const rpcFailure = (error: unknown): string => `${endpointInUse()}: ${scrubSecrets((error as Error).message)}`;

  /** Shows one wager to the steps, in order, until one takes it. */
  const advance = async (slot: bigint, record: WagerRecord, wager: ReturnType<typeof decodeWagerAccount>, fulfilled: boolean, slotHashes: () => Promise<SlotHash[]>) => {
    const address = record.address as Address;
    if (!wager) {
      turns?.forget(address);
      return history.closed(record);
    }
    if (record.openSlot === null || record.paytable === null)
      ctx.change(address, { openSlot: Number(wager.openSlot), expirySlot: Number(wager.expirySlot), paytable: wager.paytable, stake: wager.stake.toString() });
    // Close to the deadline a step is sent every pass whatever its backoff, and pays for priority.
    const urgent = slot + URGENT_SLOTS >= wager.expirySlot;
    const pass = { slot, address, record, wager, fulfilled, urgent, slotHashes };
    turns?.see(pass);
    try {
      for (const step of steps) {
        if (step.waitsOutBackoff && record.nextAttemptAt > now() && !urgent) return;
        if (await step.advance(pass)) return;
      }
    } finally {
      turns?.done(address);
    }
  };

  const tickOnce = async () => {
    try {
      // Back from an RPC outage, the chain behind the URL may be another one (a restarted localnet).
      if (rpcError) await setup.refresh();
      else await setup.ensure();
      const slot = await rpc.getSlot({ commitment: 'confirmed' }).send();
      if (now() - lastBalanceCheck > BALANCE_CHECK_MS) {
        lamports = (await rpc.getBalance(signer.address, { commitment: 'confirmed' }).send()).value;
        lastBalanceCheck = now();
      }
      const work = [...records.byState(IN_PROGRESS_STATES), ...records.withParkedPayout()].filter(
        (record) => !inFlight.has(record.address),
      );
      const accounts = await fetchAccounts(rpc, work.map((r) => r.address as Address));
      const wagers = accounts.map((account) => decodeWagerAccount(account, program));
      // A wager read back is checked to be the account asked for (its PDA from its own seeds and bump): an
      // answer meant for other addresses (a stale or mixed-up RPC answer) is refused, not acted on.
      const mismatched = work.findIndex((record, index) => wagers[index] && !isWagerAt(record.address as Address, wagers[index], program));
      if (mismatched >= 0) throw new Error(`the RPC answered for other accounts than ${work[mismatched]!.address} (a stale or mixed-up answer); reading again`);
      overdue.clear(work.map((r) => r.address), wagers);
      const requests = wagers.map((w) => (w && w.status === WagerStatus.Requested ? w.oracleRequest : null));
      const requestAddresses = requests.filter((r): r is Address => r !== null);
      // From every record waiting for randomness, in flight or not, read now (not from `work`, read before
      // the awaits above: a request that landed meanwhile is on its record), plus those found on chain.
      discovery.awaitRequests([...records.byState(['requested']).flatMap((r) => (r.oracleRequest ? [r.oracleRequest] : [])), ...requestAddresses]);
      const requestAccounts = new Map(requestAddresses.map((a, i) => [a, i]));
      const fetchedRequests = requestAddresses.length ? await fetchAccounts(rpc, requestAddresses) : [];
      let hashes: Promise<SlotHash[]> | undefined;
      const slotHashes = () => (hashes ??= fetchSlotHashes(rpc));
      for (const [index, record] of work.entries()) {
        if (inFlight.size >= maxInFlight) break;
        const wager = wagers[index] ?? null;
        const request = requests[index];
        const fulfilled = request ? isRequestFulfilled(fetchedRequests[requestAccounts.get(request)!] ?? null, setup.oracle()!.programAddress) : false;
        await advance(slot, record, wager, fulfilled, slotHashes);
      }
      // The liquidity side runs beside the wagers and never holds up their pass.
      liquidity.maybeRun(slot);
      lastTick = now();
      if (rpcError) log?.info('RPC reachable again');
      rpcError = undefined;
      discovery.restoreIfLost();
    } catch (error) {
      const failure = rpcFailure(error);
      if (rpcError !== failure) log?.error({ rpc: endpointInUse(), error: scrubSecrets((error as Error).message) }, 'cannot read the chain');
      rpcError = failure;
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
      return ctx.running ? tick() : undefined;
    });
    return nextPass;
  };

  const setUpWhenReachable = async (): Promise<void> => {
    try {
      await setup.ensure();
    } catch (error) {
      rpcError = rpcFailure(error);
      log?.error({ rpc: endpointInUse(), error: scrubSecrets((error as Error).message) }, `cannot read the chain; retrying in ${SWEEP_RETRY_MS / 1000} s`);
      const retry = setTimeout(() => void (ctx.running ? setUpWhenReachable() : undefined), SWEEP_RETRY_MS);
      retry.unref?.();
      timers.push(retry);
      return;
    }
    await discovery.subscribe().catch((error: Error) => {
      discovery.markLost(); // a later good pass tries again
      log?.warn({ error: error.message }, 'subscriptions unavailable; polling only');
    });
    await discovery.sweepUntilDone();
  };

  return {
    tick,
    health,
    async start() {
      ctx.running = true;
      // The chain may be unreachable at start: the keeper still starts (health shows rpcError) and
      // finishes its set-up as soon as the RPC answers.
      await setUpWhenReachable();
      timers.push(setInterval(() => void discovery.sweepUntilDone(), options.sweepIntervalMs ?? 30_000));
      // A slow heartbeat in case the slot subscription drops: the loop never stops for long.
      timers.push(setInterval(() => void tick(), HEARTBEAT_MS));
      for (const timer of timers) timer.unref?.();
      await tick();
    },
    async stop() {
      ctx.running = false;
      discovery.stop();
      for (const timer of timers) clearInterval(timer);
      await nextPass;
      await ticking;
      await liquidity.idle();
      // Fix: the confirmer used to be stopped under the steps still in flight: it reported their
      // transactions as not landed, so the sender rebuilt and re-sent them after stop() had returned (they
      // landed as failed transactions, fees paid), and the steps then crashed writing to the store the
      // caller had closed, leaving landed cranks unrecorded. Let them finish first; bounded, because with
      // the RPC gone a confirmation may never come.
      await ctx.drain(STOP_GRACE_MS);
      sendPath.stop();
    },
  };
}
