/**
 * How long the oracle has kept a randomness request waiting, as a level: the Oracle screen, the tray, the
 * alerts and the guardian's target all read it. No imports: the console's types re-export it.
 */

/** Requests waiting for the oracle: how many, and the slots the oldest has waited (null: none, or unknown). */
export interface OracleWait {
  waiting: number;
  oldestWaitSlots: number | null;
}

/** A request waiting this many slots for the oracle is a stall warning; at the critical count, the guardian's pause target (spec). */
export const ORACLE_STALL_WARNING_SLOTS = 20;
export const ORACLE_STALL_CRITICAL_SLOTS = 60;

export type StallLevel = 'none' | 'warning' | 'critical';

/** More than 20 slots waiting: warning; 60 or more (the guardian's pause target): critical. */
export function oracleStallLevel(wait: OracleWait | undefined): StallLevel {
  const slots = wait?.oldestWaitSlots;
  if (slots === null || slots === undefined || !wait?.waiting) return 'none';
  if (slots >= ORACLE_STALL_CRITICAL_SLOTS) return 'critical';
  if (slots > ORACLE_STALL_WARNING_SLOTS) return 'warning';
  return 'none';
}
