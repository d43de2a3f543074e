/**
 * The early warning of issue 16: wagers still without a randomness request OVERDUE_AFTER_SLOTS slots after
 * they could be requested (open + 2), kept until their request lands or they close.
 */
import { WagerStatus, type Wager } from '../protocol/wager';
import { requestOpensAt } from '../../src-shared/wager-timing';
import type { WagerRecord } from '../store/wager-records';
import type { KeeperContext } from './keeper-context';
import type { HeldForShard, OverdueWager } from './keeper-events';

export type { OverdueWager } from './keeper-events';

/** Slots a request may be late (past open + 2) before the wager is reported overdue. */
export const OVERDUE_AFTER_SLOTS = 10;
/** Overdue wagers listed in the health view (the count is exact). */
const OVERDUE_LISTED = 50;

export interface OverdueWatch {
  /** Notes an open wager seen at `slot`, if it is overdue there (logged and emitted once). */
  check(record: WagerRecord, wager: Wager, slot: bigint): void;
  /** Forgets overdue wagers that were requested or closed (seen in this pass's read). */
  clear(addresses: readonly string[], wagers: readonly (Wager | null)[]): void;
  count(): number;
  /** The latest first, at most OVERDUE_LISTED. */
  list(): OverdueWager[];
}

/** `heldFor(address)`: the fleet member a wager's request is left to (crank-turns.ts), or null. */
export function createOverdueWatch({ events, log }: KeeperContext, heldFor: (address: string) => HeldForShard | null = () => null): OverdueWatch {
  const overdue = new Map<string, OverdueWager>();
  return {
    check(record, wager, slot) {
      if (wager.status !== WagerStatus.Open || slot < requestOpensAt(wager.openSlot) + BigInt(OVERDUE_AFTER_SLOTS)) return;
      const entry: OverdueWager = {
        wager: record.address,
        openSlot: Number(wager.openSlot),
        expirySlot: Number(wager.expirySlot),
        slotsLate: Number(slot - requestOpensAt(wager.openSlot)),
        lastError: record.lastError,
        heldFor: heldFor(record.address),
      };
      if (!overdue.has(record.address)) {
        const held = entry.heldFor;
        log?.warn(
          { wager: record.address, openSlot: entry.openSlot, expirySlot: entry.expirySlot, slotsLate: entry.slotsLate, lastError: record.lastError, heldFor: held },
          `randomness for wager ${record.address} is overdue: still not requested ${entry.slotsLate} slots after it could be; ` +
            (held && slot < BigInt(held.takeoverSlot)
              ? `it is fleet shard ${held.shard}'s: this keeper takes it over at slot ${held.takeoverSlot}`
              : 'retrying every pass, with a raised priority fee near its expiry'),
        );
        events.emit('overdue', entry);
      }
      overdue.set(record.address, entry);
    },
    clear(addresses, wagers) {
      addresses.forEach((address, index) => {
        if (overdue.has(address) && wagers[index]?.status !== WagerStatus.Open) overdue.delete(address);
      });
    },
    count: () => overdue.size,
    list: () => [...overdue.values()].sort((a, b) => b.slotsLate - a.slotsLate).slice(0, OVERDUE_LISTED),
  };
}
