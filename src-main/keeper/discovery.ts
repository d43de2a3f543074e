/**
 * Finding work (spec 4.4, step 1): a live subscription to the program's wager accounts, a sweep of all
 * `Wager` accounts (filtered on the discriminator) about every 30 s, and wagers posted to POST /v1/wagers.
 * A wager found is tracked: its record starts in the state its status on chain says. The slot and oracle
 * fulfilment subscriptions wake the scheduler; lost subscriptions are made again once the RPC answers,
 * and at once on the new endpoint when reads switch to another one (a sweep follows each time).
 */
import type { Base64EncodedBytes } from '@solana/kit';
import { WagerStatus, getWagerDiscriminatorBytes, type Wager } from '../protocol/wager';
import { IN_PROGRESS_STATES, type KeeperState, type WagerRecordChanges } from '../store/wager-records';
import { decodeWagerAccount, fulfilledRequestFilter } from './chain-view';
import type { KeeperContext } from './keeper-context';
import type { KeeperSetup } from './setup';

/** How soon a failed sweep is tried again (the next regular one may be after the window). */
export const SWEEP_RETRY_MS = 2_000;
/** The least time between two attempts to restore lost subscriptions. */
const RESUBSCRIBE_INTERVAL_MS = 5_000;

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

export interface Discovery {
  /** Starts tracking a wager (true when its record is new, or started over for a reopened address). */
  track(address: string, wager: Wager | null): boolean;
  /** Reads config and oracle again, then finds open wagers nobody posted; the count of new ones. */
  sweep(): Promise<number>;
  /** A sweep, tried again within seconds while it fails. */
  sweepUntilDone(): Promise<void>;
  /** Subscribes to slots, wager accounts and oracle fulfilments (replacing a previous set). */
  subscribe(): Promise<void>;
  /** Subscribes again when the subscriptions were lost, at most every few seconds (after a good pass). */
  restoreIfLost(): void;
  markLost(): void;
  /** The oracle requests of our wagers waiting for randomness: a fulfilment of one of these wakes the loop. */
  awaitRequests(requests: Iterable<string>): void;
  awaitRequest(request: string): void;
  stop(): void;
}

export function createDiscovery(ctx: KeeperContext, setup: KeeperSetup, wake: () => void): Discovery {
  const { rpc, program, records, events, now, log } = ctx;
  const { subscriptions } = ctx.connection;
  const wagerFilter = [
    { memcmp: { offset: 0n, bytes: Buffer.from(getWagerDiscriminatorBytes()).toString('base64') as Base64EncodedBytes, encoding: 'base64' as const } },
  ];
  const abort = new AbortController();
  let awaitedRequests = new Set<string>();
  let subscriptionsLost = false;

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

  const track = (address: string, wager: Wager | null) => {
    const inserted = records.insert(address, initialRecord(wager)) || startOverIfReopened(address, wager);
    if (inserted) {
      const record = records.get(address);
      if (record) events.emit('record', record);
      log?.info({ wager: address }, 'tracking wager');
    }
    return inserted;
  };

  const sweep = async () => {
    // Every sweep (~30 s) also re-reads config and oracle: a change on chain is picked up without a failure.
    await setup.refresh();
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
      if (!ctx.running) return;
      sweepRetry = setTimeout(() => void sweepUntilDone(), SWEEP_RETRY_MS);
      sweepRetry.unref?.();
    }
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
      for await (const notification of slots) if (notification) wake();
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
    const oracle = setup.oracle();
    if (oracle) {
      // One subscription for all fulfilments (not one per request: a burst of thousands of requests would mean
      // thousands of subscriptions); a pass only when one of ours is fulfilled. See docs/keeper.md.
      const fulfilments = await subscriptions
        .programNotifications(oracle.programAddress, { encoding: 'base64', commitment: 'confirmed', filters: [fulfilledRequestFilter()] })
        .subscribe({ abortSignal: signal });
      void (async () => {
        for await (const { value } of fulfilments) if (awaitedRequests.has(value.pubkey)) wake();
      })().catch(() => undefined).finally(ended);
    }
  };

  /**
   * Without it a dropped WebSocket leaves only the 1 s heartbeat and the sweep to find new wagers.
   * `atOnce`: the read endpoint switched, so not after the few seconds between two attempts.
   */
  const restoreIfLost = (atOnce = false) => {
    if (!subscriptionsLost || resubscribing || !ctx.running || (!atOnce && now() - lastResubscribe < RESUBSCRIBE_INTERVAL_MS)) return;
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

  // Reads moved to another endpoint (issue 27): the subscriptions follow it at once (the old ones ended
  // with the switch), and a sweep finds what was opened while they moved.
  const stopFollowingSwitches = ctx.connection.onEndpointSwitch(() => {
    subscriptionsLost = true;
    restoreIfLost(true);
  });

  return {
    track,
    sweep,
    sweepUntilDone,
    subscribe,
    restoreIfLost: () => restoreIfLost(),
    markLost() {
      subscriptionsLost = true;
    },
    awaitRequests(requests) {
      awaitedRequests = new Set(requests);
    },
    awaitRequest(request) {
      awaitedRequests.add(request);
    },
    stop() {
      abort.abort();
      stopFollowingSwitches();
      clearTimeout(sweepRetry);
    },
  };
}
