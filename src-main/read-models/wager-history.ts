/**
 * A wager rebuilt from its transactions, for the Inspector and `inspect`: a settled or expired wager's
 * account is closed, so its stake, paytable, parties, steps and crankers are read from the history
 * instead (WagerOpened and the open instruction's accounts, the request, the settle or expire, a
 * claim_payout). Only the most recent opening at the address is meant: an address can be opened again
 * once its wager closed, so the walk (newest first) stops at the first WagerOpened it meets.
 */
import type { Address, Rpc, Signature, SolanaRpcApi } from '@solana/kit';
import { decodeWagerEventsFromLogs, type WagerOpenedEvent, type WagerProgramEvent } from '../protocol/wager';
import { readConfirmedTransaction, type ConfirmedTransaction } from '../chain/read-transaction';

/** Signatures per getSignaturesForAddress call. */
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
  let before: Signature | undefined;
  for (;;) {
    const page = await rpc
      .getSignaturesForAddress(wager, {
        limit: PAGE_SIZE,
        commitment: 'confirmed',
        ...(before ? { before } : {}),
      })
      .send();
    for (const entry of page) {
      if (entry.err) continue; // a failed transaction changed nothing
      const tx = await readConfirmedTransaction(rpc, entry.signature);
      if (!tx) continue;
      const events = decodeWagerEventsFromLogs(tx.meta?.logMessages ?? [], program).filter(
        (e: WagerProgramEvent) => 'wager' in e.data && e.data.wager === wager,
      );
      // Newest first within the transaction too: one transaction can close a wager and open the next.
      for (const event of events.reverse()) {
        const step = () => stepOf(entry.signature, entry.slot, tx);
        if (event.name === 'PayoutClaimed')
          claim ??= { ...step(), beneficiary: event.data.beneficiary, payout: event.data.payout };
        else if (event.name === 'WagerSettled')
          settle ??= {
            ...step(),
            bucket: event.data.bucket,
            payout: event.data.payout,
            pending: event.data.pending === 1,
          };
        else if (event.name === 'WagerExpired')
          expire ??= { ...step(), wasRequested: event.data.wasRequested === 1 };
        else if (event.name === 'WagerRandomnessRequested')
          request ??= {
            ...step(),
            oracleRequest: event.data.oracleRequest,
            seed: Uint8Array.from(event.data.seed),
          };
        else if (event.name === 'WagerOpened')
          return {
            open: { ...step(), event: event.data, stakeOwner: stakeOwnerOf(tx, wager, program) },
            request,
            settle,
            expire,
            claim,
          };
      }
    }
    if (page.length < PAGE_SIZE) return null;
    before = page.at(-1)!.signature;
  }
}

/** The transaction that fulfilled an oracle request: the oldest successful one on the request account besides the request itself. */
export async function readFulfilment(
  rpc: Rpc<SolanaRpcApi>,
  oracleRequest: Address,
  requestSignature: string,
): Promise<HistoryStep | null> {
  const page = await rpc
    .getSignaturesForAddress(oracleRequest, { limit: PAGE_SIZE, commitment: 'confirmed' })
    .send();
  const candidates = page.filter((entry) => !entry.err && entry.signature !== requestSignature).reverse();
  const first = candidates[0];
  if (!first) return null;
  const tx = await readConfirmedTransaction(rpc, first.signature);
  return tx ? stepOf(first.signature, first.slot, tx) : null;
}
