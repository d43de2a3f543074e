/**
 * The fixes of the security review (docs/wager-program.md, "Security notes"): seed squatting at the oracle,
 * paytable definitions under 1x, the T_SETTLE bound, closed accounts given back to the System program,
 * the guardian handover, and the signatures every permissionless crank and liquidity step needs.
 */
import { generateKeyPairSigner, getAddressEncoder, lamports, signBytes, type Address, type Instruction, type KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { findProgramDataAddress } from '../../../src-main/chain/upgradeable-loader';
import { ensureTokenAccount, mintTokens } from '../../../src-main/localnet/bootstrap-wager';
import {
  WAGER_PROGRAM_ADDRESS,
  WagerStatus,
  drawBucket,
  encodePaytableName,
  findConfigPda,
  findDepositRequestPda,
  findEpochRecordPda,
  findPaytablePda,
  findPoolPda,
  findShareMintPda,
  findWithdrawRequestPda,
  getClaimDepositInstructionAsync,
  getClaimWithdrawInstructionAsync,
  getCreatePaytableInstructionAsync,
  getExpireForWager,
  getInitializeInstructionAsync,
  getPaytableDecoder,
  getRequestDepositInstructionAsync,
  getRequestRandomnessForWager,
  getRequestWithdrawInstructionAsync,
  getSetGuardianInstructionAsync,
  getSetPausedInstructionAsync,
  getSettleForWager,
  getStrikeEpochInstructionAsync,
  payoutFor,
} from '../../../src-main/protocol/wager';
import { getRandomnessV2Decoder, getRequestV2Instruction } from '../../../src-main/protocol/oracle';
import { cBytes, cDefines } from '../../idl/__tests__/c-header';
import { anchorDiscriminator } from '../../idl/idl-builders';
import { accountData, expectOk, expectRefusedByWager, forgeAccount, snapshot, withoutSignature } from './helpers/tamper';
import {
  DEFAULT_WAGER_CONFIG,
  ORACLE_FEE,
  SOL,
  createWagerTestChain,
  expire,
  fulfil,
  lamportsOf,
  openWager,
  readConfig,
  readPool,
  readWager,
  settle,
  usdcOf,
  type WagerTestChain,
} from './wager-test-chain';

const TX_FEE = 5_000n; // per signature
const STAKE = 2_500_000n;
const WAGER_SIZE = 336;
const ORACLE_REQUEST_SIZE = 137;
const { requestFee, settleFee, expireFee, tSettle } = DEFAULT_WAGER_CONFIG;

const rent = (chain: WagerTestChain, bytes: number) => chain.runner.svm.minimumBalanceForRentExemption(BigInt(bytes));
const prefundOf = (chain: WagerTestChain) =>
  requestFee + (settleFee > expireFee ? settleFee : expireFee) + ORACLE_FEE + rent(chain, ORACLE_REQUEST_SIZE) + rent(chain, 0);

async function fundedSigner(chain: WagerTestChain, sol = 10n): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  chain.runner.svm.airdrop(signer.address, lamports(sol * SOL));
  return signer;
}

async function openOk(chain: WagerTestChain, options: Parameters<typeof openWager>[1] = {}) {
  const opened = await openWager(chain, { stake: STAKE, ...options });
  expectOk(opened.outcome);
  return opened.wager;
}

/** The request instruction the keeper would send now (and the seed and oracle PDA it names). */
async function buildRequest(chain: WagerTestChain, wager: Address, caller: KeyPairSigner = chain.keeper) {
  return getRequestRandomnessForWager({
    caller, wagerAddress: wager, wager: readWager(chain, wager)!, oracle: chain.oracle, slotHashes: chain.runner.svm.getSlotHashes(),
  });
}

// ---- 1. Seed squatting ----------------------------------------------------------------------------

describe('seed squatting: someone asks the oracle for the wager\'s seed first', () => {
  it('the wager takes the existing request as its own, is fulfilled and settles; the unspent oracle fee and rent go back to the payer', async () => {
    const chain = await createWagerTestChain();
    const attacker = await fundedSigner(chain);
    const wager = await openOk(chain);
    const feeAccount = readWager(chain, wager)!.feeAccount;
    expect(lamportsOf(chain, feeAccount)).toBe(prefundOf(chain));
    chain.runner.advanceSlots(2);

    // The attacker computes the public seed and requests it with their own payer.
    const built = await buildRequest(chain, wager);
    const treasuryBefore = lamportsOf(chain, chain.oracle.treasury);
    expectOk(await chain.runner.send(attacker, [getRequestV2Instruction({
      payer: attacker, networkState: chain.oracle.networkState, treasury: chain.oracle.treasury, request: built.oracleRequest, seed: built.seed,
    }, { programAddress: chain.oracle.programAddress })]));
    expect(lamportsOf(chain, chain.oracle.treasury) - treasuryBefore).toBe(ORACLE_FEE); // paid by the attacker

    // The wager is still requested: no CPI, the keeper is paid, the oracle fee and rent stay in the fee account.
    const keeperBefore = lamportsOf(chain, chain.keeper.address);
    const outcome = await chain.runner.send(chain.keeper, [built.instruction]);
    expectOk(outcome);
    expect(lamportsOf(chain, chain.keeper.address) - keeperBefore).toBe(requestFee - TX_FEE);
    expect(lamportsOf(chain, chain.oracle.treasury) - treasuryBefore).toBe(ORACLE_FEE);
    expect(lamportsOf(chain, feeAccount)).toBe(prefundOf(chain) - requestFee);
    const record = readWager(chain, wager)!;
    expect(record.status).toBe(WagerStatus.Requested);
    expect(record.oracleRequest).toBe(built.oracleRequest);
    expect(Uint8Array.from(record.seed)).toEqual(built.seed);

    // Fulfilled and settled as usual; the payer gets back everything the request did not spend.
    await fulfil(chain, wager);
    const request = chain.runner.svm.getAccount(built.oracleRequest);
    if (!request.exists) throw new Error('no request');
    const state = getRandomnessV2Decoder().decode(request.data).request;
    if (state.__kind !== 'Fulfilled') throw new Error('not fulfilled');
    const table = getPaytableDecoder().decode(accountData(chain, chain.paytables['coin-flip']!));
    const payout = payoutFor(STAKE, table.buckets[drawBucket(table, Uint8Array.from(state.randomness))]!.multiplierBps);
    const playerSol = lamportsOf(chain, chain.player.address);
    const playerUsdc = usdcOf(chain, chain.playerUsdc);
    const keeperSol = lamportsOf(chain, chain.keeper.address);
    const poolBefore = await readPool(chain);
    expectOk(await settle(chain, wager));
    expect(usdcOf(chain, chain.playerUsdc) - playerUsdc).toBe(payout);
    expect(lamportsOf(chain, chain.keeper.address) - keeperSol).toBe(settleFee - TX_FEE);
    // prefund - request fee - settle fee + the wager's rent: the oracle fee and request rent included.
    expect(lamportsOf(chain, chain.player.address) - playerSol)
      .toBe(prefundOf(chain) - requestFee - settleFee + rent(chain, WAGER_SIZE));
    expect(lamportsOf(chain, chain.player.address) - playerSol)
      .toBe(ORACLE_FEE + rent(chain, ORACLE_REQUEST_SIZE) + rent(chain, 0) + (expireFee > settleFee ? expireFee - settleFee : 0n) + rent(chain, WAGER_SIZE));
    expect(chain.runner.svm.getAccount(feeAccount).exists).toBe(false);
    expect((await readPool(chain)).liquidity).toBe(poolBefore.liquidity + STAKE - payout);
  });

  it('an expiry after a squatted request that never came refunds the unspent oracle fee and rent too', async () => {
    const chain = await createWagerTestChain();
    const attacker = await fundedSigner(chain);
    const wager = await openOk(chain);
    chain.runner.advanceSlots(2);
    const built = await buildRequest(chain, wager);
    expectOk(await chain.runner.send(attacker, [getRequestV2Instruction({
      payer: attacker, networkState: chain.oracle.networkState, treasury: chain.oracle.treasury, request: built.oracleRequest, seed: built.seed,
    }, { programAddress: chain.oracle.programAddress })]));
    expectOk(await chain.runner.send(chain.keeper, [built.instruction]));
    chain.runner.advanceSlots(Number(tSettle));
    const playerSol = lamportsOf(chain, chain.player.address);
    const expireIx = await getExpireForWager({ caller: chain.keeper, wagerAddress: wager, wager: readWager(chain, wager)! });
    expectOk(await chain.runner.send(chain.keeper, [expireIx]));
    expect(lamportsOf(chain, chain.player.address) - playerSol).toBe(prefundOf(chain) - requestFee - expireFee + rent(chain, WAGER_SIZE));
  });

  it('lamports sent ahead to the oracle request address do not block the request (the oracle tops up)', async () => {
    const chain = await createWagerTestChain();
    const wager = await openOk(chain);
    chain.runner.advanceSlots(2);
    const built = await buildRequest(chain, wager);
    expectOk(await chain.runner.send(chain.admin, [getTransferSolInstruction({ source: chain.admin, destination: built.oracleRequest, amount: rent(chain, 0) })]));
    expectOk(await chain.runner.send(chain.keeper, [built.instruction]));
    expect(readWager(chain, wager)!.status).toBe(WagerStatus.Requested);
  });

  it('anything else at the oracle PDA is oracleRequestInUse: another seed\'s request, another owner, another type', async () => {
    const chain = await createWagerTestChain();
    const wager = await openOk(chain);
    chain.runner.advanceSlots(2);
    const built = await buildRequest(chain, wager);
    const honest = accountData(chain, chain.oracle.networkState); // any oracle-owned account of another type
    const randomnessDisc = [139, 239, 184, 215, 227, 86, 191, 226];
    const otherSeed = new Uint8Array(ORACLE_REQUEST_SIZE);
    otherSeed.set(randomnessDisc, 0);
    otherSeed.fill(7, 41, 73); // a RandomnessV2 of another seed
    const rightSeed = new Uint8Array(ORACLE_REQUEST_SIZE);
    rightSeed.set(randomnessDisc, 0);
    rightSeed.set(built.seed, 41);
    const fulfilledShort = rightSeed.slice(0, 100);
    fulfilledShort[8] = 1;
    const forgeries: { owner: Address; data: Uint8Array }[] = [
      { owner: chain.oracle.programAddress, data: otherSeed },
      { owner: chain.oracle.programAddress, data: honest },
      { owner: SYSTEM_PROGRAM_ADDRESS, data: rightSeed }, // the right bytes, but not the oracle's
      { owner: WAGER_PROGRAM_ADDRESS, data: rightSeed },
      { owner: chain.oracle.programAddress, data: rightSeed.subarray(0, 72) }, // too short to hold the seed
      { owner: chain.oracle.programAddress, data: fulfilledShort }, // fulfilled, but too short for its randomness
    ];
    for (const forged of forgeries) {
      forgeAccount(chain, { ...forged, address: built.oracleRequest });
      const before = snapshot(chain, [wager, readWager(chain, wager)!.feeAccount, chain.keeper.address]);
      const feePayer = await fundedSigner(chain);
      const again = await buildRequest(chain, wager);
      expectRefusedByWager(await chain.runner.send(feePayer, [again.instruction]), 'oracleRequestInUse');
      expect(snapshot(chain, [wager, readWager(chain, wager)!.feeAccount, chain.keeper.address])).toEqual(before);
    }
    // The right seed's RandomnessV2 owned by the oracle is accepted.
    forgeAccount(chain, { owner: chain.oracle.programAddress, data: rightSeed, address: built.oracleRequest });
    expectOk(await chain.runner.send(chain.keeper, [(await buildRequest(chain, wager)).instruction]));
  });
});

// ORAO mainnet still serves its deprecated v1 `request`, which creates a legacy `Randomness` account at the
// very PDA request_v2 uses, ["orao-vrf-randomness-request", seed]. The local oracle has no v1 instruction,
// so these tests write that account with LiteSVM's setAccount, as a faithful fake of that boundary: ORAO's
// layout (Anchor discriminator sha256("account:Randomness")[..8], seed at 8..40, randomness at 40..104,
// all zero while pending, then the responses vector: u32 count, then (pubkey, 64 bytes) each), owned by
// the configured oracle program, at the real PDA of the wager's seed. What a squatter creates there is
// exactly what the wager program then reads; nothing else about ORAO v1 is faked.
const LEGACY_RANDOMNESS_DISCRIMINATOR = Uint8Array.from(anchorDiscriminator('account', 'Randomness'));
const LEGACY_RANDOMNESS_SIZE = 8 + 32 + 64 + 4 + 96; // room for one response

/** A legacy Randomness for `seed`: pending, or fulfilled with one authority's response as its randomness. */
function legacyRandomness(seed: Uint8Array, response?: { authority: Address; randomness: Uint8Array }): Uint8Array {
  const data = new Uint8Array(LEGACY_RANDOMNESS_SIZE);
  data.set(LEGACY_RANDOMNESS_DISCRIMINATOR, 0);
  data.set(seed, 8);
  if (response) {
    data.set(response.randomness, 40);
    new DataView(data.buffer).setUint32(104, 1, true);
    data.set(getAddressEncoder().encode(response.authority), 108);
    data.set(response.randomness, 140);
  }
  return data;
}

/** Requests `wager` with a squatter's legacy account (pending) already at its oracle PDA. */
async function requestOverLegacySquat(chain: WagerTestChain, wager: Address) {
  const built = await buildRequest(chain, wager);
  forgeAccount(chain, { owner: chain.oracle.programAddress, address: built.oracleRequest, data: legacyRandomness(built.seed) });
  const treasuryBefore = lamportsOf(chain, chain.oracle.treasury);
  expectOk(await chain.runner.send(chain.keeper, [built.instruction]));
  expect(lamportsOf(chain, chain.oracle.treasury)).toBe(treasuryBefore); // no CPI: the oracle was not asked again
  expect(accountData(chain, built.oracleRequest)).toEqual(legacyRandomness(built.seed)); // nor its account touched
  return built;
}

/** ORAO fulfils the legacy request: the randomness is its authority's ed25519 signature over the seed. */
async function fulfilLegacy(chain: WagerTestChain, request: Address, seed: Uint8Array): Promise<Uint8Array> {
  const randomness = new Uint8Array(await signBytes(chain.oracle.fulfiller.keyPair.privateKey, seed));
  forgeAccount(chain, { owner: chain.oracle.programAddress, address: request, data: legacyRandomness(seed, { authority: chain.oracle.fulfiller.address, randomness }) });
  return randomness;
}

describe('seed squatting through ORAO\'s deprecated v1 `request` (a legacy Randomness account at the same PDA)', () => {
  it('wager.h names the legacy discriminator sha256("account:Randomness")[..8]', async () => {
    const header = await readFile(new URL('../wager.h', import.meta.url), 'utf8');
    expect(cBytes(cDefines(header).get('ORACLE_LEGACY_RANDOMNESS_DISCRIMINATOR'))).toEqual(Array.from(LEGACY_RANDOMNESS_DISCRIMINATOR));
    expect(Array.from(LEGACY_RANDOMNESS_DISCRIMINATOR.subarray(0, 4))).toEqual([188, 96, 216, 248]);
  });

  it('a pending legacy squat is taken as the wager\'s request without the CPI; once fulfilled, settle pays exactly what its randomness draws', async () => {
    const chain = await createWagerTestChain();
    const wager = await openOk(chain);
    const feeAccount = readWager(chain, wager)!.feeAccount;
    chain.runner.advanceSlots(2);
    const keeperBefore = lamportsOf(chain, chain.keeper.address);
    const built = await requestOverLegacySquat(chain, wager);
    expect(lamportsOf(chain, chain.keeper.address) - keeperBefore).toBe(requestFee - TX_FEE);
    expect(lamportsOf(chain, feeAccount)).toBe(prefundOf(chain) - requestFee); // the oracle fee and rent stay
    const record = readWager(chain, wager)!;
    expect(record.status).toBe(WagerStatus.Requested);
    expect(record.oracleRequest).toBe(built.oracleRequest);
    expect(Uint8Array.from(record.seed)).toEqual(built.seed);

    // Pending (randomness all zero): nothing to settle yet.
    const pendingBefore = snapshot(chain, [wager, feeAccount, chain.playerUsdc]);
    expectRefusedByWager(await settle(chain, wager), 'notFulfilled');
    expect(snapshot(chain, [wager, feeAccount, chain.playerUsdc])).toEqual(pendingBefore);

    const randomness = await fulfilLegacy(chain, built.oracleRequest, built.seed);
    const table = getPaytableDecoder().decode(accountData(chain, chain.paytables['coin-flip']!));
    const bucket = drawBucket(table, randomness);
    const payout = payoutFor(STAKE, table.buckets[bucket]!.multiplierBps);
    const playerSol = lamportsOf(chain, chain.player.address);
    const playerUsdc = usdcOf(chain, chain.playerUsdc);
    const keeperSol = lamportsOf(chain, chain.keeper.address);
    const poolBefore = await readPool(chain);
    const outcome = await settle(chain, wager);
    expectOk(outcome);
    expect(usdcOf(chain, chain.playerUsdc) - playerUsdc).toBe(payout);
    expect(lamportsOf(chain, chain.keeper.address) - keeperSol).toBe(settleFee - TX_FEE);
    // Everything the request did not spend (the oracle fee and request rent included) goes back to the payer.
    expect(lamportsOf(chain, chain.player.address) - playerSol).toBe(prefundOf(chain) - requestFee - settleFee + rent(chain, WAGER_SIZE));
    expect(chain.runner.svm.getAccount(wager).exists).toBe(false);
    expect((await readPool(chain)).liquidity).toBe(poolBefore.liquidity + STAKE - payout);
    expect((await readPool(chain)).lockedLiability).toBe(poolBefore.lockedLiability - record.maxPayout);
  });

  it('after the window, expire refuses a fulfilled legacy request (alreadyFulfilled, the wager still settles) and expires a pending one', async () => {
    const chain = await createWagerTestChain();
    const fulfilled = await openOk(chain);
    const pending = await openOk(chain);
    chain.runner.advanceSlots(2);
    const fulfilledRequest = await requestOverLegacySquat(chain, fulfilled);
    await requestOverLegacySquat(chain, pending);
    await fulfilLegacy(chain, fulfilledRequest.oracleRequest, fulfilledRequest.seed);
    const record = readWager(chain, fulfilled)!;
    chain.runner.advanceSlots(Number(record.expirySlot - chain.runner.slot()) + 1);

    const [pool] = await findPoolPda();
    const watched = [fulfilled, record.feeAccount, record.payer, pool];
    const before = snapshot(chain, watched);
    const bystander = await fundedSigner(chain);
    const expireIx = await getExpireForWager({ caller: bystander, wagerAddress: fulfilled, wager: record });
    expectRefusedByWager(await chain.runner.send(bystander, [expireIx]), 'alreadyFulfilled');
    expect(snapshot(chain, watched)).toEqual(before);
    expectOk(await settle(chain, fulfilled));

    // Never fulfilled: expires, and the unspent oracle fee and rent go back to the payer.
    const playerSol = lamportsOf(chain, chain.player.address);
    expectOk(await expire(chain, pending));
    expect(lamportsOf(chain, chain.player.address) - playerSol).toBe(prefundOf(chain) - requestFee - expireFee + rent(chain, WAGER_SIZE));
  });

  it('a legacy account of another seed, not the configured oracle\'s, or too short for its randomness is oracleRequestInUse', async () => {
    const chain = await createWagerTestChain();
    const wager = await openOk(chain);
    chain.runner.advanceSlots(2);
    const built = await buildRequest(chain, wager);
    const rightSeed = legacyRandomness(built.seed);
    const forgeries: { owner: Address; data: Uint8Array }[] = [
      { owner: chain.oracle.programAddress, data: legacyRandomness(new Uint8Array(32).fill(7)) },
      { owner: SYSTEM_PROGRAM_ADDRESS, data: rightSeed },
      { owner: WAGER_PROGRAM_ADDRESS, data: rightSeed },
      { owner: chain.oracle.programAddress, data: rightSeed.subarray(0, 103) },
    ];
    for (const forged of forgeries) {
      forgeAccount(chain, { ...forged, address: built.oracleRequest });
      const before = snapshot(chain, [wager, readWager(chain, wager)!.feeAccount, chain.keeper.address]);
      const feePayer = await fundedSigner(chain);
      const again = await buildRequest(chain, wager);
      expectRefusedByWager(await chain.runner.send(feePayer, [again.instruction]), 'oracleRequestInUse');
      expect(snapshot(chain, [wager, readWager(chain, wager)!.feeAccount, chain.keeper.address])).toEqual(before);
    }
    expect(readWager(chain, wager)!.status).toBe(WagerStatus.Open);
  });
});

describe('a pending RandomnessV2 squat shorter than the fulfilled layout', () => {
  it('73 bytes (up to the seed) is accepted; settle waits for it and expire treats it as never fulfilled', async () => {
    // ORAO sizes a pending RandomnessV2 for its responses, not for the 64 bytes of randomness: only the
    // seed must be there to accept it; the 137 bytes are required only to read a fulfilled one.
    const chain = await createWagerTestChain();
    const wager = await openOk(chain);
    chain.runner.advanceSlots(2);
    const built = await buildRequest(chain, wager);
    const pendingV2 = new Uint8Array(73);
    pendingV2.set([139, 239, 184, 215, 227, 86, 191, 226], 0);
    pendingV2.set(built.seed, 41);
    forgeAccount(chain, { owner: chain.oracle.programAddress, address: built.oracleRequest, data: pendingV2 });
    const treasuryBefore = lamportsOf(chain, chain.oracle.treasury);
    expectOk(await chain.runner.send(chain.keeper, [built.instruction]));
    expect(lamportsOf(chain, chain.oracle.treasury)).toBe(treasuryBefore);
    const record = readWager(chain, wager)!;
    expect(record.status).toBe(WagerStatus.Requested);
    expect(record.oracleRequest).toBe(built.oracleRequest);

    expectRefusedByWager(await settle(chain, wager), 'notFulfilled');
    expectRefusedByWager(await expire(chain, wager), 'notExpired');
    chain.runner.advanceSlots(Number(record.expirySlot - chain.runner.slot()) + 1);
    const playerSol = lamportsOf(chain, chain.player.address);
    expectOk(await expire(chain, wager));
    expect(lamportsOf(chain, chain.player.address) - playerSol).toBe(prefundOf(chain) - requestFee - expireFee + rent(chain, WAGER_SIZE));
  });
});

// ---- 4. Paytable definitions ----------------------------------------------------------------------

describe('create_paytable refuses every bad definition with invalidPaytableDefinition', () => {
  let chain: WagerTestChain;
  beforeAll(async () => {
    chain = await createWagerTestChain({ liquidity: 0n });
  });
  const { houseEdgeBps, maxMultiplierBps } = DEFAULT_WAGER_CONFIG;
  const cases: [string, { weight: number; multiplierBps: number }[]][] = [
    ['a zero weight', [{ weight: 0, multiplierBps: 19_000 }, { weight: 1, multiplierBps: 0 }]],
    ['an expected return above 1 − house edge (1x always)', [{ weight: 1, multiplierBps: 10_000 }]],
    ['an expected return one bps above 1 − house edge', [{ weight: 1, multiplierBps: 2 * (10_000 - houseEdgeBps) + 1 }, { weight: 1, multiplierBps: 0 }]],
    ['a multiplier above the configured bound', [{ weight: 1, multiplierBps: maxMultiplierBps + 1 }, { weight: 1_000, multiplierBps: 0 }]],
    ['no bucket', []],
    ['33 buckets', Array.from({ length: 33 }, () => ({ weight: 1, multiplierBps: 9_000 }))],
    ['a highest multiplier below 1x', [{ weight: 1, multiplierBps: 9_999 }, { weight: 1, multiplierBps: 5_000 }]],
  ];
  it.each(cases)('%s', async (label, buckets) => {
    const name = encodePaytableName(`bad-${label.length}-${buckets.length}`);
    const [paytable] = await findPaytablePda({ name });
    const ix = await getCreatePaytableInstructionAsync({ admin: chain.admin, name, bucketCount: buckets.length, buckets });
    expectRefusedByWager(await chain.runner.send(chain.admin, [ix]), 'invalidPaytableDefinition');
    expect(chain.runner.svm.getAccount(paytable).exists).toBe(false);
  });
  it('the boundaries themselves are accepted: 1x exactly at the top, return exactly 1 − edge, 32 buckets', async () => {
    const accepted: { weight: number; multiplierBps: number }[][] = [
      [{ weight: 1, multiplierBps: 10_000 }, { weight: 1, multiplierBps: 10_000 - 2 * houseEdgeBps }],
      [{ weight: 1, multiplierBps: 2 * (10_000 - houseEdgeBps) }, { weight: 1, multiplierBps: 0 }],
      Array.from({ length: 32 }, (_, i) => ({ weight: 1, multiplierBps: i === 0 ? 10_000 : 9_000 })),
    ];
    for (const [i, buckets] of accepted.entries()) {
      const name = encodePaytableName(`good-${i}`);
      expectOk(await chain.runner.send(chain.admin, [await getCreatePaytableInstructionAsync({ admin: chain.admin, name, bucketCount: buckets.length, buckets })]));
    }
  });
});

// ---- 5. T_SETTLE bound ------------------------------------------------------------------------------

describe('initialize bounds T_SETTLE to 3..=10 000 slots', () => {
  async function initializeWith(chain: WagerTestChain, tSettleValue: bigint): Promise<Instruction> {
    return getInitializeInstructionAsync({
      admin: chain.admin,
      usdcMint: chain.usdc.address,
      programData: await findProgramDataAddress(WAGER_PROGRAM_ADDRESS),
      guardian: chain.guardian.address,
      oracleProgram: chain.oracle.programAddress,
      ...DEFAULT_WAGER_CONFIG,
      tSettle: tSettleValue,
    });
  }
  it('2, 10 001 and 2^64−1 are invalidConfigValues (checked before anything else); 3 and 10 000 pass the check', async () => {
    const chain = await createWagerTestChain({ liquidity: 0n });
    for (const bad of [2n, 10_001n, (1n << 64n) - 1n])
      expectRefusedByWager(await chain.runner.send(chain.admin, [await initializeWith(chain, bad)]), 'invalidConfigValues');
    // In range, the value check passes and the next refusal is the existing config.
    for (const good of [3n, 10_000n])
      expectRefusedByWager(await chain.runner.send(chain.admin, [await initializeWith(chain, good)]), 'alreadyInitialized');
  });
  it('a program initialized with T_SETTLE = 10 000 opens wagers expiring exactly 10 000 slots later', async () => {
    const chain = await createWagerTestChain({ config: { tSettle: 10_000n } });
    expect((await readConfig(chain)).tSettle).toBe(10_000n);
    const wager = await openOk(chain);
    const record = readWager(chain, wager)!;
    expect(record.expirySlot - record.openSlot).toBe(10_000n);
  });
});

// ---- 6. Closing gives the account back to the System program ----------------------------------------

describe('a closed wager is an empty System account, so it cannot linger as a zombie', () => {
  it('settle then send lamports back in the same transaction: the address is a System account of 0 bytes, and the nonce opens again', async () => {
    const chain = await createWagerTestChain();
    const nonce = 987_654_321n;
    const wager = await openOk(chain, { nonce });
    chain.runner.advanceSlots(2);
    expectOk(await chain.runner.send(chain.keeper, [(await buildRequest(chain, wager)).instruction]));
    await fulfil(chain, wager);
    const settleIx = await getSettleForWager({ caller: chain.keeper, wagerAddress: wager, wager: readWager(chain, wager)! });
    const revive = getTransferSolInstruction({ source: chain.keeper, destination: wager, amount: rent(chain, WAGER_SIZE) });
    expectOk(await chain.runner.send(chain.keeper, [settleIx, revive]));
    const account = chain.runner.svm.getAccount(wager);
    expect(account.exists).toBe(true);
    if (!account.exists) return;
    expect(account.programAddress).toBe(SYSTEM_PROGRAM_ADDRESS);
    expect(account.data.length).toBe(0);
    expect(account.lamports).toBe(rent(chain, WAGER_SIZE));
    // Before the fix it stayed program-owned with 336 zero bytes: WagerExists for ever. Now it opens again.
    const reopened = await openWager(chain, { stake: STAKE, nonce });
    expectOk(reopened.outcome);
    expect(reopened.wager).toBe(wager);
    expect(readWager(chain, wager)).toMatchObject({ status: WagerStatus.Open, nonce });
  });

  it('a claimed liquidity request is closed the same way (System-owned, 0 bytes) when revived in the claim\'s transaction', async () => {
    const chain = await createWagerTestChain();
    const lpUsdc = await ensureTokenAccount(chain.runner, chain.admin, chain.usdc.address, chain.lp.address);
    await mintTokens(chain.runner, chain.admin, chain.usdc, chain.lp.address, 1_000_000n);
    const { epoch } = await readPool(chain);
    const [request] = await findDepositRequestPda({ owner: chain.lp.address, epoch });
    const [epochRecord] = await findEpochRecordPda({ epoch });
    expectOk(await chain.runner.send(chain.lp, [await getRequestDepositInstructionAsync({ owner: chain.lp, request, epochRecord, source: lpUsdc, amount: 1_000_000n })]));
    chain.runner.advanceSlots(Number((await readPool(chain)).epochCloseSlot - chain.runner.slot()) + 1);
    expectOk(await chain.runner.send(chain.keeper, [await getStrikeEpochInstructionAsync({ caller: chain.keeper, epochRecord })]));
    const claim = await getClaimDepositInstructionAsync({ caller: chain.keeper, epochRecord, request, owner: chain.lp.address, ownerShares: chain.lpShares });
    const revive = getTransferSolInstruction({ source: chain.keeper, destination: request, amount: rent(chain, 64) });
    expectOk(await chain.runner.send(chain.keeper, [claim, revive]));
    const account = chain.runner.svm.getAccount(request);
    expect(account.exists && account.programAddress).toBe(SYSTEM_PROGRAM_ADDRESS);
    expect(account.exists && account.data.length).toBe(0);
  });
});

// ---- 8. Guardian handover and missing signatures ------------------------------------------------------

describe('set_guardian', () => {
  it('only the admin names the guardian; then the new guardian can pause and the old one cannot', async () => {
    const chain = await createWagerTestChain({ liquidity: 0n });
    const newGuardian = await fundedSigner(chain);
    const bystander = await fundedSigner(chain);
    const [config] = await findConfigPda();
    const before = snapshot(chain, [config]);
    const byKeeper = await getSetGuardianInstructionAsync({ admin: chain.keeper, guardian: chain.keeper.address });
    expectRefusedByWager(await chain.runner.send(chain.keeper, [byKeeper]), 'unauthorized');
    const byGuardian = await getSetGuardianInstructionAsync({ admin: chain.guardian, guardian: chain.guardian.address });
    expectRefusedByWager(await chain.runner.send(chain.guardian, [byGuardian]), 'unauthorized');
    const unsigned = withoutSignature(await getSetGuardianInstructionAsync({ admin: chain.admin, guardian: newGuardian.address }), 0);
    expectRefusedByWager(await chain.runner.send(bystander, [unsigned]), 'missingSignature');
    expect(snapshot(chain, [config])).toEqual(before);

    expectOk(await chain.runner.send(chain.admin, [await getSetGuardianInstructionAsync({ admin: chain.admin, guardian: newGuardian.address })]));
    expect((await readConfig(chain)).guardian).toBe(newGuardian.address);
    const byOld = await getSetPausedInstructionAsync({ guardian: chain.guardian, paused: 1 });
    expectRefusedByWager(await chain.runner.send(chain.guardian, [byOld]), 'unauthorized');
    expect((await readConfig(chain)).paused).toBe(0);
    expectOk(await chain.runner.send(newGuardian, [await getSetPausedInstructionAsync({ guardian: newGuardian, paused: 1 })]));
    expect((await readConfig(chain)).paused).toBe(1);
  });
});

describe('missing signatures on the cranks and liquidity steps', () => {
  let chain: WagerTestChain;
  let bystander: KeyPairSigner;
  beforeAll(async () => {
    chain = await createWagerTestChain();
    bystander = await fundedSigner(chain);
  });

  /** Sends `ix` with its signer at `index` stripped (a bystander pays the fee): missingSignature, nothing moves. */
  async function expectUnsignedRefused(ix: Instruction, index: number, watched: readonly Address[]) {
    const before = snapshot(chain, watched);
    expectRefusedByWager(await chain.runner.send(bystander, [withoutSignature(ix, index)]), 'missingSignature');
    expect(snapshot(chain, watched)).toEqual(before);
  }

  it('request_randomness, settle_wager and expire_wager need their caller\'s signature', async () => {
    const wager = await openOk(chain);
    const feeAccount = readWager(chain, wager)!.feeAccount;
    chain.runner.advanceSlots(2);
    await expectUnsignedRefused((await buildRequest(chain, wager)).instruction, 0, [wager, feeAccount, chain.keeper.address]);
    expectOk(await chain.runner.send(chain.keeper, [(await buildRequest(chain, wager)).instruction]));
    const expireIx = await getExpireForWager({ caller: chain.keeper, wagerAddress: wager, wager: readWager(chain, wager)! });
    chain.runner.advanceSlots(Number(tSettle));
    await expectUnsignedRefused(expireIx, 0, [wager, feeAccount, chain.keeper.address]);
    await fulfil(chain, wager); // late: expiry is now refused, settlement allowed
    const settleIx = await getSettleForWager({ caller: chain.keeper, wagerAddress: wager, wager: readWager(chain, wager)! });
    await expectUnsignedRefused(settleIx, 0, [wager, feeAccount, chain.keeper.address, chain.playerUsdc]);
    expectOk(await chain.runner.send(chain.keeper, [settleIx]));
  });

  it('request_deposit and request_withdraw need the owner\'s, strike_epoch and the claims their caller\'s', async () => {
    const lpUsdc = await ensureTokenAccount(chain.runner, chain.admin, chain.usdc.address, chain.lp.address);
    await mintTokens(chain.runner, chain.admin, chain.usdc, chain.lp.address, 5_000_000n);
    const { epoch } = await readPool(chain);
    const [deposit] = await findDepositRequestPda({ owner: chain.lp.address, epoch });
    const [withdraw] = await findWithdrawRequestPda({ owner: chain.lp.address, epoch });
    const [epochRecord] = await findEpochRecordPda({ epoch });
    const depositIx = await getRequestDepositInstructionAsync({ owner: chain.lp, request: deposit, epochRecord, source: lpUsdc, amount: 5_000_000n });
    const withdrawIx = await getRequestWithdrawInstructionAsync({ owner: chain.lp, request: withdraw, epochRecord, source: chain.lpShares, shares: 1_000_000n });
    await expectUnsignedRefused(depositIx, 0, [lpUsdc, deposit, epochRecord, chain.lp.address]);
    await expectUnsignedRefused(withdrawIx, 0, [chain.lpShares, withdraw, epochRecord, chain.lp.address]);
    expectOk(await chain.runner.send(chain.lp, [depositIx, withdrawIx]));

    chain.runner.advanceSlots(Number((await readPool(chain)).epochCloseSlot - chain.runner.slot()) + 1);
    const strikeIx = await getStrikeEpochInstructionAsync({ caller: chain.keeper, epochRecord });
    await expectUnsignedRefused(strikeIx, 0, [epochRecord, chain.keeper.address]);
    expectOk(await chain.runner.send(chain.keeper, [strikeIx]));

    const [shareMint] = await findShareMintPda();
    const claimDeposit = await getClaimDepositInstructionAsync({ caller: chain.keeper, epochRecord, request: deposit, owner: chain.lp.address, ownerShares: chain.lpShares });
    const claimWithdraw = await getClaimWithdrawInstructionAsync({ caller: chain.keeper, epochRecord, request: withdraw, owner: chain.lp.address, ownerUsdc: lpUsdc });
    await expectUnsignedRefused(claimDeposit, 0, [deposit, chain.lpShares, shareMint, chain.keeper.address]);
    await expectUnsignedRefused(claimWithdraw, 0, [withdraw, lpUsdc, chain.keeper.address]);
    expectOk(await chain.runner.send(chain.keeper, [claimDeposit, claimWithdraw]));
  });
});
