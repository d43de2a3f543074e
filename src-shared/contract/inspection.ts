/**
 * The console contract, inspection: support's Inspector and search (what an address is, a wager's
 * transactions and failed attempts), handing a wager to the keeper and delivering a parked payout.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */
import type { QueueRow } from './activity';
import type { CrankActionView } from './liquidity';

/** What the Inspector shows for an address: the chain's report (the `inspect` command's fields), the keeper's record, the slots. */
export interface InspectionView {
  address: string;
  /** Set when the address holds no wager of this service: what it is instead, in words. */
  problem: { kind: 'notAddress' | 'notAWager' | 'otherDeployment' | 'nothingHere'; message: string } | null;
  /** The `inspect` command's report (status, paytable, stake, slots, seed, randomness, verifyWith, or how it ended). */
  report: Record<string, string | number | boolean>;
  /** The keeper's record of it, if any. */
  record: QueueRow | null;
  /** An open wager's slots (null once closed). */
  slots: { openSlot: number; expirySlot: number; currentSlot: number } | null;
  /** The paytable the wager was opened with, row by row, and the row its randomness drew (null when unreadable). */
  paytable: { name: string; address: string; totalWeight: number; rows: { bucket: number; weight: number; multiplierBps: number }[]; drawn: number | null } | null;
}

/** One account's balance change in a transaction: signed lamports and USDC base units (decimal strings; usdc null: not a USDC account). */
export interface BalanceChangeView {
  address: string;
  /** Its part in the wager in words ("stake owner", "pool vault", "keeper (this keeper)", "other account"). */
  label: string;
  solLamports: string;
  usdc: string | null;
}

/** A wager's transaction in full (an Inspector step opened). */
export interface WagerTransactionView {
  signature: string;
  slot: number;
  /** The block's time (ISO 8601), null when the RPC does not keep it. */
  blockTime: string | null;
  /** null: it succeeded; else the failure in words. */
  failure: string | null;
  feePayer: string;
  feeLamports: number;
  computeUnits: number | null;
  balanceChanges: BalanceChangeView[];
  /** The wager program's log lines (its invocation, CPIs within it included). */
  programLogs: string[];
  /** The Explorer page (a localnet's through the Explorer's custom-RPC parameter). */
  explorerUrl: string;
}

/** A failed attempt at a wager's step: from the chain (any sender) and/or this keeper's step log. */
export interface FailedAttemptView {
  /** ISO 8601: the block's time on chain, else when this keeper tried. */
  at: string | null;
  /** null: refused before it reached the chain (preflight). */
  signature: string | null;
  /** The step in words: "request randomness", "settle", "expire", "claim payout", "open". */
  step: string;
  sender: string | null;
  /** The error in words. */
  error: string;
  source: 'chain' | 'this keeper' | 'chain and this keeper';
}

/** A wager found for a wallet or token account (support's search), with how that address is in it. */
export interface FoundWagerView {
  address: string;
  /** How the searched address is in the wager: stake owner (signed the opening), beneficiary, integrator (app) authority, payer. */
  roles: ('stake owner' | 'beneficiary' | 'integrator' | 'payer')[];
  /** "Open", "Requested", "PayoutPending" (on chain), "settled", "expired", or "unknown" (history no longer available). */
  status: string;
  openSlot: number | null;
  /** USDC base units (decimal strings). */
  stake: string | null;
  payout: string | null;
  bucket: number | null;
  /** The opening's transaction and its block time (epoch ms); null when neither the histories read nor the keeper's record had it. */
  openSignature: string | null;
  openedAt: number | null;
  /** The last transaction of a finished wager (the payout claim, else the settlement or expiry) and its block time; null while in progress. */
  finalSignature: string | null;
  finalAt: number | null;
}

/** Where support's search box sends an address: the Inspector, the Liquidity screen, a wallet's wagers, or what it is instead. */
export type AddressSearchView =
  | { kind: 'wager'; address: string }
  | { kind: 'pool'; address: string }
  | {
      kind: 'wallet' | 'tokenAccount';
      address: string;
      /** A token account's owner wallet (null for a wallet). */
      owner: string | null;
      /** The addresses whose history and wagers were read (the wallet and its USDC accounts, or the token account). */
      searched: string[];
      /** Newest first: the first `limit` asked for (their times and outcomes looked up). */
      wagers: FoundWagerView[];
      /** How many wagers were found in all (more than `wagers.length`: ask again with a higher limit). */
      total: number;
      /** Set when only the newest part of a long history was read. */
      note: string | null;
    }
  | { kind: 'notOurs'; address: string; what: 'notAddress' | 'program' | 'mint' | 'tokenAccount' | 'serviceAccount' | 'otherAccount' | 'nothingHere'; message: string };

/** Inspection's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface InspectionApi {

  /** Inspects any address: an open or closed wager of this service, or says what it is instead. */
  inspect(args: { address: string }): Promise<InspectionView>;
  /** Support's search: any address classified (a wager, the pool, a wallet's or token account's wagers, or what it is instead). */
  searchAddress(args: { address: string; limit?: number }): Promise<AddressSearchView>;
  /** Hands an open wager the keeper does not track to it (as POST /v1/wagers does); answers its record. */
  handToKeeper(args: { address: string }): Promise<QueueRow | null>;
  /** Delivers a PayoutPending wager's parked payout now (claim_payout), also while paused. */
  claimPayout(args: { address: string }): Promise<CrankActionView>;
  /** One transaction of a wager in full (an Inspector step opened); null when this RPC does not have it. */
  wagerTransaction(args: { signature: string; wager: string }): Promise<WagerTransactionView | null>;
  /** A wager's failed transactions, from the chain and this keeper's step log, newest first (empty: none failed). */
  wagerFailedAttempts(args: { wager: string }): Promise<{ attempts: FailedAttemptView[] }>;
}

/** Inspection's method names, in the order the transports list them. */
export const INSPECTION_METHODS = ['inspect', 'searchAddress', 'handToKeeper', 'claimPayout', 'wagerTransaction', 'wagerFailedAttempts'] as const satisfies readonly (keyof InspectionApi)[];
