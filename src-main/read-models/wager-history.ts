/**
 * A wager rebuilt from its transactions, for the Inspector and `inspect`: a settled or expired wager's
 * account is closed, so its stake, paytable, parties, steps and crankers are read from the history
 * instead (WagerOpened and the open instruction's accounts, the request, the settle or expire, a
 * claim_payout). Only the most recent opening at the address is meant (the walk and its reopened-address
 * rule: history/wager-history-walk.ts).
 */
import type { Address, Rpc, SolanaRpcApi } from '@solana/kit';
import type { WagerOpenedEvent } from '../protocol/wager';
import { readConfirmedTransaction, type ConfirmedTransaction } from '../chain/read-transaction';
import { newestSignatures, walkToOpening, type WalkedTransaction } from '../history/wager-history-walk';

/** Signatures read on an oracle request account (its life is the request and the fulfilment). */
const PAGE_SIZE = 100;
/** open_wager's account list: 1 is the stake owner (docs/wager-program.md). */
const STAKE_OWNER_INDEX = 1;
const WAGER_INDEX = 6;

export interface HistoryStep {
  signature: string;
  slot: number;
  /** Seconds since the epoch, when the RPC gives it. */
  blockTime: number | null;
  /** Who paid the transaction (and, for a crank, sent it). */
  feePayer: string;
}

export interface WagerHistory {
  open: HistoryStep & { event: WagerOpenedEvent; stakeOwner: string | null };
  request: (HistoryStep & { oracleRequest: Address; seed: Uint8Array }) | null;
  settle: (HistoryStep & { bucket: number; payout: bigint; pending: boolean }) | null;
  expire: (HistoryStep & { wasRequested: boolean }) | null;
  claim: (HistoryStep & { beneficiary: string; payout: bigint }) | null;
}

/** The transaction's accounts in index order: the message's, then those loaded from lookup tables. */
function accountKeysOf(tx: ConfirmedTransaction): string[] {
  const message = tx.transaction.message as { accountKeys: readonly string[] };
  const loaded = (
    tx.meta as { loadedAddresses?: { writable: readonly string[]; readonly: readonly string[] } } | null
  )?.loadedAddresses;
  return [...message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
}

const stepOf = (signature: string, slot: bigint, tx: ConfirmedTransaction): HistoryStep => ({
  signature,
  slot: Number(slot),
  blockTime: tx.blockTime === null ? null : Number(tx.blockTime),
  feePayer: accountKeysOf(tx)[0]!,
});

/** The stake owner: account 1 of the open_wager instruction naming this wager. */
function stakeOwnerOf(tx: ConfirmedTransaction, wager: Address, program: Address): string | null {
  const keys = accountKeysOf(tx);
  const instructions = (
    tx.transaction.message as {
      instructions: readonly { programIdIndex: number; accounts: readonly number[] }[];
    }
  ).instructions;
  const open = instructions.find(
    (ix) => keys[ix.programIdIndex] === program && keys[ix.accounts[WAGER_INDEX]!] === wager,
  );
  return open ? (keys[open.accounts[STAKE_OWNER_INDEX]!] ?? null) : null;
}

/** The most recent wager opened at `wager`, rebuilt from its history; null when the history holds none. */
export async function readWagerHistory(
  rpc: Rpc<SolanaRpcApi>,
  wager: Address,
  program: Address,
): Promise<WagerHistory | null> {
  let request: WagerHistory['request'] = null;
  let settle: WagerHistory['settle'] = null;
  let expire: WagerHistory['expire'] = null;
  let claim: WagerHistory['claim'] = null;
  let open: WagerHistory['open'] | null = null;
  // No cache: every transaction with events was read by the walk, so each step has its transaction.
  const stepAt = ({ signature, slot, transaction }: WalkedTransaction) => stepOf(signature, slot, transaction!);
  await walkToOpening(rpc, wager, program, { throughOpening: true }, {
    visit: (event, tx) => {
      if (event.name === 'PayoutClaimed')
        claim ??= { ...stepAt(tx), beneficiary: event.data.beneficiary, payout: event.data.payout };
      else if (event.name === 'WagerSettled')
        settle ??= {
          ...stepAt(tx),
          bucket: event.data.bucket,
          payout: event.data.payout,
          pending: event.data.pending === 1,
        };
      else if (event.name === 'WagerExpired')
        expire ??= { ...stepAt(tx), wasRequested: event.data.wasRequested === 1 };
      else if (event.name === 'WagerRandomnessRequested')
        request ??= {
          ...stepAt(tx),
          oracleRequest: event.data.oracleRequest,
          seed: Uint8Array.from(event.data.seed),
        };
      return false;
    },
    opened: (event, tx) => {
      open = { ...stepAt(tx), event, stakeOwner: stakeOwnerOf(tx.transaction!, wager, program) };
    },
  });
  const opening = open as WagerHistory['open'] | null; // assigned in the callback above
  return opening ? { open: opening, request, settle, expire, claim } : null;
}

/** The transaction that fulfilled an oracle request: the oldest successful one on the request account besides the request itself. */
export async function readFulfilment(
  rpc: Rpc<SolanaRpcApi>,
  oracleRequest: Address,
  requestSignature: string,
): Promise<HistoryStep | null> {
  const page = await newestSignatures(rpc, oracleRequest, PAGE_SIZE);
  const candidates = page.filter((entry) => !entry.err && entry.signature !== requestSignature).reverse();
  const first = candidates[0];
  if (!first) return null;
  const tx = await readConfirmedTransaction(rpc, first.signature);
  return tx ? stepOf(first.signature, first.slot, tx) : null;
}
