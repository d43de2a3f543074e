/**
 * Whose turn a crank is (issue 19): the scheduler shows each wager's pass here before its steps, and the
 * steps send through `gate(sendPath)`, which holds back a crank until this keeper's turn comes:
 * - another shard's wager (shard.ts) waits `takeoverSlots` past the step's due slot (the owner's successor
 *   first, then the next one 5 slots later: takeoverWait);
 * - with rivals known (rival-yield.ts), a wager waits a step (2 slots or more) per rival ranked ahead.
 * The steps still see every wager (its record follows the chain: requested, fulfilled, its latency); only
 * the send waits. Within URGENT_SLOTS of its deadline a request or settle is this keeper's turn whatever.
 *
 * Due slots: request at open + 2; settle at the fulfilment (the slot this keeper first saw it, kept on the
 * record); expire at expiry + 1; a parked payout's claim when this keeper first saw it parked; each no
 * earlier than the slot this keeper first saw the wager in that status.
 */
import type { Address } from '@solana/kit';
import type { Wager } from '../protocol/wager';
import type { CrankStep } from '../../src-shared/crank-vocabulary';
import { requestOpensAt } from '../../src-shared/wager-timing';
import type { WagerRecord, WagerRecordStore } from '../store/wager-records';
import type { HeldForShard } from './keeper-events';
import type { RivalYield } from './rival-yield';
import type { SendPath } from './send-path';
import { shardLabel, shardOf, type Shard } from './shard';

export type { HeldForShard } from './keeper-events';

/** One wager in one pass, as the scheduler read it. */
export interface WagerView {
  slot: bigint;
  address: Address;
  record: WagerRecord;
  wager: Wager;
  urgent: boolean;
}

/** What a fleet console shows of this keeper (status and health). */
export interface FleetStatus {
  /** "I/N" with --shard. */
  shard?: string;
  takeoverSlots?: number;
  /** Rivals this keeper takes turns with (rival-yield.ts). */
  rivals: string[];
  /** The other fleet members' keys it knows (never its rivals: setFleetPeers). */
  peers: string[];
  /** Cranks sent for another shard's wager (its owner did not crank it in time), per step. */
  takeovers: Partial<Record<CrankStep, number>>;
  /** Cranks held back for now (another's shard or turn), per step, since start; counted once per wager and step. */
  held: Partial<Record<CrankStep, number>>;
}

export interface CrankTurns {
  /** The scheduler shows a wager here before its steps see it in a pass. */
  see(view: WagerView): void;
  /** The steps have seen it this pass. */
  done(address: string): void;
  /** The wager is closed: forget what was kept for it. */
  forget(address: string): void;
  /** The send path the wager steps use: a crank that is not this keeper's turn yet is not sent this pass. */
  gate(sendPath: SendPath): SendPath;
  /**
   * A wager of another fleet member's shard, seen in this pass: that shard and the slot this keeper takes
   * its `step` over (sends it itself); null for its own wagers or without a fleet.
   */
  heldFor(address: string, step: CrankStep): HeldForShard | null;
  /**
   * A liquidity crank (strike_epoch on an epoch record, a claim on a request): is it this keeper's turn?
   * Its own shard's at once (and always without a fleet); another's once `waited(takeoverWait)` says the
   * caller has given its owner that long (nothing expires there: an LP waits a little more, and no fleet
   * member pays for a race).
   */
  liquidityTurn(step: CrankStep, subject: Address, waited: (takeoverSlots: number) => boolean): boolean;
  /** The other fleet members' keys: not rivals (rival-yield.ts setPeers). */
  setFleetPeers(addresses: readonly string[]): void;
  status(): FleetStatus;
}

/**
 * Slots past the due slot before this member cranks a wager of shard `owner`: 0 for its own; else the
 * takeover wait, plus TAKEOVER_STEP_SLOTS per member between the owner and this one (owner + 1 first, then
 * owner + 2, ...), so that the survivors of a dead member take its wagers in turn instead of racing.
 * @example takeoverWait({ index: 0, count: 3, takeoverSlots: 20 }, 2) // 20; index 1 for owner 2: 25
 */
export function takeoverWait(shard: Shard, owner: number): number {
  if (owner === shard.index) return 0;
  return shard.takeoverSlots + TAKEOVER_STEP_SLOTS * ((shard.index - owner - 1 + shard.count) % shard.count);
}

/** Slots between one survivor's takeover and the next one's (a takeover takes a slot or two to land, more under load). */
export const TAKEOVER_STEP_SLOTS = 5;

/** Steps with a deadline (the wager expires): within URGENT_SLOTS of it every keeper sends them. */
const DEADLINE_STEPS = new Set<CrankStep>(['request', 'settle']);

export interface CrankTurnsOptions {
  shard?: Shard;
  rivals?: RivalYield;
  records: WagerRecordStore;
  /**
   * Reads a wager again (null once closed). A crank sent after a wait is checked against it first: the
   * wager read at the start of the pass may have been advanced by the rival whose turn came first.
   */
  reread: (address: Address) => Promise<Wager | null>;
  /** Wagers with a crank in flight (the send path's): a wager being re-read counts as one. */
  inFlight: Set<string>;
}

export function createCrankTurns({ shard, rivals, records, reread, inFlight }: CrankTurnsOptions): CrankTurns {
  const views = new Map<string, WagerView>();
  /** The slot this keeper first saw each wager in its current status. */
  const seenSince = new Map<string, { status: number; slot: bigint }>();
  /** Steps already counted as held for a wager (each counted once). */
  const heldOnce = new Map<string, Set<CrankStep>>();
  const takeovers: Partial<Record<CrankStep, number>> = {};
  let peers: string[] = [];
  const held: Partial<Record<CrankStep, number>> = {};

  /** Slots past the due slot before this keeper cranks what belongs to `subject`'s shard (0: its own, or no fleet). */
  const takeoverFor = (subject: Address): number => (shard ? takeoverWait(shard, shardOf(subject, shard.count)) : 0);
  /** A crank held back for another's shard or turn: counted once per subject and step. */
  const countHeld = (subject: string, step: CrankStep) => {
    const counted = heldOnce.get(subject) ?? new Set<CrankStep>();
    if (counted.has(step)) return;
    heldOnce.set(subject, counted.add(step));
    held[step] = (held[step] ?? 0) + 1;
  };

  const dueSlot = (step: CrankStep, view: WagerView): bigint => {
    const { wager, slot, address } = view;
    // Counted from when this keeper saw it, if later: keepers that all come to a wager late (a slow pass, a
    // late notification) still take turns instead of all finding their turn past and sending at once.
    const seen = seenSince.get(address)?.slot ?? slot;
    const atLeastSeen = (due: bigint) => (due > seen ? due : seen);
    if (step === 'request') return atLeastSeen(requestOpensAt(wager.openSlot));
    if (step === 'settle') {
      const fulfilledSlot = records.get(address)?.fulfilledSlot;
      return fulfilledSlot == null ? slot : BigInt(fulfilledSlot);
    }
    if (step === 'expire') return atLeastSeen(wager.expirySlot + 1n);
    return seen;
  };

  return {
    see(view) {
      views.set(view.address, view);
      if (seenSince.get(view.address)?.status !== view.wager.status) seenSince.set(view.address, { status: view.wager.status, slot: view.slot });
    },
    done(address) {
      views.delete(address);
    },
    forget(address) {
      views.delete(address);
      seenSince.delete(address);
      heldOnce.delete(address);
    },
    heldFor(address, step) {
      const view = views.get(address);
      const takeover = view ? takeoverFor(view.address) : 0;
      if (!shard || !view || takeover === 0) return null;
      return { shard: shardLabel({ index: shardOf(view.address, shard.count), count: shard.count }), takeoverSlot: Number(dueSlot(step, view)) + takeover };
    },
    setFleetPeers(addresses) {
      peers = [...addresses];
      rivals?.setPeers(addresses);
    },
    liquidityTurn(step, subject, waited) {
      const takeover = takeoverFor(subject);
      if (takeover === 0) return true;
      if (!waited(takeover)) {
        countHeld(subject, step);
        return false;
      }
      takeovers[step] = (takeovers[step] ?? 0) + 1;
      return true;
    },
    gate(sendPath) {
      return {
        ...sendPath,
        sendForWager(send) {
          const view = views.get(send.address);
          // Outside a pass (the operator's "Claim payout now"): a person chose it, it is sent.
          if (!view) return sendPath.sendForWager(send);
          const takeover = takeoverFor(view.address);
          const foreign = takeover > 0;
          const wait = BigInt(takeover + (rivals?.offset(view.address) ?? 0));
          const urgent = view.urgent && DEADLINE_STEPS.has(send.step);
          if (!urgent && view.slot < dueSlot(send.step, view) + wait) {
            countHeld(send.address, send.step);
            return Promise.resolve();
          }
          // Its latency (pass to landing) sets how far apart rivals' turns are (rival-yield.ts).
          const timed = rivals
            ? { ...send, onLanded: (signature: string, landed: bigint, logs?: readonly string[]) => (rivals.landedAfter(Number(landed - view.slot)), send.onLanded(signature, landed, logs)) }
            : send;
          if (wait === 0n) return sendPath.sendForWager(timed);
          // After a wait, someone else may have done it since the pass read the wager: one read instead
          // of a crank lost at simulation (or on chain).
          inFlight.add(send.address);
          return reread(view.address)
            .catch(() => view.wager) // unreadable: the send path's simulation decides
            .then((fresh) => {
              inFlight.delete(send.address);
              if (!fresh || fresh.status !== view.wager.status) return;
              if (foreign) takeovers[send.step] = (takeovers[send.step] ?? 0) + 1;
              return sendPath.sendForWager(timed);
            });
        },
      };
    },
    status: () => ({
      ...(shard ? { shard: shardLabel(shard), takeoverSlots: shard.takeoverSlots } : {}),
      rivals: rivals?.rivals() ?? [],
      peers: [...peers],
      takeovers: { ...takeovers },
      held: { ...held },
    }),
  };
}
