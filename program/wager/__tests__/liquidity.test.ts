/**
 * Liquidity epochs end to end, in LiteSVM: deposit and withdraw requests, the strike that prices them,
 * the claims that mint or pay, and how wager outcomes move what the LPs own. Every amount is checked to
 * the USDC base unit and to the share; every fee to the lamport (a separate fee payer signs each
 * transaction, so the parties' lamport balances move by the program's transfers alone).
 */
import { generateKeyPairSigner, lamports, type Address, type KeyPairSigner } from '@solana/kit';
import { getMintDecoder, getTransferInstruction } from '@solana-program/token';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ensureTokenAccount, mintTokens } from '../../../src-main/localnet/bootstrap-wager';
import type { TransactionOutcome } from '../../../src-main/localnet/litesvm-runner';
import { getRandomnessV2Decoder } from '../../../src-main/protocol/oracle';
import {
  drawBucket,
  findDepositRequestPda,
  findEpochRecordPda,
  findShareEscrowPda,
  findShareMintPda,
  findVaultPda,
  findWithdrawRequestPda,
  getClaimDepositInstructionAsync,
  getClaimWithdrawInstructionAsync,
  getDepositRequestDecoder,
  getEpochRecordDecoder,
  getPaytableDecoder,
  getRequestDepositInstructionAsync,
  getRequestWithdrawInstructionAsync,
  getStrikeEpochInstructionAsync,
  payoutFor,
  type EpochRecord,
} from '../../../src-main/protocol/wager';
import {
  DEFAULT_WAGER_CONFIG,
  SOL,
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

const FEE = DEFAULT_WAGER_CONFIG.liquidityFee;

// ---- Helpers: the liquidity steps as an LP and a keeper send them -----------------------------------

interface Lp {
  signer: KeyPairSigner;
  usdc: Address;
  shares: Address;
}

function must(outcome: TransactionOutcome): TransactionOutcome {
  expect(outcome.ok, `${outcome.failure?.message}\n${outcome.logs.join('\n')}`).toBe(true);
  return outcome;
}

const rent = (chain: WagerTestChain, bytes: bigint) => chain.runner.svm.minimumBalanceForRentExemption(bytes);
const epochRecordRent = (chain: WagerTestChain) => rent(chain, 40n);
const requestRent = (chain: WagerTestChain) => rent(chain, 64n);

async function newLp(chain: WagerTestChain, usdcAmount: bigint): Promise<Lp> {
  const signer = await generateKeyPairSigner();
  chain.runner.svm.airdrop(signer.address, lamports(10n * SOL));
  const usdc = await mintTokens(chain.runner, chain.admin, chain.usdc, signer.address, usdcAmount);
  const shares = await ensureTokenAccount(chain.runner, chain.admin, (await findShareMintPda())[0], signer.address);
  return { signer, usdc, shares };
}

/** The LP the fixture seeded the pool with (all the shares so far). */
async function seededLp(chain: WagerTestChain): Promise<Lp> {
  const usdc = await ensureTokenAccount(chain.runner, chain.admin, chain.usdc.address, chain.lp.address);
  return { signer: chain.lp, usdc, shares: chain.lpShares };
}

async function requestDeposit(chain: WagerTestChain, lp: Lp, amount: bigint) {
  const { epoch } = await readPool(chain);
  const [request] = await findDepositRequestPda({ owner: lp.signer.address, epoch });
  const [epochRecord] = await findEpochRecordPda({ epoch });
  const ix = await getRequestDepositInstructionAsync({ owner: lp.signer, request, epochRecord, source: lp.usdc, amount });
  return { epoch, request, epochRecord, outcome: await chain.runner.send(chain.admin, [ix]) };
}

async function requestWithdraw(chain: WagerTestChain, lp: Lp, shares: bigint) {
  const { epoch } = await readPool(chain);
  const [request] = await findWithdrawRequestPda({ owner: lp.signer.address, epoch });
  const [epochRecord] = await findEpochRecordPda({ epoch });
  const ix = await getRequestWithdrawInstructionAsync({ owner: lp.signer, request, epochRecord, source: lp.shares, shares });
  return { epoch, request, epochRecord, outcome: await chain.runner.send(chain.admin, [ix]) };
}

async function strike(chain: WagerTestChain, caller = chain.keeper) {
  const { epoch } = await readPool(chain);
  const [epochRecord] = await findEpochRecordPda({ epoch });
  const ix = await getStrikeEpochInstructionAsync({ caller, epochRecord });
  return { epoch, epochRecord, outcome: await chain.runner.send(chain.admin, [ix]) };
}

async function claimDeposit(chain: WagerTestChain, lp: Lp, epoch: bigint, caller = chain.keeper) {
  const [request] = await findDepositRequestPda({ owner: lp.signer.address, epoch });
  const [epochRecord] = await findEpochRecordPda({ epoch });
  const ix = await getClaimDepositInstructionAsync({ caller, epochRecord, request, owner: lp.signer.address, ownerShares: lp.shares });
  return chain.runner.send(chain.admin, [ix]);
}

async function claimWithdraw(chain: WagerTestChain, lp: Lp, epoch: bigint, caller = chain.keeper) {
  const [request] = await findWithdrawRequestPda({ owner: lp.signer.address, epoch });
  const [epochRecord] = await findEpochRecordPda({ epoch });
  const ix = await getClaimWithdrawInstructionAsync({ caller, epochRecord, request, owner: lp.signer.address, ownerUsdc: lp.usdc });
  return chain.runner.send(chain.admin, [ix]);
}

/** Moves the clock to `slot` (no-op when already there or past it). */
function advanceTo(chain: WagerTestChain, slot: bigint) {
  const now = chain.runner.slot();
  if (slot > now) chain.runner.advanceSlots(Number(slot - now));
}

async function advancePastClose(chain: WagerTestChain) {
  advanceTo(chain, (await readPool(chain)).epochCloseSlot + 1n);
}

function readEpochRecord(chain: WagerTestChain, address: Address): EpochRecord {
  const account = chain.runner.svm.getAccount(address);
  if (!account.exists) throw new Error(`no epoch record at ${address}`);
  return getEpochRecordDecoder().decode(account.data);
}

async function shareSupply(chain: WagerTestChain): Promise<bigint> {
  const account = chain.runner.svm.getAccount((await findShareMintPda())[0]);
  if (!account.exists) throw new Error('no share mint');
  return getMintDecoder().decode(account.data).supply;
}

const vaultUsdc = async (chain: WagerTestChain) => usdcOf(chain, (await findVaultPda())[0]);
const escrowedShares = async (chain: WagerTestChain) => usdcOf(chain, (await findShareEscrowPda())[0]);

/** The share price rule of liquidity.c, from the spec of the task: the virtual unit and share (+1). */
const sharesFor = (deposit: bigint, liquidity: bigint, shares: bigint) => (deposit * (shares + 1n)) / (liquidity + 1n);
const usdcFor = (withdrawn: bigint, liquidity: bigint, shares: bigint) => (withdrawn * (liquidity + 1n)) / (shares + 1n);

/** a/b >= c/d for positive denominators, exactly. */
const ratioAtLeast = (a: bigint, b: bigint, c: bigint, d: bigint) => a * d >= c * b;

/**
 * Plays a wager through open, request, fulfil and settle; returns what it paid, predicted from the
 * fulfilled randomness and the paytable exactly as settle_wager draws.
 */
async function playWager(chain: WagerTestChain, options: { paytable?: string; stake?: bigint } = {}) {
  const stake = options.stake ?? 1_000_000n;
  const opened = await openWager(chain, { paytable: options.paytable, stake });
  must(opened.outcome);
  chain.runner.advanceSlots(2);
  const requested = await requestRandomness(chain, opened.wager);
  must(requested.outcome);
  await fulfil(chain, opened.wager);
  const payout = predictedPayout(chain, opened.wager);
  must(await settle(chain, opened.wager));
  return { stake, payout };
}

function predictedPayout(chain: WagerTestChain, wager: Address): bigint {
  const record = readWager(chain, wager)!;
  const request = chain.runner.svm.getAccount(record.oracleRequest);
  const paytableAccount = chain.runner.svm.getAccount(record.paytable);
  if (!request.exists || !paytableAccount.exists) throw new Error('oracle request or paytable missing');
  const randomness = getRandomnessV2Decoder().decode(request.data).request;
  if (randomness.__kind !== 'Fulfilled') throw new Error('not fulfilled');
  const paytable = getPaytableDecoder().decode(paytableAccount.data);
  return payoutFor(record.stake, paytable.buckets[drawBucket(paytable, randomness.randomness)]!.multiplierBps);
}

/** A pool of 1 000 base units from the seeded LP, then ten forfeited stakes of 10: L = 1 100, S = 1 000. */
async function smallPool() {
  const chain = await createWagerTestChain({ liquidity: 1_000n });
  const lp = await seededLp(chain);
  const wagers = [];
  // 20 forfeited stakes of 5: each max payout (9) fits the 1% cap of the ~1 000 units free.
  for (let i = 0; i < 20; i++) {
    const opened = await openWager(chain, { stake: 5n });
    must(opened.outcome);
    wagers.push(opened.wager);
  }
  advanceTo(chain, readWager(chain, wagers.at(-1)!)!.expirySlot + 1n);
  for (const wager of wagers) must(await expire(chain, wager));
  return { chain, lp };
}

// ---- Deposits ---------------------------------------------------------------------------------------

describe('depositing liquidity', () => {
  it('a deposit waits for the strike, then mints floor(d·(S+1)/(L+1)) shares; the cranks are paid from what the LP prefunded', async () => {
    const chain = await createWagerTestChain();
    await playWager(chain); // move the price off 1:1 so the rounding shows
    const alice = await newLp(chain, 5_000_000_000n);
    const deposit = 3_333_333_337n;

    const aliceLamports = lamportsOf(chain, alice.signer.address);
    const vaultBefore = await vaultUsdc(chain);
    const before = await readPool(chain);
    const { epoch, request, epochRecord, outcome } = await requestDeposit(chain, alice, deposit);
    must(outcome);

    // The USDC moved now; the liquidity and the shares wait for the strike.
    expect(usdcOf(chain, alice.usdc)).toBe(5_000_000_000n - deposit);
    expect(await vaultUsdc(chain)).toBe(vaultBefore + deposit);
    const pending = await readPool(chain);
    expect(pending.pendingDeposits).toBe(deposit);
    expect(pending.liquidity).toBe(before.liquidity);
    expect(pending.totalShares).toBe(before.totalShares);
    // The epoch's first request pays the record's rent + the strike fee and its own rent + the claim fee.
    expect(aliceLamports - lamportsOf(chain, alice.signer.address)).toBe(epochRecordRent(chain) + FEE + requestRent(chain) + FEE);
    expect(lamportsOf(chain, epochRecord)).toBe(epochRecordRent(chain) + FEE);
    expect(lamportsOf(chain, request)).toBe(requestRent(chain) + FEE);
    const stored = getDepositRequestDecoder().decode((chain.runner.svm.getAccount(request) as { data: Uint8Array }).data);
    expect(stored).toMatchObject({ owner: alice.signer.address, epoch, amount: deposit });

    // Claiming before the strike is refused and changes nothing.
    const early = await claimDeposit(chain, alice, epoch);
    expect(errorNameOf(early)).toBe('epochNotStruck');
    expect(usdcOf(chain, alice.shares)).toBe(0n);

    // The strike is refused up to and including the close slot, allowed the slot after.
    advanceTo(chain, pending.epochCloseSlot);
    expect(errorNameOf((await strike(chain)).outcome)).toBe('epochNotClosed');
    chain.runner.advanceSlots(1);
    const keeperLamports = lamportsOf(chain, chain.keeper.address);
    must((await strike(chain)).outcome);
    expect(lamportsOf(chain, chain.keeper.address) - keeperLamports).toBe(FEE);
    expect(lamportsOf(chain, epochRecord)).toBe(epochRecordRent(chain));

    const owed = sharesFor(deposit, before.liquidity, before.totalShares);
    expect(owed).not.toBe(deposit); // the price is not 1:1 any more
    expect(readEpochRecord(chain, epochRecord)).toMatchObject({ epoch, liquidity: before.liquidity, shares: before.totalShares, struck: 1 });
    const struck = await readPool(chain);
    expect(struck).toMatchObject({
      liquidity: before.liquidity + deposit,
      totalShares: before.totalShares + owed,
      pendingDeposits: 0n,
      epoch: epoch + 1n,
      epochCloseSlot: pending.epochCloseSlot + DEFAULT_WAGER_CONFIG.epochLength,
      liveEpochHasRecord: 0,
    });
    expect(await shareSupply(chain)).toBe(before.totalShares); // counted, not minted yet

    const supplyBefore = await shareSupply(chain);
    const keeperBeforeClaim = lamportsOf(chain, chain.keeper.address);
    const aliceBeforeClaim = lamportsOf(chain, alice.signer.address);
    must(await claimDeposit(chain, alice, epoch));
    expect(usdcOf(chain, alice.shares)).toBe(owed);
    expect(await shareSupply(chain)).toBe(supplyBefore + owed);
    expect(lamportsOf(chain, chain.keeper.address) - keeperBeforeClaim).toBe(FEE);
    expect(lamportsOf(chain, alice.signer.address) - aliceBeforeClaim).toBe(requestRent(chain));
    expect(chain.runner.svm.getAccount(request).exists).toBe(false);

    // A second claim of the same request is refused and mints nothing.
    const again = await claimDeposit(chain, alice, epoch);
    expect(errorNameOf(again)).toBe('invalidLiquidityRequest');
    expect(usdcOf(chain, alice.shares)).toBe(owed);
    expect(await shareSupply(chain)).toBe(supplyBefore + owed);
  });

  it('repeated deposits of one LP in one epoch add up in one request, prefunded once', async () => {
    const chain = await createWagerTestChain();
    const alice = await newLp(chain, 1_000_000_000n);
    must((await requestDeposit(chain, alice, 100_000_000n)).outcome);
    const lamportsAfterFirst = lamportsOf(chain, alice.signer.address);
    const { request, epoch, outcome } = await requestDeposit(chain, alice, 23_456_789n);
    must(outcome);
    expect(lamportsOf(chain, alice.signer.address)).toBe(lamportsAfterFirst);
    expect(lamportsOf(chain, request)).toBe(requestRent(chain) + FEE);
    const stored = getDepositRequestDecoder().decode((chain.runner.svm.getAccount(request) as { data: Uint8Array }).data);
    expect(stored.amount).toBe(123_456_789n);
    expect((await readPool(chain)).pendingDeposits).toBe(123_456_789n);

    const before = await readPool(chain);
    await advancePastClose(chain);
    must((await strike(chain)).outcome);
    must(await claimDeposit(chain, alice, epoch));
    expect(usdcOf(chain, alice.shares)).toBe(sharesFor(123_456_789n, before.liquidity, before.totalShares));
  });

  it('in a small pool the virtual unit and share decide the rounding: (S+1)/(L+1), not S/L', async () => {
    const { chain, lp } = await smallPool();
    const before = await readPool(chain);
    expect(before).toMatchObject({ liquidity: 1_100n, totalShares: 1_000n });

    // Amounts where the virtual unit and share change the result (found, not assumed).
    const L = before.liquidity;
    const S = before.totalShares;
    let d = 1n;
    while ((d * (S + 1n)) / (L + 1n) === (d * S) / L) d++;
    let w = 1n;
    while ((w * (L + 1n)) / (S + 1n) === (w * L) / S) w++;
    expect(w).toBeLessThanOrEqual(usdcOf(chain, lp.shares));

    const alice = await newLp(chain, d);
    const deposited = await requestDeposit(chain, alice, d);
    must(deposited.outcome);
    must((await requestWithdraw(chain, lp, w)).outcome);
    const lpUsdc = usdcOf(chain, lp.usdc);
    await advancePastClose(chain);
    must((await strike(chain)).outcome);
    must(await claimDeposit(chain, alice, deposited.epoch));
    must(await claimWithdraw(chain, lp, deposited.epoch));
    expect(usdcOf(chain, alice.shares)).toBe(sharesFor(d, L, S));
    expect(usdcOf(chain, lp.usdc) - lpUsdc).toBe(usdcFor(w, L, S));
    expect(await readPool(chain)).toMatchObject({
      liquidity: L + d - usdcFor(w, L, S),
      totalShares: S + sharesFor(d, L, S) - w,
      owedWithdrawals: 0n,
    });
  });

  it('two LPs in one epoch get shares in proportion to their deposits, and a later LP pays the price wagers have moved to', async () => {
    const chain = await createWagerTestChain();
    const lp = await seededLp(chain);
    await playWager(chain, { paytable: 'dice', stake: 7_000_000n });
    const alice = await newLp(chain, 10_000_000_000n);
    const bob = await newLp(chain, 10_000_000_000n);
    const carol = await newLp(chain, 10_000_000_000n);
    const d = 1_234_567_891n;

    const first = await requestDeposit(chain, alice, 3n * d);
    must(first.outcome);
    const bobLamports = lamportsOf(chain, bob.signer.address);
    must((await requestDeposit(chain, bob, d)).outcome);
    // Not the epoch's first request: bob prefunds his own request and claim fee only.
    expect(bobLamports - lamportsOf(chain, bob.signer.address)).toBe(requestRent(chain) + FEE);

    const before = await readPool(chain);
    const lpValueBefore = [usdcOf(chain, lp.shares) * (before.liquidity + 1n), before.totalShares + 1n] as const;
    await advancePastClose(chain);
    must((await strike(chain)).outcome);
    must(await claimDeposit(chain, alice, first.epoch));
    must(await claimDeposit(chain, bob, first.epoch));

    const aliceShares = usdcOf(chain, alice.shares);
    const bobShares = usdcOf(chain, bob.shares);
    expect(aliceShares).toBe(sharesFor(3n * d, before.liquidity, before.totalShares));
    expect(bobShares).toBe(sharesFor(d, before.liquidity, before.totalShares));
    // Proportional up to the floor of each claim: 3·bob and alice differ by less than 3 shares.
    expect(aliceShares - 3n * bobShares).toBeGreaterThanOrEqual(0n);
    expect(aliceShares - 3n * bobShares).toBeLessThan(3n);

    const after = await readPool(chain);
    // Nobody gains at another's expense: the price per share does not fall for those already in...
    expect(ratioAtLeast(after.liquidity + 1n, after.totalShares + 1n, before.liquidity + 1n, before.totalShares + 1n)).toBe(true);
    expect(ratioAtLeast(usdcOf(chain, lp.shares) * (after.liquidity + 1n), after.totalShares + 1n, ...lpValueBefore)).toBe(true);
    // ...and a newcomer's shares are worth at most what they paid (less by under one share's price).
    for (const [shares, paid] of [[aliceShares, 3n * d], [bobShares, d]] as const) {
      const worth = (shares * (after.liquidity + 1n)) / (after.totalShares + 1n);
      expect(worth).toBeLessThanOrEqual(paid);
      expect(paid - worth).toBeLessThanOrEqual((after.liquidity + 1n) / (after.totalShares + 1n) + 1n);
    }

    // Wagers move the price; carol, depositing the same d one epoch later, pays the new price.
    const liquidityBeforeWagers = after.liquidity;
    for (let i = 0; i < 6 && (await readPool(chain)).liquidity === liquidityBeforeWagers; i++) await playWager(chain, { paytable: 'wheel', stake: 3_000_000n });
    const moved = await readPool(chain);
    expect(moved.liquidity).not.toBe(liquidityBeforeWagers);
    const later = await requestDeposit(chain, carol, d);
    must(later.outcome);
    await advancePastClose(chain);
    must((await strike(chain)).outcome);
    must(await claimDeposit(chain, carol, later.epoch));
    const carolShares = usdcOf(chain, carol.shares);
    expect(carolShares).toBe(sharesFor(d, moved.liquidity, moved.totalShares));
    expect(sharesFor(d, moved.liquidity, moved.totalShares)).not.toBe(sharesFor(d, after.liquidity, after.totalShares));
    expect(carolShares).not.toBe(bobShares);
    const final = await readPool(chain);
    expect(ratioAtLeast(final.liquidity + 1n, final.totalShares + 1n, moved.liquidity + 1n, moved.totalShares + 1n)).toBe(true);
    expect((carolShares * (final.liquidity + 1n)) / (final.totalShares + 1n)).toBeLessThanOrEqual(d);
  });
});

// ---- Withdrawals ------------------------------------------------------------------------------------

describe('withdrawing liquidity', () => {
  it('a withdrawal escrows the shares, is priced at the strike (not at the request), pays floor(w·(L+1)/(S+1)) and burns the shares', async () => {
    const chain = await createWagerTestChain();
    const lp = await seededLp(chain);
    const w = 123_456_789_012n;
    const sharesBefore = usdcOf(chain, lp.shares);
    const lpLamports = lamportsOf(chain, lp.signer.address);
    const { epoch, request, epochRecord, outcome } = await requestWithdraw(chain, lp, w);
    must(outcome);
    expect(usdcOf(chain, lp.shares)).toBe(sharesBefore - w);
    expect(await escrowedShares(chain)).toBe(w);
    expect((await readPool(chain)).pendingWithdrawShares).toBe(w);
    expect(lpLamports - lamportsOf(chain, lp.signer.address)).toBe(epochRecordRent(chain) + FEE + requestRent(chain) + FEE);
    expect(lamportsOf(chain, request)).toBe(requestRent(chain) + FEE);

    // A wager settles within the epoch: the strike prices the withdrawal after it.
    const atRequest = await readPool(chain);
    const played = await playWager(chain, { paytable: 'dice', stake: 9_000_000n });
    const before = await readPool(chain);
    expect(before.liquidity).toBe(atRequest.liquidity + played.stake - played.payout);

    const expected = usdcFor(w, before.liquidity, before.totalShares);
    expect(expected).not.toBe(w);
    const early = await claimWithdraw(chain, lp, epoch);
    expect(errorNameOf(early)).toBe('epochNotStruck');

    const vaultBefore = await vaultUsdc(chain);
    const supplyBefore = await shareSupply(chain);
    await advancePastClose(chain);
    const keeperLamports = lamportsOf(chain, chain.keeper.address);
    must((await strike(chain)).outcome);
    expect(lamportsOf(chain, chain.keeper.address) - keeperLamports).toBe(FEE);
    expect(readEpochRecord(chain, epochRecord)).toMatchObject({ liquidity: before.liquidity, shares: before.totalShares, struck: 1 });
    expect(await readPool(chain)).toMatchObject({
      liquidity: before.liquidity - expected,
      totalShares: before.totalShares - w,
      owedWithdrawals: expected,
      pendingWithdrawShares: 0n,
    });
    expect(await vaultUsdc(chain)).toBe(vaultBefore); // set aside, not paid yet

    const usdcBefore = usdcOf(chain, lp.usdc);
    const keeperBeforeClaim = lamportsOf(chain, chain.keeper.address);
    const lpBeforeClaim = lamportsOf(chain, lp.signer.address);
    must(await claimWithdraw(chain, lp, epoch));
    expect(usdcOf(chain, lp.usdc) - usdcBefore).toBe(expected);
    expect(await vaultUsdc(chain)).toBe(vaultBefore - expected);
    expect(await escrowedShares(chain)).toBe(0n);
    expect(await shareSupply(chain)).toBe(supplyBefore - w);
    expect((await readPool(chain)).owedWithdrawals).toBe(0n);
    expect(lamportsOf(chain, chain.keeper.address) - keeperBeforeClaim).toBe(FEE);
    expect(lamportsOf(chain, lp.signer.address) - lpBeforeClaim).toBe(requestRent(chain));

    const again = await claimWithdraw(chain, lp, epoch);
    expect(errorNameOf(again)).toBe('invalidLiquidityRequest');
    expect(usdcOf(chain, lp.usdc) - usdcBefore).toBe(expected);
  });

  it('withdrawals claimed one by one never pay more than the strike set aside; the rounding remainder stays booked', async () => {
    const { chain, lp } = await smallPool();
    const alice = await newLp(chain, 0n);
    await chain.runner.sendOrThrow(chain.admin, [getTransferInstruction({ source: lp.shares, destination: alice.shares, authority: lp.signer, amount: 500n })]);
    const { liquidity: L, totalShares: S } = await readPool(chain);
    // An amount whose two floors add up to less than the floor of the sum.
    let w = 1n;
    while (2n * usdcFor(w, L, S) === usdcFor(2n * w, L, S)) w++;
    const { epoch } = await readPool(chain);
    must((await requestWithdraw(chain, lp, w)).outcome);
    must((await requestWithdraw(chain, alice, w)).outcome);
    await advancePastClose(chain);
    must((await strike(chain)).outcome);
    const setAside = usdcFor(2n * w, L, S);
    expect(await readPool(chain)).toMatchObject({ liquidity: L - setAside, owedWithdrawals: setAside, totalShares: S - 2n * w });

    const vaultBefore = await vaultUsdc(chain);
    must(await claimWithdraw(chain, lp, epoch));
    must(await claimWithdraw(chain, alice, epoch));
    expect(usdcOf(chain, lp.usdc)).toBe(usdcFor(w, L, S));
    expect(usdcOf(chain, alice.usdc)).toBe(usdcFor(w, L, S));
    const remainder = setAside - 2n * usdcFor(w, L, S);
    expect(remainder).toBe(1n);
    expect(vaultBefore - (await vaultUsdc(chain))).toBe(setAside - remainder);
    // The unit nobody can claim stays in the vault, booked as owed (not returned to the liquidity).
    expect(await readPool(chain)).toMatchObject({ owedWithdrawals: remainder, liquidity: L - setAside });
  });

  it('a withdrawal that would take liquidity backing open wagers is refused with insufficientFreeLiquidity, to the share', async () => {
    const chain = await createWagerTestChain({ liquidity: 1_000_000_000n }); // 1 000 USDC: a 1% cap of a 10 USDC max payout
    const lp = await seededLp(chain);
    for (let i = 0; i < 3; i++) must((await openWager(chain, { paytable: 'dice', stake: 1_500_000n })).outcome);
    const pool = await readPool(chain);
    expect(pool.lockedLiability).toBeGreaterThan(pool.openStakes);

    // The most shares whose value at today's price leaves every open wager's max payout backed.
    const free = pool.liquidity + pool.openStakes - pool.lockedLiability;
    const most = ((free + 1n) * (pool.totalShares + 1n) - 1n) / (pool.liquidity + 1n);
    expect(usdcFor(most, pool.liquidity, pool.totalShares)).toBeLessThanOrEqual(free);
    expect(usdcFor(most + 1n, pool.liquidity, pool.totalShares)).toBeGreaterThan(free);

    const sharesBefore = usdcOf(chain, lp.shares);
    const refused = await requestWithdraw(chain, lp, most + 1n);
    expect(errorNameOf(refused.outcome)).toBe('insufficientFreeLiquidity');
    expect(usdcOf(chain, lp.shares)).toBe(sharesBefore);
    expect(chain.runner.svm.getAccount(refused.request).exists).toBe(false);

    must((await requestWithdraw(chain, lp, most)).outcome);
    expect(usdcOf(chain, lp.shares)).toBe(sharesBefore - most);
    // Pending withdrawals add up: one more share is now too many.
    expect(errorNameOf((await requestWithdraw(chain, lp, 1n)).outcome)).toBe('insufficientFreeLiquidity');
    // And the liquidity they will take cannot back new wagers either.
    expect(errorNameOf((await openWager(chain, { stake: 1_000_000n })).outcome)).toBe('perWagerCap');
  });
});

// ---- The strike and open wagers ---------------------------------------------------------------------

describe('striking an epoch while wagers are open', () => {
  it('waits for every wager opened before the close, and proceeds once they have settled or expired', async () => {
    const chain = await createWagerTestChain();
    const settled = await openWager(chain);
    must(settled.outcome);
    chain.runner.advanceSlots(2);
    must((await requestRandomness(chain, settled.wager)).outcome);
    await fulfil(chain, settled.wager);
    const expiring = await openWager(chain);
    must(expiring.outcome);
    const { epoch } = await readPool(chain);
    expect(readWager(chain, settled.wager)!.epoch).toBe(epoch);
    expect((await readPool(chain)).openWagers[Number(epoch & 1n)]).toBe(2n);

    await advancePastClose(chain);
    expect(errorNameOf((await strike(chain)).outcome)).toBe('epochHasOpenWagers');
    must(await settle(chain, settled.wager));
    expect(errorNameOf((await strike(chain)).outcome)).toBe('epochHasOpenWagers');
    advanceTo(chain, readWager(chain, expiring.wager)!.expirySlot + 1n);
    must(await expire(chain, expiring.wager));

    // No liquidity request this epoch: the strike rolls the epoch and pays no fee (none was prefunded).
    const keeperLamports = lamportsOf(chain, chain.keeper.address);
    must((await strike(chain)).outcome);
    expect(lamportsOf(chain, chain.keeper.address)).toBe(keeperLamports);
    expect((await readPool(chain)).epoch).toBe(epoch + 1n);
  });

  it('a wager opened after the close does not hold up that strike; it counts against the next epoch', async () => {
    const chain = await createWagerTestChain();
    await advancePastClose(chain);
    const { epoch } = await readPool(chain);
    const late = await openWager(chain);
    must(late.outcome);
    expect(readWager(chain, late.wager)!.epoch).toBe(epoch + 1n);
    expect((await readPool(chain)).openWagers).toEqual(epoch % 2n === 0n ? [0n, 1n] : [1n, 0n]);

    must((await strike(chain)).outcome);
    expect((await readPool(chain)).epoch).toBe(epoch + 1n);
    // It is open in the new live epoch: the next strike waits for it.
    await advancePastClose(chain);
    expect(readWager(chain, late.wager)).not.toBeNull();
    expect(errorNameOf((await strike(chain)).outcome)).toBe('epochHasOpenWagers');
    must(await expire(chain, late.wager));
    must((await strike(chain)).outcome);
    expect((await readPool(chain)).epoch).toBe(epoch + 2n);
  });
});

// ---- Wagers opened after the close: the strike price cannot be chosen ----------------------------------

/**
 * Makes a requested wager's oracle request read as fulfilled with randomness that draws the paytable's
 * top bucket (what the oracle would write; forged so two chains get the same outcome). Returns its payout.
 */
function forceTopBucket(chain: WagerTestChain, wager: Address, paytable: string): bigint {
  const record = readWager(chain, wager)!;
  const tableAccount = chain.runner.svm.getAccount(chain.paytables[paytable]!);
  if (!tableAccount.exists) throw new Error('no paytable');
  const table = getPaytableDecoder().decode(tableAccount.data);
  const top = table.buckets.findIndex((b) => b.multiplierBps === table.maxMultiplierBps);
  let randomness = new Uint8Array(64);
  for (let i = 0; drawBucket(table, randomness) !== top; i++) {
    randomness = new Uint8Array(64);
    new DataView(randomness.buffer).setUint32(0, i, true);
    randomness = Uint8Array.from(createHash('sha512').update(randomness).digest());
  }
  const account = chain.runner.svm.getAccount(record.oracleRequest);
  if (!account.exists) throw new Error('no oracle request');
  const data = Uint8Array.from(account.data);
  data[8] = 1; // Fulfilled
  data.set(randomness, 73);
  chain.runner.svm.setAccount({ ...account, data });
  return payoutFor(record.stake, table.buckets[top]!.multiplierBps);
}

describe('wagers opened after the close: the strike price does not depend on when they settle', () => {
  /** An LP withdraws in epoch E; after the close a 1 000 USDC dice wager wins 5.88x; strike before or after its settle. */
  async function scenario(strikeFirst: boolean) {
    const chain = await createWagerTestChain();
    const lp = await seededLp(chain);
    const shares = 200_000_000_000n;
    const withdrawn = await requestWithdraw(chain, lp, shares);
    must(withdrawn.outcome);
    await advancePastClose(chain);
    const priced = await readPool(chain);

    const stake = 1_000_000_000n;
    const late = await openWager(chain, { paytable: 'dice', stake });
    must(late.outcome);
    expect(readWager(chain, late.wager)!.epoch).toBe(withdrawn.epoch + 1n);
    chain.runner.advanceSlots(2);
    must((await requestRandomness(chain, late.wager)).outcome);
    const payout = forceTopBucket(chain, late.wager, 'dice');
    expect(payout).toBe(5_880_000_000n);

    // The outcome is public now: a request priced by this strike is refused until the strike.
    const alice = await newLp(chain, 1_000_000n);
    const early = await requestDeposit(chain, alice, 1_000_000n);
    expect(errorNameOf(early.outcome)).toBe('epochClosed');
    expect(errorNameOf((await requestWithdraw(chain, lp, 1n)).outcome)).toBe('epochClosed');
    expect(usdcOf(chain, alice.usdc)).toBe(1_000_000n);

    if (strikeFirst) {
      must((await strike(chain)).outcome);
      must(await settle(chain, late.wager));
    } else {
      must(await settle(chain, late.wager));
      expect(await readPool(chain)).toMatchObject({ postCloseCredits: stake, postCloseDebits: payout, liquidity: priced.liquidity + stake - payout });
      must((await strike(chain)).outcome);
    }
    expect(await readPool(chain)).toMatchObject({ postCloseCredits: 0n, postCloseDebits: 0n });
    expect(readEpochRecord(chain, withdrawn.epochRecord)).toMatchObject({ liquidity: priced.liquidity, shares: priced.totalShares, struck: 1 });

    const before = usdcOf(chain, lp.usdc);
    must(await claimWithdraw(chain, lp, withdrawn.epoch));
    const paid = usdcOf(chain, lp.usdc) - before;
    expect(paid).toBe(usdcFor(shares, priced.liquidity, priced.totalShares));

    // After the strike, the same deposit is accepted into the new live epoch.
    const later = await requestDeposit(chain, alice, 1_000_000n);
    must(later.outcome);
    expect(later.epoch).toBe(withdrawn.epoch + 1n);
    const pool = await readPool(chain);
    expect(pool.liquidity).toBe(priced.liquidity - paid + stake - payout);
    return { paid, payout, liquidity: pool.liquidity, shares: pool.totalShares };
  }

  it('the withdrawing LP gets exactly the same USDC whether the strike runs before or after the winning settle; deposits wait for the strike', async () => {
    const strikeFirst = await scenario(true);
    const settleFirst = await scenario(false);
    expect(settleFirst).toEqual(strikeFirst);
  });
});

// ---- Wager outcomes and the LPs' value --------------------------------------------------------------

describe("wager outcomes move the LPs' value", () => {
  it('a losing wager adds its stake to the liquidity and a winning one takes payout − stake; the shares stay put', async () => {
    const chain = await createWagerTestChain();
    const lp = await seededLp(chain);
    const seen = { win: false, loss: false };
    for (let i = 0; i < 40 && !(seen.win && seen.loss); i++) {
      const before = await readPool(chain);
      const stake = 1_000_000n + BigInt(i) * 10_007n;
      const { payout } = await playWager(chain, { stake });
      const after = await readPool(chain);
      expect(after.liquidity - before.liquidity).toBe(stake - payout);
      expect(after.totalShares).toBe(before.totalShares);
      expect(after.openStakes).toBe(before.openStakes);
      expect(after.lockedLiability).toBe(before.lockedLiability);
      if (payout === 0n) {
        seen.loss = true;
        expect(after.liquidity).toBe(before.liquidity + stake);
      } else {
        seen.win = true;
        expect(payout).toBe((stake * 19_600n) / 10_000n);
        expect(before.liquidity - after.liquidity).toBe(payout - stake);
      }
    }
    expect(seen).toEqual({ win: true, loss: true });
    expect(usdcOf(chain, lp.shares)).toBe((await readPool(chain)).totalShares);
  });

  it('an expired wager forfeits its stake to the LPs, requested or not', async () => {
    const chain = await createWagerTestChain();
    const unrequested = await openWager(chain, { stake: 4_000_001n });
    must(unrequested.outcome);
    const requested = await openWager(chain, { stake: 2_500_003n });
    must(requested.outcome);
    chain.runner.advanceSlots(2);
    must((await requestRandomness(chain, requested.wager)).outcome);
    advanceTo(chain, readWager(chain, requested.wager)!.expirySlot + 1n);

    for (const [wager, stake] of [[unrequested.wager, 4_000_001n], [requested.wager, 2_500_003n]] as const) {
      const before = await readPool(chain);
      must(await expire(chain, wager));
      const after = await readPool(chain);
      expect(after.liquidity - before.liquidity).toBe(stake);
      expect(before.openStakes - after.openStakes).toBe(stake);
      expect(after.totalShares).toBe(before.totalShares);
    }
    expect(await readPool(chain)).toMatchObject({ openStakes: 0n, lockedLiability: 0n, openWagers: [0n, 0n] });
  });
});
