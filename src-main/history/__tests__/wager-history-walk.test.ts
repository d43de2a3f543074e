/**
 * The one walk of a wager's history, on a scripted RPC: newest first, failed transactions skipped, paged,
 * and the reopened-address rule (an address opened again once its wager closed holds both wagers: the
 * walk hands over only the events of the opening meant, by default the newest).
 */
import { generateKeyPairSigner, getBase64Decoder, type Address, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import {
  WAGER_PROGRAM_ADDRESS as program,
  getWagerOpenedEventEncoder,
  getWagerRandomnessRequestedEventEncoder,
  getWagerSettledEventEncoder,
  type WagerProgramEvent,
} from '../../protocol/wager';
import { TransactionEventCache } from '../transaction-events';
import { walkToOpening, type WalkOptions } from '../wager-history-walk';

const base64 = getBase64Decoder();
interface ScriptedTransaction {
  signature: string;
  slot: bigint;
  failed?: boolean;
  /** Encoded events, in the order the transaction logs them. */
  records?: Uint8Array[];
}

/** An RPC that knows one address's history (given oldest first) and counts what it is asked. */
function scriptedRpc(history: ScriptedTransaction[]) {
  const newestFirst = [...history].reverse();
  const calls: string[] = [];
  const rpc = {
    getSignaturesForAddress: (_key: Address, { limit, before }: { limit: number; before?: string }) => ({
      send: async () => {
        calls.push(`signatures ${limit}${before ? ` before ${before}` : ''}`);
        const from = before ? newestFirst.findIndex((tx) => tx.signature === before) + 1 : 0;
        return newestFirst.slice(from, from + limit).map((tx) => ({ signature: tx.signature, slot: tx.slot, err: tx.failed ? { InstructionError: [0, 'Custom'] } : null }));
      },
    }),
    getTransaction: (signature: string) => ({
      send: async () => {
        calls.push(`transaction ${signature}`);
        const tx = history.find((t) => t.signature === signature)!;
        const logs = [`Program ${program} invoke [1]`, ...(tx.records ?? []).map((r) => `Program data: ${base64.decode(r)}`), `Program ${program} success`];
        return { slot: tx.slot, blockTime: null, meta: { logMessages: logs }, transaction: { message: { accountKeys: [`payer-of-${signature}`] } } };
      },
    }),
  };
  return { rpc: rpc as unknown as Rpc<SolanaRpcApi>, calls };
}

const wagerAt = async () => (await generateKeyPairSigner()).address;
const opened = (wager: Address, openSlot: bigint) => {
  const key = wager;
  return getWagerOpenedEventEncoder().encode({ wager, integratorAuthority: key, paytable: key, beneficiary: key, payer: key, stake: 1n, maxPayout: 2n, openSlot, expirySlot: openSlot + 150n, nonce: 7n }) as Uint8Array;
};
const requested = (wager: Address) => getWagerRandomnessRequestedEventEncoder().encode({ wager, oracleRequest: wager, seed: new Uint8Array(32), sStar: 0n }) as Uint8Array;
const settled = (wager: Address) => getWagerSettledEventEncoder().encode({ wager, payout: 2n, stake: 1n, bucket: 1, pending: 0, padding: new Uint8Array(6) }) as Uint8Array;

/** What a walk hands over: each visited event as "name@signature", resets as "reset", the opening as "opened@slot". */
async function walk(rpc: Rpc<SolanaRpcApi>, wager: Address, options: WalkOptions, stopAt?: WagerProgramEvent['name']) {
  const seen: string[] = [];
  await walkToOpening(rpc, wager, program, options, {
    visit: (event, tx) => (seen.push(`${event.name}@${tx.signature}`), event.name === stopAt),
    reset: () => seen.push('reset'),
    opened: (event, tx) => seen.push(`opened@${event.openSlot}:${tx.transaction?.transaction.message.accountKeys[0] ?? 'cached'}`),
  });
  return seen;
}

/** A wager opened at slot 10, requested and settled, then opened again at slot 40 and requested. */
async function reopenedHistory() {
  const wager = await wagerAt();
  const history: ScriptedTransaction[] = [
    { signature: 'open-a', slot: 10n, records: [opened(wager, 10n)] },
    { signature: 'request-a', slot: 20n, records: [requested(wager)] },
    // One transaction can close a wager and open the next at the same address: logged settle, then open.
    { signature: 'settle-a-open-b', slot: 40n, records: [settled(wager), opened(wager, 40n)] },
    { signature: 'request-b', slot: 50n, records: [requested(wager)] },
    { signature: 'failed-settle-b', slot: 60n, failed: true },
  ];
  return { wager, ...scriptedRpc(history) };
}

describe('the walk of a wager history back to its opening', () => {
  it('without an open slot hands over only the newest opening and stops at it, skipping failed transactions', async () => {
    const { wager, rpc, calls } = await reopenedHistory();
    expect(await walk(rpc, wager, {})).toEqual(['WagerRandomnessRequested@request-b', 'opened@40:payer-of-settle-a-open-b']);
    expect(calls).toEqual(['signatures 100', 'transaction request-b', 'transaction settle-a-open-b']);
  });

  it("given the earlier opening's slot, forgets the later wager's events and hands over the earlier one's", async () => {
    const { wager, rpc } = await reopenedHistory();
    expect(await walk(rpc, wager, { openSlot: 10n })).toEqual([
      'WagerRandomnessRequested@request-b',
      'reset',
      'WagerSettled@settle-a-open-b',
      'WagerRandomnessRequested@request-a',
      'opened@10:payer-of-open-a',
    ]);
  });

  it('stops when the visitor has what it needs, unless asked to read through the opening', async () => {
    const { wager, rpc, calls } = await reopenedHistory();
    expect(await walk(rpc, wager, {}, 'WagerRandomnessRequested')).toEqual(['WagerRandomnessRequested@request-b']);
    expect(calls).toEqual(['signatures 100', 'transaction request-b']);
    expect(await walk(rpc, wager, { throughOpening: true }, 'WagerRandomnessRequested')).toHaveLength(2);
  });

  it('pages back with `before`, at most `pages` pages, and reads a cached transaction only once', async () => {
    const { wager, rpc, calls } = await reopenedHistory();
    const cache = new TransactionEventCache();
    expect(await walk(rpc, wager, { openSlot: 10n, pageSize: 2, cache })).toHaveLength(5);
    expect(calls.filter((call) => call.startsWith('signatures'))).toEqual(['signatures 2', 'signatures 2 before request-b', 'signatures 2 before request-a']);
    calls.length = 0;
    expect(await walk(rpc, wager, { pageSize: 2, pages: 1, cache })).toEqual(['WagerRandomnessRequested@request-b']);
    expect(calls).toEqual(['signatures 2']);
  });
});
