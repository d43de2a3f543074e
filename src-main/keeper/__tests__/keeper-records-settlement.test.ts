/**
 * What a keeper records about wagers other crankers moved before it saw them, as a caller of
 * GET /v1/wagers/:address sees it: a parked payout someone else settled is `settled` with that settle
 * transaction (found by the sweep or by a GET), a wager already requested is `requested` (not `queued`),
 * and a busy wager's ending is found however many transactions came after it.
 */
import {
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { getClaimPayoutForWager, getWagerDecoder, WagerStatus } from '../../protocol/wager';
import {
  ALWAYS_PAYS_MULTIPLIER_BPS,
  anotherKeeperRuns,
  keeperTestbed,
  openParkedPayoutWager,
  openWager,
  sendInstructions,
  thawUsdc,
  transactionMessage,
  usdcBalance,
  waitFor,
  wagerHistory,
} from './keeper-test-helpers';

const SOL = 1_000_000_000n;
const STAKE = 2_000_000n;
const PAYOUT = (STAKE * ALWAYS_PAYS_MULTIPLIER_BPS) / 10_000n; // the always-pays paytable draws bucket 0

const bed = keeperTestbed({ prefix: 'keeper-records-' });

/** A keeper with a fresh funded key and SQLite file, not started (it knows only what it is told). */
const idleKeeper = async (name: string, now?: () => number) => (await bed.keeper(name, { start: false, now })).keeper;

async function wagerAccount(wager: Address) {
  const { value } = await bed.rpc.getAccountInfo(wager, { encoding: 'base64', commitment: 'confirmed' }).send();
  return value ? getWagerDecoder().decode(Buffer.from(value.data[0], 'base64')) : null;
}

/** The signature of the wager's transaction carrying `event`, read from the chain's history. */
function transactionWith(wager: Address, event: string) {
  const found = wagerHistory(bed.localnet, wager, bed.parts.program).filter((h) => h.events.some((e) => e.name === event));
  expect(found, `${event} transactions of ${wager}`).toHaveLength(1);
  return found[0]!.signature;
}

/** Another keeper (`name`) is handed `wager`, parks its payout and is stopped. */
const anotherKeeperParks = (name: string, wager: Address) =>
  anotherKeeperRuns(bed, { name, wager, done: (r) => !!r?.payoutPending, what: 'the other keeper to park the payout' });

/**
 * A wager whose payout is parked (frozen beneficiary), requested and settled by another keeper that is
 * then stopped: the chain holds its request and settle transactions, no keeper under test has seen it.
 */
async function parkedBySomeoneElse(name: string) {
  const opened = await openParkedPayoutWager(bed, STAKE);
  await anotherKeeperParks(`${name}-other`, opened.wager);
  expect(await wagerAccount(opened.wager)).toMatchObject({ status: WagerStatus.PayoutPending, payout: PAYOUT });
  return {
    wager: opened.wager,
    beneficiary: opened.beneficiary,
    requestSignature: transactionWith(opened.wager, 'WagerRandomnessRequested'),
    settleSignature: transactionWith(opened.wager, 'WagerSettled'),
  };
}

/** Sends a transaction that is expected to fail on chain (no preflight, as a careless cranker does); returns once it landed. */
async function sendFailing(payer: KeyPairSigner, instructions: readonly Instruction[]) {
  const signed = await signTransactionMessageWithSigners(await transactionMessage(bed.rpc, payer, instructions));
  await bed.rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', skipPreflight: true }).send();
  const signature = getSignatureFromTransaction(signed);
  const err = await waitFor(async () => (await bed.rpc.getSignatureStatuses([signature]).send()).value[0]?.err ?? undefined, 10_000, `${signature} to land`, 20);
  expect(err).not.toBeNull();
}

async function claimBy(caller: KeyPairSigner, wager: Address) {
  const onChain = (await wagerAccount(wager))!;
  return getClaimPayoutForWager({ caller, wagerAddress: wager, wager: onChain, programAddress: bed.parts.program });
}

describe('records of wagers someone else moved', () => {
  it('a parked payout another keeper settled, found by the sweep: settled with that settle transaction, kept after this keeper delivers the payout', async () => {
    const parked = await parkedBySomeoneElse('sweep');
    let skew = 0; // this keeper's clock: moved forward later to skip the claim backoff
    const keeper = await idleKeeper('sweep', () => Date.now() + skew);
    await keeper.start(); // its first sweep finds the wager

    const found = await waitFor(() => {
      const r = keeper.records.get(parked.wager);
      return r?.settleSignature ? r : undefined;
    }, 20_000, 'the settle transaction on the record');
    expect(found).toMatchObject({
      state: 'settled',
      payoutPending: true,
      bucket: 0,
      payout: PAYOUT.toString(),
      settleSignature: parked.settleSignature,
      requestSignature: parked.requestSignature,
      claimSignature: null,
    });

    await thawUsdc(bed, parked.beneficiary);
    skew = 11 * 60_000;
    const delivered = await waitFor(() => {
      const r = keeper.records.get(parked.wager);
      return r && !r.payoutPending ? r : undefined;
    }, 20_000, 'the keeper to deliver the payout');
    expect(delivered.claimSignature).toBe(transactionWith(parked.wager, 'PayoutClaimed'));
    expect(await usdcBalance(bed.rpc, parked.beneficiary)).toBe(PAYOUT);
    expect(await keeper.lookupWager(parked.wager)).toEqual({
      state: 'settled',
      openSlot: found.openSlot,
      requestSignature: parked.requestSignature,
      settleSignature: parked.settleSignature,
      bucket: 0,
      payout: PAYOUT.toString(),
      updatedAt: delivered.updatedAt,
    });
  });

  it('GET on an untracked parked payout answers settled with its bucket, payout and settle transaction, and the keeper tracks it', async () => {
    const parked = await parkedBySomeoneElse('lookup');
    const keeper = await idleKeeper('lookup');
    expect(keeper.records.get(parked.wager)).toBeUndefined();

    const answer = await keeper.lookupWager(parked.wager);
    expect(answer).toEqual({
      state: 'settled',
      openSlot: expect.any(Number),
      requestSignature: parked.requestSignature,
      settleSignature: parked.settleSignature,
      bucket: 0,
      payout: PAYOUT.toString(),
      updatedAt: expect.any(String),
    });
    expect(BigInt(answer.openSlot!)).toBe((await wagerAccount(parked.wager))!.openSlot);
    expect(keeper.records.get(parked.wager)).toMatchObject({ state: 'settled', payoutPending: true });
  });

  it('a wager already requested on chain is recorded as requested (GET and POST), then settled with the request transaction on record', async () => {
    bed.localnet.fulfiller.stall();
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app);
    await anotherKeeperRuns(bed, { name: 'requested-other', wager: opened.wager, done: (r) => r?.state === 'requested', what: 'the other keeper to request' });
    expect((await wagerAccount(opened.wager))?.status).toBe(WagerStatus.Requested);
    const requestSignature = transactionWith(opened.wager, 'WagerRandomnessRequested');

    const looking = await idleKeeper('requested-get');
    expect(await looking.lookupWager(opened.wager)).toMatchObject({ state: 'requested', openSlot: expect.any(Number) });
    const posting = await idleKeeper('requested-post');
    expect(await posting.submitWager(opened.wager)).toEqual({ kind: 'queued' });
    expect(posting.records.get(opened.wager)?.state).toBe('requested');

    await looking.start();
    bed.localnet.fulfiller.resume();
    const settled = await waitFor(() => {
      const r = looking.records.get(opened.wager);
      return r?.state === 'settled' && r.requestSignature ? r : undefined;
    }, 20_000, 'the wager to be settled');
    expect(settled).toMatchObject({ requestSignature, settleSignature: transactionWith(opened.wager, 'WagerSettled'), bucket: expect.any(Number), payout: expect.any(String) });
  });

  it('a busy wager (a page and more of failed claims after its settlement) closed while the keeper was away: its settlement, request and delivery are found', async () => {
    const opened = await openParkedPayoutWager(bed, STAKE);
    // This keeper is handed the wager while it is open, then is away while everything happens.
    const keeper = await idleKeeper('busy');
    await keeper.submitWager(opened.wager);
    expect(keeper.records.get(opened.wager)?.state).toBe('queued');

    await anotherKeeperParks('busy-other', opened.wager);
    // A hundred and ten claims refused on chain (more than a page of signatures) (the beneficiary is still frozen), each from its own cranker, then a delivery.
    for (let i = 0; i < 110; i++) {
      const cranker = await generateKeyPairSigner();
      bed.localnet.chain.airdrop(cranker.address, SOL);
      await sendFailing(cranker, [await claimBy(cranker, opened.wager)]);
    }
    await thawUsdc(bed, opened.beneficiary);
    const claimSignature = await sendInstructions(bed.rpc, bed.parts.app, [await claimBy(bed.parts.app, opened.wager)]);
    expect(await wagerAccount(opened.wager)).toBeNull();
    expect(bed.localnet.chain.signaturesFor(opened.wager).length).toBeGreaterThan(110);

    await keeper.start();
    const settled = await waitFor(() => {
      const r = keeper.records.get(opened.wager);
      return r?.state === 'settled' ? r : undefined;
    }, 20_000, 'the keeper to resolve the closed wager');
    expect(settled).toMatchObject({
      settleSignature: transactionWith(opened.wager, 'WagerSettled'),
      requestSignature: transactionWith(opened.wager, 'WagerRandomnessRequested'),
      claimSignature,
      bucket: 0,
      payout: PAYOUT.toString(),
      payoutPending: false,
    });
  });
});
