/**
 * The crank vocabulary, once: the states a wager is in as the keeper records it, the steps a keeper cranks
 * and how a crank ends.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */

export const WAGER_STATES = ['queued', 'requested', 'fulfilled', 'settled', 'expired', 'unknown'] as const;

export type WagerState = (typeof WAGER_STATES)[number];

/** States in which the keeper still has work to do. */
export const ACTIVE_WAGER_STATES: readonly WagerState[] = ['queued', 'requested', 'fulfilled'];

/** The steps a keeper cranks: a wager's (request, settle, expire, claim_payout) and the pool's liquidity steps. */
export const CRANK_STEPS = ['request', 'settle', 'expire', 'claim_payout', 'strike_epoch', 'claim_deposit', 'claim_withdraw'] as const;

/** A step a keeper cranks, as the keeper's events, its step log and its earnings ledger name it. */
export type CrankStep = (typeof CRANK_STEPS)[number];

/** landed; lost to another keeper; skipped (not the right moment any more); failed (retried with backoff). */
export const CRANK_OUTCOMES = ['landed', 'lost', 'skipped', 'failed'] as const;

/** How one crank ended. */
export type CrankOutcome = (typeof CRANK_OUTCOMES)[number];
