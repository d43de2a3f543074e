/**
 * The wager timing rules (spec T_SETTLE), once: when randomness may be requested and when an unfulfilled
 * wager expires.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */

/** T_SETTLE (spec): the request window is open+2 .. open+150; past open+150 an unfulfilled wager expires. */
export const REQUEST_DELAY_SLOTS = 2;

export const T_SETTLE_SLOTS = 150;
