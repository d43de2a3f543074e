import { generateKeyPairSigner, lamports, type Address, type KeyPairSigner } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  TOKEN_PROGRAM_ADDRESS,
  getCloseAccountInstruction,
  getFreezeAccountInstruction,
  getInitializeAccount3Instruction,
  getThawAccountInstruction,
  getTokenSize,
} from '@solana-program/token';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureTokenAccount, createUsdcMint } from '../../../src-main/localnet/bootstrap-wager';
import { getRandomnessV2Decoder } from '../../../src-main/protocol/oracle';
import {
  decodeWagerEventsFromLogs,
  drawBucket,
  getClaimPayoutForWager,
  getPaytableDecoder,
  payoutFor,
  WagerStatus,
} from '../../../src-main/protocol/wager';
import {
  DEFAULT_WAGER_CONFIG,
  ORACLE_FEE,
  claimPayout,
  createWagerTestChain,
  errorNameOf,
  expire,
  fulfil,
  lamportsOf,
  openWager,
  readPool,
  readWager,
  requestRandomness,
  settle,
  usdcOf,
  type WagerTestChain,
} from './wager-test-chain';

const TX_FEE = 5_000n; // per signature
const STAKE = 2_500_000n; // 2.50 USDC
const { requestFee, settleFee, expireFee, tSettle } = DEFAULT_WAGER_CONFIG;

let chain: WagerTestChain;
beforeEach(async () => {
  chain = await createWagerTestChain();
});

const rent = (bytes: number) => chain.runner.svm.minimumBalanceForRentExemption(BigInt(bytes));
const WAGER_SIZE = 336;
const ORACLE_REQUEST_SIZE = 137;
const prefund = () => requestFee + (settleFee > expireFee ? settleFee : expireFee) + ORACLE_FEE + rent(ORACLE_REQUEST_SIZE) + rent(0);

function randomnessOf(wager: Address): Uint8Array {
  const record = readWager(chain, wager)!;
  const account = chain.runner.svm.getAccount(record.oracleRequest);
  if (!account.exists) throw new Error('no oracle request');
  const state = getRandomnessV2Decoder().decode(account.data).request;
  if (state.__kind !== 'Fulfilled') throw new Error('not fulfilled');
  return Uint8Array.from(state.randomness);
}

function paytableOf(name: string) {
  const account = chain.runner.svm.getAccount(chain.paytables[name]!);
  if (!account.exists) throw new Error(`no paytable ${name}`);
  return getPaytableDecoder().decode(account.data);
}

/** The payout the program must pay for a fulfilled wager, computed independently in TypeScript. */
function expectedPayout(wager: Address, paytable = 'coin-flip') {
  const table = paytableOf(paytable);
  const bucket = drawBucket(table, randomnessOf(wager));
  return { bucket, payout: payoutFor(readWager(chain, wager)!.stake, table.buckets[bucket]!.multiplierBps) };
}

/** Opens, requests and fulfils wagers until one draws a paying bucket; settles the others. */
async function fulfilledWinner(options: { beneficiary?: Address; paytable?: string } = {}) {
  for (let attempt = 0; attempt < 40; attempt++) {
    const { wager, outcome } = await openWager(chain, { stake: STAKE, ...options });
    expect(outcome.ok, outcome.failure?.message).toBe(true);
    chain.runner.advanceSlots(2);
    expect((await requestRandomness(chain, wager)).outcome.ok).toBe(true);
    await fulfil(chain, wager);
    const expected = expectedPayout(wager, options.paytable);
    if (expected.payout > 0n) return { wager, ...expected };
    if (options.beneficiary === undefined) expect((await settle(chain, wager)).ok).toBe(true);
  }
  throw new Error('no winning draw in 40 attempts');
}

describe('open_wager', () => {
  it('moves the stake into the vault, prefunds every crank fee and records the wager', async () => {
    const playerSol = lamportsOf(chain, chain.player.address);
    const playerUsdc = usdcOf(chain, chain.playerUsdc);
    const poolBefore = await readPool(chain);
    const vaultBefore = usdcOf(chain, poolBefore.vault);
    const { wager, wagerFees, nonce, outcome } = await openWager(chain, { stake: STAKE });
    expect(outcome.ok, outcome.failure?.message).toBe(true);

    // Player signs twice (payer = stake owner) + the app: two signatures.
    expect(playerSol - lamportsOf(chain, chain.player.address)).toBe(rent(WAGER_SIZE) + prefund() + 2n * TX_FEE);
    expect(lamportsOf(chain, wagerFees)).toBe(prefund());
    expect(playerUsdc - usdcOf(chain, chain.playerUsdc)).toBe(STAKE);
    const pool = await readPool(chain);
    expect(usdcOf(chain, pool.vault)).toBe(vaultBefore + STAKE);
    expect(pool.openStakes).toBe(STAKE);
    expect(pool.lockedLiability).toBe((STAKE * 19_600n) / 10_000n);

    const record = readWager(chain, wager)!;
    expect(record).toMatchObject({
      status: WagerStatus.Open,
      nonce,
      stake: STAKE,
      maxPayout: (STAKE * 19_600n) / 10_000n,
      beneficiary: chain.playerUsdc,
      payer: chain.player.address,
      stakeOwner: chain.player.address,
      integratorAuthority: chain.app.address,
      paytable: chain.paytables['coin-flip'],
      feeAccount: wagerFees,
      prefund: prefund(),
    });
    expect(record.expirySlot - record.openSlot).toBe(tSettle);
    expect(record.openSlot).toBe(chain.runner.slot());

    const [event] = decodeWagerEventsFromLogs(outcome.logs);
    expect(event?.name).toBe('WagerOpened');
    expect(event?.data).toMatchObject({ wager, stake: STAKE, openSlot: record.openSlot, expirySlot: record.expirySlot, nonce });
  });

  it('refuses a beneficiary that is not a USDC token account', async () => {
    const otherMint = await createUsdcMint(chain.runner, chain.admin, chain.admin.address);
    const wrongMint = await ensureTokenAccount(chain.runner, chain.admin, otherMint, chain.player.address);
    expect(errorNameOf((await openWager(chain, { beneficiary: wrongMint })).outcome)).toBe('invalidBeneficiary');
    expect(errorNameOf((await openWager(chain, { beneficiary: chain.player.address })).outcome)).toBe('invalidBeneficiary');
  });
});

describe('request_randomness: the window', () => {
  it('is refused at open+1, accepted at open+2 and pays the caller 50 000 lamports; the oracle gets its fee', async () => {
    const { wager, wagerFees } = await openWager(chain, { stake: STAKE });
    chain.runner.advanceSlots(1);
    // No slot after the open has a hash yet at open+1: offer a made-up one; the window check comes first.
    const madeUp = { slot: readWager(chain, wager)!.openSlot + 1n, hash: chain.app.address };
    const early = await requestRandomness(chain, wager, chain.keeper, [madeUp, ...chain.runner.svm.getSlotHashes()]);
    expect(errorNameOf(early.outcome)).toBe('tooEarly');

    chain.runner.advanceSlots(1);
    const keeperSol = lamportsOf(chain, chain.keeper.address);
    const treasury = lamportsOf(chain, chain.oracle.treasury);
    const { outcome, oracleRequest, seed } = await requestRandomness(chain, wager);
    expect(outcome.ok, outcome.failure?.message).toBe(true);
    expect(lamportsOf(chain, chain.keeper.address) - keeperSol).toBe(requestFee - TX_FEE);
    expect(lamportsOf(chain, chain.oracle.treasury) - treasury).toBe(ORACLE_FEE);
    expect(lamportsOf(chain, wagerFees)).toBe(prefund() - requestFee - ORACLE_FEE - rent(ORACLE_REQUEST_SIZE));
    expect(readWager(chain, wager)).toMatchObject({ status: WagerStatus.Requested, oracleRequest, seed });
    expect(decodeWagerEventsFromLogs(outcome.logs).map((e) => e.name)).toEqual(['WagerRandomnessRequested']);
  });

  it('is accepted at open+150 and refused at open+151', async () => {
    const late = await openWager(chain, { stake: STAKE });
    const tooLate = await openWager(chain, { stake: STAKE });
    chain.runner.advanceSlots(Number(tSettle));
    expect((await requestRandomness(chain, late.wager)).outcome.ok).toBe(true);
    chain.runner.advanceSlots(1);
    expect(errorNameOf((await requestRandomness(chain, tooLate.wager)).outcome)).toBe('requestWindowClosed');
  });

  it('is refused a second time once requested', async () => {
    const { wager } = await openWager(chain, { stake: STAKE });
    chain.runner.advanceSlots(2);
    expect((await requestRandomness(chain, wager)).outcome.ok).toBe(true);
    chain.runner.advanceSlots(1);
    expect(errorNameOf((await requestRandomness(chain, wager)).outcome)).toBe('invalidWagerStatus');
  });
});

describe('settle_wager', () => {
  it('is refused before the oracle fulfils', async () => {
    const { wager } = await openWager(chain, { stake: STAKE });
    chain.runner.advanceSlots(2);
    await requestRandomness(chain, wager);
    expect(errorNameOf(await settle(chain, wager))).toBe('notFulfilled');
  });

  it('pays stake x multiplier of the drawn bucket, 200 000 lamports to the caller, and refunds the payer exactly', async () => {
    const { wager, bucket, payout } = await fulfilledWinner();
    const record = readWager(chain, wager)!;
    const keeperSol = lamportsOf(chain, chain.keeper.address);
    const playerSol = lamportsOf(chain, chain.player.address);
    const feesLeft = lamportsOf(chain, record.feeAccount);
    const beneficiaryUsdc = usdcOf(chain, chain.playerUsdc);
    const poolBefore = await readPool(chain);

    const outcome = await settle(chain, wager);
    expect(outcome.ok, outcome.failure?.message).toBe(true);
    expect(usdcOf(chain, chain.playerUsdc) - beneficiaryUsdc).toBe(payout);
    expect(payout).toBe((STAKE * 19_600n) / 10_000n);
    expect(lamportsOf(chain, chain.keeper.address) - keeperSol).toBe(settleFee - TX_FEE);
    expect(lamportsOf(chain, chain.player.address) - playerSol).toBe(feesLeft - settleFee + rent(WAGER_SIZE));
    expect(chain.runner.svm.getAccount(wager).exists).toBe(false);
    expect(chain.runner.svm.getAccount(record.feeAccount).exists).toBe(false);

    const pool = await readPool(chain);
    expect(pool.liquidity).toBe(poolBefore.liquidity + STAKE - payout);
    expect(pool.openStakes).toBe(poolBefore.openStakes - STAKE);
    expect(pool.lockedLiability).toBe(poolBefore.lockedLiability - record.maxPayout);
    const [event] = decodeWagerEventsFromLogs(outcome.logs);
    expect(event).toMatchObject({ name: 'WagerSettled', data: { wager, payout, bucket, pending: 0 } });
  });

  it('settles long after fulfilment (past the expiry slot), and expiry is then refused with AlreadyFulfilled', async () => {
    const { wager, payout } = await fulfilledWinner();
    chain.runner.advanceSlots(Number(tSettle) * 20);
    expect(errorNameOf(await expire(chain, wager))).toBe('alreadyFulfilled');
    const before = usdcOf(chain, chain.playerUsdc);
    expect((await settle(chain, wager)).ok).toBe(true);
    expect(usdcOf(chain, chain.playerUsdc) - before).toBe(payout);
  });

  it('closes a losing wager without paying, the stake becoming pool liquidity', async () => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const { wager } = await openWager(chain, { stake: STAKE });
      chain.runner.advanceSlots(2);
      await requestRandomness(chain, wager);
      await fulfil(chain, wager);
      if (expectedPayout(wager).payout > 0n) {
        await settle(chain, wager);
        continue;
      }
      const before = { usdc: usdcOf(chain, chain.playerUsdc), pool: await readPool(chain) };
      expect((await settle(chain, wager)).ok).toBe(true);
      expect(usdcOf(chain, chain.playerUsdc)).toBe(before.usdc);
      expect((await readPool(chain)).liquidity).toBe(before.pool.liquidity + STAKE);
      return;
    }
    throw new Error('no losing draw in 40 attempts');
  });
});

describe('expire_wager', () => {
  it('is refused at open+150 and accepted at open+151 for a never-requested wager: forfeiture, fee, exact refund', async () => {
    const { wager, wagerFees } = await openWager(chain, { stake: STAKE });
    chain.runner.advanceSlots(Number(tSettle));
    expect(errorNameOf(await expire(chain, wager))).toBe('notExpired');
    chain.runner.advanceSlots(1);

    const keeperSol = lamportsOf(chain, chain.keeper.address);
    const playerSol = lamportsOf(chain, chain.player.address);
    const playerUsdc = usdcOf(chain, chain.playerUsdc);
    const poolBefore = await readPool(chain);
    const outcome = await expire(chain, wager);
    expect(outcome.ok, outcome.failure?.message).toBe(true);
    expect(lamportsOf(chain, chain.keeper.address) - keeperSol).toBe(expireFee - TX_FEE);
    expect(lamportsOf(chain, chain.player.address) - playerSol).toBe(prefund() - expireFee + rent(WAGER_SIZE));
    expect(usdcOf(chain, chain.playerUsdc)).toBe(playerUsdc); // the stake is not returned
    expect((await readPool(chain)).liquidity).toBe(poolBefore.liquidity + STAKE);
    expect(chain.runner.svm.getAccount(wager).exists).toBe(false);
    expect(chain.runner.svm.getAccount(wagerFees).exists).toBe(false);
    expect(decodeWagerEventsFromLogs(outcome.logs)).toMatchObject([{ name: 'WagerExpired', data: { wager, stake: STAKE, wasRequested: 0 } }]);
  });

  it('expires a requested wager whose randomness never came, refunding what the request did not spend', async () => {
    const { wager, wagerFees } = await openWager(chain, { stake: STAKE });
    chain.runner.advanceSlots(2);
    await requestRandomness(chain, wager);
    chain.runner.advanceSlots(Number(tSettle));
    const feesLeft = lamportsOf(chain, wagerFees);
    const playerSol = lamportsOf(chain, chain.player.address);
    const outcome = await expire(chain, wager);
    expect(outcome.ok, outcome.failure?.message).toBe(true);
    expect(feesLeft).toBe(rent(0) + settleFee);
    expect(lamportsOf(chain, chain.player.address) - playerSol).toBe(feesLeft - expireFee + rent(WAGER_SIZE));
  });

  it('is refused with AlreadyFulfilled when the randomness arrived late, after the window', async () => {
    const { wager } = await openWager(chain, { stake: STAKE });
    chain.runner.advanceSlots(2);
    await requestRandomness(chain, wager);
    chain.runner.advanceSlots(Number(tSettle) + 5);
    await fulfil(chain, wager);
    expect(errorNameOf(await expire(chain, wager))).toBe('alreadyFulfilled');
    expect((await settle(chain, wager)).ok).toBe(true);
  });
});

describe('unreceivable beneficiary: PayoutPending, then claim_payout after repair', () => {
  let owner: KeyPairSigner;
  beforeEach(async () => {
    owner = await generateKeyPairSigner();
    chain.runner.svm.airdrop(owner.address, lamports(1_000_000_000n));
  });

  async function settleParked(wager: Address, payout: bigint) {
    const pool = await readPool(chain);
    const escrowBefore = usdcOf(chain, pool.escrow);
    const feeAccount = readWager(chain, wager)!.feeAccount;
    const feesLeft = lamportsOf(chain, feeAccount);
    const keeperSol = lamportsOf(chain, chain.keeper.address);
    const playerSol = lamportsOf(chain, chain.player.address);
    const outcome = await settle(chain, wager);
    expect(outcome.ok, outcome.failure?.message).toBe(true);
    expect(readWager(chain, wager)).toMatchObject({ status: WagerStatus.PayoutPending, payout });
    // The SOL side is done at the parking settle: the caller's fee, the whole rest of the prefund to the
    // payer (the wager's own rent follows at claim_payout).
    expect(feesLeft).toBe(prefund() - requestFee - ORACLE_FEE - rent(ORACLE_REQUEST_SIZE));
    expect(lamportsOf(chain, chain.keeper.address) - keeperSol).toBe(settleFee - TX_FEE);
    expect(lamportsOf(chain, chain.player.address) - playerSol).toBe(feesLeft - settleFee);
    expect(chain.runner.svm.getAccount(feeAccount).exists).toBe(false);
    expect(usdcOf(chain, pool.escrow) - escrowBefore).toBe(payout);
    expect((await readPool(chain)).pendingPayouts).toBe(pool.pendingPayouts + payout);
    expect(decodeWagerEventsFromLogs(outcome.logs)).toMatchObject([{ name: 'WagerSettled', data: { payout, pending: 1 } }]);
    expect(errorNameOf(await claimPayout(chain, wager))).toBe('beneficiaryCannotReceive');
  }

  async function expectClaimDelivers(wager: Address, beneficiary: Address, payout: bigint) {
    const record = readWager(chain, wager)!;
    const playerSol = lamportsOf(chain, chain.player.address);
    const before = usdcOf(chain, beneficiary);
    const outcome = await claimPayout(chain, wager);
    expect(outcome.ok, outcome.failure?.message).toBe(true);
    expect(usdcOf(chain, beneficiary) - before).toBe(payout);
    expect(lamportsOf(chain, chain.player.address) - playerSol).toBe(rent(WAGER_SIZE));
    expect(chain.runner.svm.getAccount(wager).exists).toBe(false);
    expect((await readPool(chain)).pendingPayouts).toBe(0n);
    // A second delivery is impossible: the wager is gone.
    const again = await getClaimPayoutForWager({ caller: chain.keeper, wagerAddress: wager, wager: record });
    expect(errorNameOf(await chain.runner.send(chain.keeper, [again]))).toBe('invalidWager');
  }

  it('closed account: parked, then delivered once the account is re-created', async () => {
    const beneficiary = await ensureTokenAccount(chain.runner, owner, chain.usdc.address, owner.address);
    const { wager, payout } = await fulfilledWinner({ beneficiary });
    await chain.runner.sendOrThrow(owner, [getCloseAccountInstruction({ account: beneficiary, destination: owner.address, owner })]);
    await settleParked(wager, payout);
    await ensureTokenAccount(chain.runner, owner, chain.usdc.address, owner.address);
    await expectClaimDelivers(wager, beneficiary, payout);
  });

  it('frozen account: parked, then delivered once thawed', async () => {
    const beneficiary = await ensureTokenAccount(chain.runner, owner, chain.usdc.address, owner.address);
    const { wager, payout } = await fulfilledWinner({ beneficiary });
    const freeze = { account: beneficiary, mint: chain.usdc.address, owner: chain.usdc.authority };
    await chain.runner.sendOrThrow(chain.admin, [getFreezeAccountInstruction(freeze)]);
    await settleParked(wager, payout);
    await chain.runner.sendOrThrow(chain.admin, [getThawAccountInstruction(freeze)]);
    await expectClaimDelivers(wager, beneficiary, payout);
  });

  it('no longer a token account (closed, then plain SOL sent to it): parked, then delivered after repair', async () => {
    const beneficiary = await ensureTokenAccount(chain.runner, owner, chain.usdc.address, owner.address);
    const { wager, payout } = await fulfilledWinner({ beneficiary });
    await chain.runner.sendOrThrow(owner, [getCloseAccountInstruction({ account: beneficiary, destination: owner.address, owner })]);
    chain.runner.svm.airdrop(beneficiary, lamports(1_000_000n));
    await settleParked(wager, payout);
    await ensureTokenAccount(chain.runner, owner, chain.usdc.address, owner.address);
    await expectClaimDelivers(wager, beneficiary, payout);
  });

  it('now a token account of another mint: parked, then delivered once it is a USDC account again', async () => {
    const keypair = await generateKeyPairSigner();
    const otherMint = await createUsdcMint(chain.runner, chain.admin, chain.admin.address);
    const createAt = (mint: Address) => [
      getCreateAccountInstruction({ payer: owner, newAccount: keypair, lamports: rent(getTokenSize()), space: getTokenSize(), programAddress: TOKEN_PROGRAM_ADDRESS }),
      getInitializeAccount3Instruction({ account: keypair.address, mint, owner: owner.address }),
    ];
    const close = getCloseAccountInstruction({ account: keypair.address, destination: owner.address, owner });
    await chain.runner.sendOrThrow(owner, createAt(chain.usdc.address));
    const { wager, payout } = await fulfilledWinner({ beneficiary: keypair.address });
    await chain.runner.sendOrThrow(owner, [close, ...createAt(otherMint)]);
    await settleParked(wager, payout);
    await chain.runner.sendOrThrow(owner, [close, ...createAt(chain.usdc.address)]);
    await expectClaimDelivers(wager, keypair.address, payout);
  });
});
