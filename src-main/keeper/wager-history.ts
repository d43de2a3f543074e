/**
 * What the chain's history says about a wager the keeper did not see through itself: the request or
 * settle transaction someone else sent (or we did before a crash), the outcome of a settlement we sent,
 * and how a closed wager ended. A load-balanced RPC can lag behind what just confirmed: reads retry.
 */
import type { Address } from '@solana/kit';
import { WagerStatus, decodeWagerEventsFromLogs, type Wager } from '../protocol/wager';
import type { WagerRecord, WagerRecordChanges } from '../store/wager-records';
import { decodeWagerAccount, drawnSettlement, fetchAccounts } from './chain-view';
import type { KeeperContext } from './keeper-context';
import { TransactionEventCache } from '../history/transaction-events';
import { findRequestTransaction, readSettlement, resolveWagerOutcome } from './outcome-resolver';
import type { KeeperSetup } from './setup';

const BACKOFF_BASE_MS = 2_000;
const BACKOFF_MAX_MS = 60_000;
/** Reads of a just-confirmed transaction: a load-balanced RPC can lag a few seconds behind (0.4 s doubling, ~6 s in all). */
const LOOKUP_ATTEMPTS = 5;
const LOOKUP_RETRY_MS = 400;
/** Looks for how a closed wager ended before giving up (2 s doubling, about a minute). */
const CLOSED_LOOKUP_ATTEMPTS = 6;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface WagerHistory {
  /**
   * Bucket and payout of a settlement we sent (null when not readable yet): from its `logs` when its
   * confirmation carried them, else read from the chain.
   */
  settlementOutcome(signature: string, address: Address, settledWager: Wager, logs?: readonly string[]): Promise<WagerRecordChanges | null>;
  /** Fills a parked payout's settle transaction (and request) from the history; false when not found. */
  fillSettlementFromChain(address: Address, openSlot: bigint, attempts?: number): Promise<boolean>;
  /** The settle transaction of a parked wager we did not settle: looked up once per run, beside the pass. */
  recordSettlementFromChain(address: Address, openSlot: bigint): void;
  /** The request transaction of a wager someone else requested (or we did just before a crash), beside the pass. */
  recordRequestFromChain(address: Address, openSlot: bigint): void;
  /** A tracked wager whose account is gone: how it ended, when it is time to look (again). */
  closed(record: WagerRecord): void;
}

export function createWagerHistory(ctx: KeeperContext, setup: KeeperSetup, inFlight: Set<string>): WagerHistory {
  const { rpc, program, records, now, log } = ctx;
  /** Transactions already read from the wager histories: lookups retry, and none re-fetches what it read. */
  const transactionEvents = new TransactionEventCache();
  /** Which opening at a wager's address a record is about (an address can be opened again once closed). */
  const history = (openSlot: number | bigint | null | undefined) => ({
    cache: transactionEvents,
    ...(openSlot !== null && openSlot !== undefined ? { openSlot: BigInt(openSlot) } : {}),
  });

  /** Reads until something is found, a few times: a load-balanced RPC can lag behind what just confirmed. */
  const readWithRetries = async <T>(read: () => Promise<T | null>, attempts = LOOKUP_ATTEMPTS): Promise<T | null> => {
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await pause(LOOKUP_RETRY_MS * 2 ** (attempt - 1));
      const found = await read().catch(() => null);
      if (found) return found;
      if (!ctx.running) break; // a stopping keeper does not sit out the retries
    }
    return null;
  };

  /** The parked wager's own fields, or the settlement found in the closed wager's history. */
  const settlementFromChain = async (address: Address, openSlot: bigint): Promise<WagerRecordChanges | null> => {
    const wager = decodeWagerAccount((await fetchAccounts(rpc, [address]))[0] ?? null, program);
    if (wager?.status === WagerStatus.PayoutPending && wager.openSlot === openSlot) return { bucket: wager.bucket, payout: wager.payout.toString(), payoutPending: true };
    const outcome = await resolveWagerOutcome(rpc, address, program, history(openSlot));
    if (outcome.kind !== 'settled') return null;
    return { bucket: outcome.bucket, payout: outcome.payout.toString(), payoutPending: outcome.pending, ...(outcome.claimSignature ? { claimSignature: outcome.claimSignature } : {}) };
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
    ctx.change(address, { ...request, settleSignature: record.settleSignature ?? settled.signature });
    return true;
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
        ctx.change(record.address, {
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
        ctx.change(record.address, { ...request, state: 'expired', expireSignature: record.expireSignature ?? outcome.signature, lastError: null });
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
      ctx.change(record.address, { lastError: 'closed; how it ended is not in the RPC history yet' });
      return;
    }
    closedLookups.delete(record.address);
    // Our settlement landed (or we saw it parked), so it is settled; only the RPC's history is missing.
    if (record.settleSignature || record.state === 'settled') {
      const unread = record.bucket === null ? 'its WagerSettled event' : 'the delivery of its parked payout';
      ctx.change(record.address, { state: 'settled', payoutPending: false, lastError: `settled; ${unread} could not be read from the RPC` });
    } else {
      ctx.change(record.address, { state: 'unknown', lastError: 'closed with no settlement or expiry found' });
    }
  };

  const settlementLookedUp = new Set<string>();
  const lookingUpRequest = new Set<string>();

  return {
    /**
     * Its WagerSettled event; else what the chain shows now (the parked wager, or the closed wager's
     * history); else drawn as the program draws them from the randomness.
     */
    async settlementOutcome(signature, address, settledWager, logs) {
      if (logs) {
        // The notified logs, as a getTransaction would give them: kept only when they hold the settlement
        // (logs cut short by the validator are read again from the RPC).
        const events = decodeWagerEventsFromLogs(logs, program);
        if (events.some((e) => e.name === 'WagerSettled' && e.data.wager === address)) transactionEvents.set(program, signature, events);
      }
      const event = await readWithRetries(() => readSettlement(rpc, signature, address, program, transactionEvents));
      if (event) return { bucket: event.bucket, payout: event.payout.toString(), payoutPending: event.pending };
      const fromChain = await settlementFromChain(address, settledWager.openSlot).catch(() => null);
      const oracle = setup.oracle();
      if (fromChain || !oracle) return fromChain;
      // Not parked (that was checked above), so delivered; a parked one shows up as PayoutPending on the next pass.
      const drawn = await drawnSettlement(rpc, settledWager, oracle.programAddress).catch(() => null);
      return drawn ? { bucket: drawn.bucket, payout: drawn.payout.toString(), payoutPending: false } : null;
    },
    fillSettlementFromChain,
    recordSettlementFromChain(address, openSlot) {
      if (settlementLookedUp.has(address)) return;
      settlementLookedUp.add(address);
      ctx.launch(async () => {
        if (await fillSettlementFromChain(address, openSlot)) settlementLookedUp.delete(address);
        else log?.warn({ wager: address }, 'settle transaction not found in the RPC history; not looking again in this run');
      });
    },
    recordRequestFromChain(address, openSlot) {
      if (lookingUpRequest.has(address)) return;
      lookingUpRequest.add(address);
      ctx.launch(async () => {
        try {
          const found = await findRequestTransaction(rpc, address, program, history(openSlot));
          if (found) ctx.change(address, { requestSignature: found.signature, requestedSlot: Number(found.slot) });
        } finally {
          lookingUpRequest.delete(address);
        }
      });
    },
    closed(record) {
      if ((closedLookups.get(record.address)?.nextAt ?? 0) > now()) return;
      ctx.launch(() => resolveClosed(record));
    },
  };
}
