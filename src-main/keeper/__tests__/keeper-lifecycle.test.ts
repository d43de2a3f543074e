/**
 * One keeper against an in-process localnet, the way an operator sees its work: a wager it was handed
 * ends `settled` with the chain's own bucket and payout (and the beneficiary got the USDC), a wager whose
 * randomness never came ends `expired`, and a payout the beneficiary could not receive is parked, then
 * delivered by the keeper once the account can receive again. Fresh SQLite file and keeper key per test.
 */
import { type Address, type KeyPairSigner } from '@solana/kit';
import {
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getFreezeAccountInstruction,
  getThawAccountInstruction,
} from '@solana-program/token';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WAGER_CONFIG } from '../../localnet/bootstrap-wager';
import type { TransactionRecord } from '../../localnet/local-chain';
import { WagerStatus, getWagerDecoder } from '../../protocol/wager';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import type { Database } from '../../store/database';
import type { Keeper } from '../keeper';
import {
  ALWAYS_PAYS_MULTIPLIER_BPS,
  alwaysPaysPaytable,
  eventsOf,
  freshBeneficiary,
  keeperTestbed,
  openWager,
  sendInstructions,
  sleep,
  usdcBalance,
  waitFor,
  wagerHistory,
} from './keeper-test-helpers';

const TX_FEE = 5_000n;

const bed = keeperTestbed();

/** A keeper with its own freshly funded key and a fresh SQLite file, started. */
const startKeeper = (name: string, now?: () => number, beforeStart?: (keeper: Keeper) => void) => bed.keeper(name, { now, beforeStart });

const earningsOf = (db: Database, wager: Address) =>
  db.prepare('SELECT step, signature, received_lamports AS received, fee_lamports AS fee FROM earnings WHERE wager = ? ORDER BY id').all(wager) as {
    step: string;
    signature: string;
    received: number;
    fee: number;
  }[];

async function wagerAccount(wager: Address) {
  const { value } = await bed.rpc.getAccountInfo(wager, { encoding: 'base64', commitment: 'confirmed' }).send();
  return value ? getWagerDecoder().decode(Buffer.from(value.data[0], 'base64')) : null;
}

describe('a keeper moving wagers through their life', () => {
  it('settles a wager it was handed: the record shows the bucket and payout the chain paid, and the beneficiary received exactly that payout', async () => {
    const beneficiary = await freshBeneficiary(bed.rpc, bed.parts.mint, bed.parts.app);
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app, { paytable: 'wheel', stake: 3_000_000n, beneficiary: beneficiary.usdc });
    const { keeper, db, key } = await startKeeper('settle');
    const balanceBefore = (await bed.rpc.getBalance(key.address, { commitment: 'confirmed' }).send()).value;
    expect(await keeper.submitWager(opened.wager)).toEqual({ kind: 'queued' });

    const record = await waitFor(() => {
      const r = keeper.records.get(opened.wager);
      return r?.state === 'settled' ? r : undefined;
    }, 20_000, 'the wager to be settled');

    // The record and the chain agree: the settle transaction's WagerSettled event is what the keeper shows.
    const settleEvents = await eventsOf(bed.rpc, record.settleSignature!, bed.parts.program);
    expect(settleEvents).toEqual([{ name: 'WagerSettled', data: expect.objectContaining({ wager: opened.wager, stake: 3_000_000n, pending: 0 }) }]);
    const settled = settleEvents[0]!.data as { bucket: number; payout: bigint };
    expect(record).toMatchObject({ bucket: settled.bucket, payout: settled.payout.toString(), payoutPending: false });
    expect(await usdcBalance(bed.rpc, beneficiary.usdc)).toBe(settled.payout);
    expect(await keeper.lookupWager(opened.wager)).toEqual({
      state: 'settled',
      openSlot: record.openSlot,
      requestSignature: record.requestSignature,
      settleSignature: record.settleSignature,
      bucket: settled.bucket,
      payout: settled.payout.toString(),
      updatedAt: record.updatedAt,
    });

    // The request the keeper recorded is the wager's request on chain, sent no earlier than open+2.
    const history = wagerHistory(bed.localnet, opened.wager, bed.parts.program);
    expect(history.map((h) => h.events.map((e) => e.name))).toEqual([['WagerOpened'], ['WagerRandomnessRequested'], ['WagerSettled']]);
    expect(history[1]!.signature).toBe(record.requestSignature);
    expect(history[2]!.signature).toBe(record.settleSignature);
    expect(history[1]!.slot).toBeGreaterThanOrEqual(BigInt(record.openSlot!) + 2n);
    expect(await wagerAccount(opened.wager)).toBeNull();

    // Earnings: the request fee and the settle fee, each against its own transaction.
    const earnings = earningsOf(db, opened.wager);
    expect(earnings).toEqual([
      { step: 'request', signature: record.requestSignature, received: Number(DEFAULT_WAGER_CONFIG.requestFee), fee: Number(TX_FEE) },
      { step: 'settle', signature: record.settleSignature, received: Number(DEFAULT_WAGER_CONFIG.settleFee), fee: Number(TX_FEE) },
    ]);
    expect(earnings.map((e) => e.received)).toEqual([50_000, 200_000]);
    // ...and the ledger's net is what the keeper's SOL balance really gained.
    const balanceAfter = (await bed.rpc.getBalance(key.address, { commitment: 'confirmed' }).send()).value;
    expect(balanceAfter - balanceBefore).toBe(50_000n + 200_000n - 2n * TX_FEE);
    expect(keeper.counters()).toMatchObject({ request: { landed: 1, lost: 0, failed: 0 }, settle: { landed: 1, lost: 0, failed: 0 } });
  });

  it('expires a wager whose randomness never arrives once the window is over (after open+150), with the expire transaction recorded', async () => {
    bed.localnet.fulfiller.stall();
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app, { stake: 1_000_000n });
    const { keeper, db } = await startKeeper('expire');
    await keeper.submitWager(opened.wager);
    const requested = await waitFor(() => {
      const r = keeper.records.get(opened.wager);
      return r?.state === 'requested' ? r : undefined;
    }, 10_000, 'the randomness request');
    expect(requested.requestSignature).toBeTruthy();

    // The oracle stays silent: jump to the last slot of the window; the wager must still be there.
    bed.pump.stop();
    try {
      const openSlot = BigInt(requested.openSlot!);
      const current = bed.localnet.chain.slot();
      bed.localnet.chain.advanceSlots(Number(openSlot + 150n - current));
      await keeper.tick();
      expect(keeper.records.get(opened.wager)?.state).toBe('requested');
      expect((await wagerAccount(opened.wager))?.status).toBe(WagerStatus.Requested);
    } finally {
      bed.pump.start();
    }

    const record = await waitFor(() => {
      const r = keeper.records.get(opened.wager);
      return r?.state === 'expired' ? r : undefined;
    }, 10_000, 'the wager to expire');
    expect(record.expireSignature).toBeTruthy();
    expect(record.settleSignature).toBeNull();
    const history = wagerHistory(bed.localnet, opened.wager, bed.parts.program);
    const last = history.at(-1)!;
    expect(last.signature).toBe(record.expireSignature);
    expect(last.events).toEqual([{ name: 'WagerExpired', data: expect.objectContaining({ wager: opened.wager, wasRequested: 1 }) }]);
    expect(last.slot).toBeGreaterThan(BigInt(record.openSlot!) + 150n);
    expect(await keeper.lookupWager(opened.wager)).toMatchObject({ state: 'expired', requestSignature: record.requestSignature });
    expect(earningsOf(db, opened.wager).map((e) => [e.step, e.received])).toEqual([
      ['request', 50_000],
      ['expire', 200_000],
    ]);
  });

  let stepListener: () => void = () => undefined;
  it('stopping the keeper while cranks are in flight: nothing is sent after stop() returns, and every crank that landed is in its ledger', async () => {
    // Twenty wagers waiting, then a keeper that finds them all at once: its first pass sends twenty requests.
    for (let i = 0; i < 20; i++) await openWager(bed.rpc, bed.localnet, bed.parts.app);
    // Every wager-program transaction is recorded with its fee payer: the keeper's first pass can land cranks before
    // start() returns, i.e. before the test knows the keeper's address.
    const landed: { payer: string; signature: string; ok: boolean; at: number }[] = [];
    const onTransaction = (record: TransactionRecord) => {
      if (!record.accountKeys.includes(bed.parts.program)) return; // the test's airdrop to the keeper is not a crank
      landed.push({ payer: record.accountKeys[0]!, signature: record.signature, ok: record.err === null, at: Date.now() });
    };
    bed.localnet.chain.on('transaction', onTransaction);
    try {
      const firstLanded = new Promise<void>((resolve) => (stepListener = () => resolve()));
      const { keeper, db, key } = await startKeeper('stop-in-flight', undefined, (k) => k.events.once('step', () => stepListener()));
      // Stop as soon as the first crank landed: the others are being sent or confirmed right now.
      await firstLanded;
      await bed.stopKeeper(keeper, { closeDb: false });
      const stoppedAt = Date.now();
      const ledger = new Set((db.prepare('SELECT signature FROM earnings').all() as { signature: string }[]).map((row) => row.signature));
      db.close();
      await sleep(2_000);

      const sentByKeeper = landed.filter((tx) => tx.payer === key.address);
      expect(sentByKeeper.filter((tx) => tx.at > stoppedAt)).toEqual([]);
      expect(sentByKeeper.filter((tx) => !tx.ok)).toEqual([]);
      expect(sentByKeeper.length).toBeGreaterThan(0);
      expect(sentByKeeper.filter((tx) => !ledger.has(tx.signature))).toEqual([]);
    } finally {
      bed.localnet.chain.off('transaction', onTransaction);
      // Finish the wagers this test left open, so the next tests' keepers start from a clean chain.
      const cleanup = await startKeeper('stop-in-flight-cleanup');
      await waitFor(() => (cleanup.keeper.records.byState(['queued', 'requested', 'fulfilled']).length === 0 ? true : undefined), 20_000, 'the leftover wagers to be finished');
    }
  });

  const unreceivable = [
    {
      how: 'frozen',
      block: async (usdc: Address) => [getFreezeAccountInstruction({ account: usdc, mint: bed.parts.mint, owner: await mintAuthority() })],
      repair: async (usdc: Address) => [getThawAccountInstruction({ account: usdc, mint: bed.parts.mint, owner: await mintAuthority() })],
    },
    {
      how: 'closed',
      block: async (usdc: Address, owner: KeyPairSigner) => [getCloseAccountInstruction({ account: usdc, destination: bed.parts.app.address, owner })],
      repair: async (_usdc: Address, owner: KeyPairSigner) => [
        await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: bed.parts.app, mint: bed.parts.mint, owner: owner.address }),
      ],
    },
  ];
  const mintAuthority = () => keypairFromBytes(bed.localnet.manifest.mintAuthority);

  it.each(unreceivable)(
    'parks the payout when the beneficiary account is $how at settlement (settled, payout pending), and delivers it once the account can receive again',
    async ({ block, repair }) => {
      const paytable = await alwaysPaysPaytable(bed.rpc, bed.localnet);
      const beneficiary = await freshBeneficiary(bed.rpc, bed.parts.mint, bed.parts.app);
      const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app, { paytableAddress: paytable, stake: 2_000_000n, beneficiary: beneficiary.usdc });
      await sendInstructions(bed.rpc, bed.parts.app, await block(beneficiary.usdc, beneficiary.owner));

      let skew = 0; // the keeper's clock: moved forward later to skip the claim backoff
      const { keeper } = await startKeeper(`pending-${beneficiary.usdc}`, () => Date.now() + skew);
      await keeper.submitWager(opened.wager);
      const parked = await waitFor(() => {
        const r = keeper.records.get(opened.wager);
        return r?.state === 'settled' ? r : undefined;
      }, 20_000, 'the settlement');
      const expectedPayout = (2_000_000n * ALWAYS_PAYS_MULTIPLIER_BPS) / 10_000n;
      expect(parked).toMatchObject({ payoutPending: true, bucket: 0, payout: expectedPayout.toString(), claimSignature: null });
      expect(await eventsOf(bed.rpc, parked.settleSignature!, bed.parts.program)).toEqual([
        { name: 'WagerSettled', data: expect.objectContaining({ wager: opened.wager, payout: expectedPayout, pending: 1 }) },
      ]);
      expect(await wagerAccount(opened.wager)).toMatchObject({ status: WagerStatus.PayoutPending, payout: expectedPayout });
      expect(await keeper.lookupWager(opened.wager)).toMatchObject({ state: 'settled', payout: expectedPayout.toString() });

      // While the account cannot receive, the keeper tries claim_payout, fails with the chain's reason, and backs off.
      const refused = await waitFor(() => {
        const r = keeper.records.get(opened.wager);
        return r && r.attempts > 0 ? r : undefined;
      }, 10_000, 'a refused claim');
      expect(refused.lastError).toBe('claim_payout: beneficiaryCannotReceive');
      expect(refused.nextAttemptAt).toBeGreaterThan(Date.now() + 5_000);
      expect(refused.payoutPending).toBe(true);

      await sendInstructions(bed.rpc, bed.parts.app, await repair(beneficiary.usdc, beneficiary.owner));
      // The account can receive again; the backoff still holds the keeper back for a while...
      await keeper.tick();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(keeper.records.get(opened.wager)?.payoutPending).toBe(true);
      // ...until its (injected) clock passes the longest claim backoff.
      skew = 11 * 60_000;
      const delivered = await waitFor(() => {
        const r = keeper.records.get(opened.wager);
        return r && !r.payoutPending ? r : undefined;
      }, 10_000, 'the parked payout to be delivered');
      expect(delivered).toMatchObject({ state: 'settled', payout: expectedPayout.toString(), settleSignature: parked.settleSignature, attempts: 0, lastError: null });
      expect(delivered.claimSignature).toBeTruthy();
      expect(await eventsOf(bed.rpc, delivered.claimSignature!, bed.parts.program)).toEqual([
        { name: 'PayoutClaimed', data: expect.objectContaining({ wager: opened.wager, beneficiary: beneficiary.usdc, payout: expectedPayout }) },
      ]);
      expect(await usdcBalance(bed.rpc, beneficiary.usdc)).toBe(expectedPayout);
      expect(await wagerAccount(opened.wager)).toBeNull();
      expect(keeper.counters().claim_payout).toMatchObject({ landed: 1 });
      expect(keeper.counters().claim_payout!.failed).toBeGreaterThanOrEqual(1);
    },
  );
});
