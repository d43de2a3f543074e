/**
 * What the public /v1 API asks of the keeper core. The API never touches the chain or the store
 * directly; the keeper answers from its records (and the chain when a wager is new to it).
 */
import type { Address } from '@solana/kit';
import type { KeeperState } from '../store/wager-records';

/** The record of spec 2.2, as `GET /v1/wagers/:address` returns it; fields appear once known. */
export interface PublicWagerRecord {
  state: KeeperState;
  openSlot?: number;
  requestSignature?: string;
  settleSignature?: string;
  bucket?: number;
  /** USDC base units, decimal string. */
  payout?: string;
  /** ISO 8601 UTC with milliseconds. */
  updatedAt: string;
}

/** The health record of spec 2.3. */
export interface HealthRecord {
  keeper: string;
  /** Decimal integer. */
  lamports: string;
  /** Unix ms of the last completed loop. */
  lastTick: number;
  queue: number;
  rpcError?: string;
  /** Wagers still without a randomness request 10+ slots after they could be requested (absent when none). */
  overdue?: number;
  /** "I/N" for a keeper of a fleet (`--shard I/N`, docs/keeper.md *Fleets*). */
  shard?: string;
}

export type SubmitWagerResult = { kind: 'queued' } | { kind: 'accountNotFound' } | { kind: 'notAWager' };

export interface KeeperService {
  /** POST /v1/wagers: checks the address is a wager account of the service and queues it. */
  submitWager(address: Address): Promise<SubmitWagerResult>;
  /** GET /v1/wagers/:address: the record; an untracked wager still open on chain is queued on the way. */
  lookupWager(address: Address): Promise<PublicWagerRecord>;
  health(): Promise<HealthRecord>;
}
