/**
 * A keeper record as the console shows it (a queue row): with its paytable's name, and its last error in
 * words. Paytable names are learned from the deployment and, for paytables it does not list, from the chain.
 */
import type { Rpc, SolanaRpcApi } from '@solana/kit';
import type { Deployment } from '../protocol/deployment';
import { lastErrorInWords } from '../protocol/program-error-sentences';
import type { WagerRecord } from '../store/wager-records';
import type { QueueRow } from '../../src-shared/contract/activity';
import { fetchPaytableNames } from '../read-models/paytable-names';

export interface QueueRows {
  toRow(record: WagerRecord): QueueRow;
  /** Names the deployment's paytables (when a keeper starts on it). */
  learnPaytables(paytables: Deployment['paytables']): void;
  /** Reads the names of paytables these records use that are not known yet (best effort: unnamed otherwise). */
  nameUnknownPaytables(rpc: Rpc<SolanaRpcApi>, records: readonly WagerRecord[]): Promise<void>;
}

export function createQueueRows(): QueueRows {
  const paytableNames = new Map<string, string>();
  return {
    toRow: (record) => ({
      address: record.address,
      state: record.state,
      paytable: record.paytable,
      paytableName: (record.paytable && paytableNames.get(record.paytable)) ?? null,
      stake: record.stake,
      openSlot: record.openSlot,
      expirySlot: record.expirySlot,
      oracleRequest: record.oracleRequest,
      requestSignature: record.requestSignature,
      requestedSlot: record.requestedSlot,
      fulfilledSlot: record.fulfilledSlot,
      settleSignature: record.settleSignature,
      expireSignature: record.expireSignature,
      claimSignature: record.claimSignature,
      bucket: record.bucket,
      payout: record.payout,
      payoutPending: record.payoutPending,
      attempts: record.attempts,
      nextAttemptAt: record.nextAttemptAt,
      lastError: record.lastError === null ? null : lastErrorInWords(record.lastError),
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    }),
    learnPaytables(paytables) {
      for (const paytable of paytables) paytableNames.set(paytable.address, paytable.name);
    },
    async nameUnknownPaytables(rpc, records) {
      const unknown = [...new Set(records.flatMap((r) => (r.paytable && !paytableNames.has(r.paytable) ? [r.paytable] : [])))];
      if (!unknown.length) return;
      for (const [address, name] of await fetchPaytableNames(rpc, unknown).catch(() => new Map<string, string>())) paytableNames.set(address, name);
    },
  };
}
