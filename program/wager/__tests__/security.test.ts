/**
 * The wager program against the classic attacks on Solana programs: every tampered instruction must be
 * refused by the wager program itself, with the specific error, and leave every account concerned
 * exactly as it was (lamports, owner, data). Each group ends, where it matters, with the honest
 * instruction going through, so a refusal cannot come from a broken fixture.
 */
import { generateKeyPairSigner, lamports, type Address, type Instruction, type KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { findProgramDataAddress } from '../../../src-main/chain/upgradeable-loader';
import { createUsdcMint, ensureTokenAccount, mintTokens } from '../../../src-main/localnet/bootstrap-wager';
import {
  WAGER_PROGRAM_ADDRESS,
  drawBucket,
  encodePaytableName,
  findConfigPda,
  findDepositRequestPda,
  findEpochRecordPda,
  findEscrowPda,
  findPaytablePda,
  findPoolPda,
  findVaultPda,
  findWagerFeesPda,
  findWagerPda,
  findWithdrawRequestPda,
  getClaimDepositInstructionAsync,
  getClaimWithdrawInstructionAsync,
  getCreatePaytableInstructionAsync,
  getInitializeInstructionAsync,
  getPaytableDecoder,
  getRequestDepositInstructionAsync,
  getRequestWithdrawInstructionAsync,
  getSetPausedInstructionAsync,
  getStrikeEpochInstructionAsync,
  type Pool,
} from '../../../src-main/protocol/wager';
import { getClaimPayoutForWager, getExpireForWager, getRequestRandomnessForWager, getSettleForWager } from '../../../src-main/protocol/wager';
import {
  accountData,
  expectOk,
  expectRefusedByWager,
  forgeAccount,
  randomAddress,
  snapshot,
  u64le,
  withAccount,
  withData,
  withSigner,
  withoutSignature,
} from './helpers/tamper';
import {
  DEFAULT_WAGER_CONFIG,
  SOL,
  createWagerTestChain,
  fulfil,
  lamportsOf,
  openWagerInstruction,
  readConfig,
  readPool,
  readWager,
  requestRandomness,
  usdcOf,
  type OpenOptions,
  type WagerTestChain,
} from './wager-test-chain';

// ---- Account positions (the `// Accounts:` lists of the .c files) ----------------------------------
const OPEN = { payer: 0, stakeOwner: 1, integrator: 2, config: 3, pool: 4, paytable: 5, wager: 6, wagerFees: 7, stakeSource: 8, vault: 9, beneficiary: 10, network: 11, tokenProgram: 12, systemProgram: 13 } as const;
const REQUEST = { caller: 0, config: 1, wager: 2, wagerFees: 3, oracleProgram: 4, network: 5, treasury: 6, oracleRequest: 7, systemProgram: 8 } as const;
const SETTLE = { caller: 0, config: 1, pool: 2, wager: 3, wagerFees: 4, payer: 5, paytable: 6, oracleRequest: 7, vault: 8, escrow: 9, beneficiary: 10, tokenProgram: 11, systemProgram: 12 } as const;
const EXPIRE = { oracleRequest: 6 } as const;
const CLAIM_DEPOSIT = { request: 4 } as const;
const CLAIM_WITHDRAW = { request: 4 } as const;

// ---- Byte layouts (wager.h, docs/oracle.md) ---------------------------------------------------------
const CONFIG_PER_WAGER_CAP_OFFSET = 192;
const POOL_LIQUIDITY_OFFSET = 136;
const PAYTABLE_BUCKETS_OFFSET = 56;
const WAGER_STAKE_OFFSET = 40;
const WAGER_SIZE = 336;
const PAYTABLE_SIZE = 312;
const RANDOMNESS_VARIANT_OFFSET = 8;
const RANDOMNESS_VALUE_OFFSET = 73;
const ORACLE_NETWORK_FEE_OFFSET = 72;
const COIN_FLIP_MAX_MULTIPLIER_BPS = 19_600n;
const U64_MAX = (1n << 64n) - 1n;

const accountDiscriminator = (name: string): Uint8Array =>
  Uint8Array.from(createHash('sha256').update(`account:${name}`).digest().subarray(0, 8));

/** A funded signer that pays transaction fees and is nothing else, so no other balance moves by fees. */
async function fundedSigner(chain: WagerTestChain, sol = 10n): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  chain.runner.svm.airdrop(signer.address, lamports(sol * SOL));
  return signer;
}

/** What an open must leave alone when refused. */
async function openState(chain: WagerTestChain, built: { wager: Address; wagerFees: Address }, extra: readonly Address[] = []) {
  const [config] = await findConfigPda();
  const [pool] = await findPoolPda();
  const [vault] = await findVaultPda();
  return snapshot(chain, [chain.player.address, chain.playerUsdc, config, pool, vault, built.wager, built.wagerFees, ...extra]);
}

/** Builds an open (optionally tampered), sends it with a bystander paying the fee, and checks the refusal. */
async function expectOpenRefused(
  chain: WagerTestChain,
  error: string,
  options: OpenOptions & { feePayer: KeyPairSigner; extra?: readonly Address[] },
): Promise<void> {
  const built = await openWagerInstruction(chain, options);
  const before = await openState(chain, built, options.extra);
  expectRefusedByWager(await chain.runner.send(options.feePayer, [built.instruction]), error);
  expect(await openState(chain, built, options.extra)).toEqual(before);
}

async function openOk(chain: WagerTestChain, options: OpenOptions = {}) {
  const built = await openWagerInstruction(chain, options);
  expectOk(await chain.runner.send(options.payer ?? chain.player, [built.instruction]));
  return built.wager;
}

/** An open wager whose randomness was requested (not fulfilled). */
async function requestedWager(chain: WagerTestChain, options: OpenOptions = {}): Promise<Address> {
  const wager = await openOk(chain, options);
  chain.runner.advanceSlots(2);
  expectOk((await requestRandomness(chain, wager)).outcome);
  return wager;
}

async function fulfilledWager(chain: WagerTestChain, options: OpenOptions = {}): Promise<Address> {
  const wager = await requestedWager(chain, options);
  await fulfil(chain, wager);
  return wager;
}

function mustReadWager(chain: WagerTestChain, wager: Address) {
  const record = readWager(chain, wager);
  if (!record) throw new Error(`no wager at ${wager}`);
  return record;
}

async function settleInstruction(chain: WagerTestChain, wager: Address, caller: KeyPairSigner = chain.keeper): Promise<Instruction> {
  return getSettleForWager({ caller, wagerAddress: wager, wager: mustReadWager(chain, wager) });
}

/** What a settlement moves: the wager, its fee account, payer, beneficiary, pool, vault, escrow, caller. */
async function settleState(chain: WagerTestChain, wager: Address, extra: readonly Address[] = []) {
  const record = mustReadWager(chain, wager);
  const [pool] = await findPoolPda();
  const [vault] = await findVaultPda();
  const [escrow] = await findEscrowPda();
  return snapshot(chain, [wager, record.feeAccount, record.payer, record.beneficiary, record.oracleRequest, pool, vault, escrow, chain.keeper.address, ...extra]);
}

async function expectSettleRefused(chain: WagerTestChain, wager: Address, error: string, tamper: (ix: Instruction) => Instruction, extra: readonly Address[] = []) {
  const feePayer = await fundedSigner(chain);
  const before = await settleState(chain, wager, extra);
  const ix = tamper(await settleInstruction(chain, wager));
  expectRefusedByWager(await chain.runner.send(feePayer, [ix]), error);
  expect(await settleState(chain, wager, extra)).toEqual(before);
}

// ---- Missing signatures and wrong authorities --------------------------------------------------------

describe('signatures and authorities', () => {
  let chain: WagerTestChain;
  let bystander: KeyPairSigner;
  beforeAll(async () => {
    chain = await createWagerTestChain();
    bystander = await fundedSigner(chain);
  });

  it.each([
    ['the payer', OPEN.payer],
    ['the stake owner', OPEN.stakeOwner],
    ['the app (integrator authority)', OPEN.integrator],
  ])('a wager cannot be opened without the signature of %s, and no USDC or SOL moves', async (_who, index) => {
    // The keeper pays, so payer, stake owner and app are three different keys.
    await expectOpenRefused(chain, 'missingSignature', {
      payer: chain.keeper,
      feePayer: bystander,
      extra: [chain.keeper.address],
      override: (ix) => withoutSignature(ix, index),
    });
  });

  it('another app signing in place of the integrator cannot open a wager at the app\'s address', async () => {
    // The wager address names the app: signed by someone else, the PDA no longer matches.
    await expectOpenRefused(chain, 'invalidWagerAddress', {
      feePayer: bystander,
      override: (ix) => withSigner(ix, OPEN.integrator, chain.keeper),
    });
  });

  it('only the guardian pauses: another signer is unauthorized, the guardian unsigned is missingSignature', async () => {
    const [config] = await findConfigPda();
    const before = snapshot(chain, [config]);
    const byKeeper = await getSetPausedInstructionAsync({ guardian: chain.keeper, paused: 1 });
    expectRefusedByWager(await chain.runner.send(chain.keeper, [byKeeper]), 'unauthorized');
    const byAdmin = await getSetPausedInstructionAsync({ guardian: chain.admin, paused: 1 });
    expectRefusedByWager(await chain.runner.send(chain.admin, [byAdmin]), 'unauthorized');
    const unsigned = withoutSignature(await getSetPausedInstructionAsync({ guardian: chain.guardian, paused: 1 }), 0);
    expectRefusedByWager(await chain.runner.send(bystander, [unsigned]), 'missingSignature');
    expect(snapshot(chain, [config])).toEqual(before);
    expect((await readConfig(chain)).paused).toBe(0);
  });

  it('only the admin creates paytables: another signer is unauthorized, the admin unsigned is missingSignature', async () => {
    const name = encodePaytableName('attacker-table');
    const [paytable] = await findPaytablePda({ name });
    const buckets = [{ weight: 1, multiplierBps: 0 }, { weight: 1, multiplierBps: 19_000 }];
    const byKeeper = await getCreatePaytableInstructionAsync({ admin: chain.keeper, name, bucketCount: 2, buckets });
    expectRefusedByWager(await chain.runner.send(chain.keeper, [byKeeper]), 'unauthorized');
    const unsigned = withoutSignature(await getCreatePaytableInstructionAsync({ admin: chain.admin, name, bucketCount: 2, buckets }), 0);
    expectRefusedByWager(await chain.runner.send(bystander, [unsigned]), 'missingSignature');
    expect(chain.runner.svm.getAccount(paytable).exists).toBe(false);
  });
});

// ---- Re-initialisation ------------------------------------------------------------------------------

describe('re-initialisation', () => {
  let chain: WagerTestChain;
  beforeAll(async () => {
    chain = await createWagerTestChain();
  });

  async function initializeBy(admin: KeyPairSigner) {
    return getInitializeInstructionAsync({
      admin,
      usdcMint: chain.usdc.address,
      programData: await findProgramDataAddress(WAGER_PROGRAM_ADDRESS),
      guardian: chain.keeper.address,
      oracleProgram: chain.keeper.address,
      ...DEFAULT_WAGER_CONFIG,
      perWagerCapBps: 10_000,
    });
  }

  it('initialize a second time: the admin gets alreadyInitialized, anyone else unauthorized, and config and pool stay', async () => {
    const [config] = await findConfigPda();
    const [pool] = await findPoolPda();
    const before = snapshot(chain, [config, pool]);
    expectRefusedByWager(await chain.runner.send(chain.admin, [await initializeBy(chain.admin)]), 'alreadyInitialized');
    expectRefusedByWager(await chain.runner.send(chain.keeper, [await initializeBy(chain.keeper)]), 'unauthorized');
    expect(snapshot(chain, [config, pool])).toEqual(before);
  });

  it('a paytable name that exists cannot be created again with other buckets', async () => {
    const name = encodePaytableName('coin-flip');
    const [paytable] = await findPaytablePda({ name });
    expect(paytable).toBe(chain.paytables['coin-flip']);
    const before = snapshot(chain, [paytable]);
    const ix = await getCreatePaytableInstructionAsync({
      admin: chain.admin,
      name,
      bucketCount: 2,
      buckets: [{ weight: 1, multiplierBps: 19_000 }, { weight: 1, multiplierBps: 0 }],
    });
    expectRefusedByWager(await chain.runner.send(chain.admin, [ix]), 'alreadyInitialized');
    expect(snapshot(chain, [paytable])).toEqual(before);
  });

  it('a wager with the same app and nonce cannot be opened while the first is open', async () => {
    const bystander = await fundedSigner(chain);
    const first = await openWagerInstruction(chain);
    expectOk(await chain.runner.send(chain.player, [first.instruction]));
    const record = readWager(chain, first.wager);
    await expectOpenRefused(chain, 'wagerExists', { nonce: first.nonce, stake: 2_000_000n, feePayer: bystander });
    expect(readWager(chain, first.wager)).toEqual(record);
  });

  it('lamports sent ahead to a wager\'s address and fee account do not block its opening', async () => {
    // Wager addresses are predictable (app, nonce): a squatter funding them must not make the open fail.
    const squatter = await fundedSigner(chain);
    const built = await openWagerInstruction(chain);
    await chain.runner.sendOrThrow(squatter, [
      getTransferSolInstruction({ source: squatter, destination: built.wager, amount: lamports(1_000_000n) }),
      getTransferSolInstruction({ source: squatter, destination: built.wagerFees, amount: lamports(1_000_000n) }),
    ]);
    expectOk(await chain.runner.send(chain.player, [built.instruction]));
    expect(mustReadWager(chain, built.wager).status).toBe(1);
    const account = chain.runner.svm.getAccount(built.wager);
    expect(account.exists && account.programAddress).toBe(WAGER_PROGRAM_ADDRESS);
  });
});

// ---- Accounts owned by another program --------------------------------------------------------------

describe('accounts owned by another program', () => {
  let chain: WagerTestChain;
  let bystander: KeyPairSigner;
  let config: Address;
  let pool: Address;
  beforeAll(async () => {
    chain = await createWagerTestChain();
    bystander = await fundedSigner(chain);
    [config] = await findConfigPda();
    [pool] = await findPoolPda();
  });

  it('a copy of the config (cap raised to 100%) owned by the System program is not the config', async () => {
    const data = accountData(chain, config);
    new DataView(data.buffer).setUint16(CONFIG_PER_WAGER_CAP_OFFSET, 10_000, true);
    const fake = forgeAccount(chain, { owner: SYSTEM_PROGRAM_ADDRESS, data });
    await expectOpenRefused(chain, 'invalidConfig', { feePayer: bystander, override: (ix) => withAccount(ix, OPEN.config, fake) });
  });

  it('a copy of the pool (liquidity inflated) owned by the Token program is not the pool', async () => {
    const data = accountData(chain, pool);
    data.set(u64le(1n << 62n), POOL_LIQUIDITY_OFFSET);
    const fake = forgeAccount(chain, { owner: TOKEN_PROGRAM_ADDRESS, data });
    await expectOpenRefused(chain, 'invalidPool', { feePayer: bystander, override: (ix) => withAccount(ix, OPEN.pool, fake) });
  });

  it('a copy of coin-flip that always pays 1.96x, owned by the oracle program, is not a paytable', async () => {
    const data = accountData(chain, chain.paytables['coin-flip']!);
    new DataView(data.buffer).setUint32(PAYTABLE_BUCKETS_OFFSET + 4, 19_600, true); // bucket 0 multiplier
    const fake = forgeAccount(chain, { owner: chain.oracle.programAddress, data });
    await expectOpenRefused(chain, 'invalidPaytable', { feePayer: bystander, override: (ix) => withAccount(ix, OPEN.paytable, fake) });
  });

  it('a copy of an open wager (stake raised) owned by the System program cannot be requested', async () => {
    const wager = await openOk(chain);
    chain.runner.advanceSlots(2);
    const data = accountData(chain, wager);
    data.set(u64le(1_000_000_000n), WAGER_STAKE_OFFSET);
    const fake = forgeAccount(chain, { owner: SYSTEM_PROGRAM_ADDRESS, data });
    const { instruction } = await getRequestRandomnessForWager({
      caller: chain.keeper,
      wagerAddress: wager,
      wager: mustReadWager(chain, wager),
      oracle: chain.oracle,
      slotHashes: chain.runner.svm.getSlotHashes(),
    });
    const before = snapshot(chain, [wager, fake, mustReadWager(chain, wager).feeAccount]);
    expectRefusedByWager(await chain.runner.send(bystander, [withAccount(instruction, REQUEST.wager, fake)]), 'invalidWager');
    expect(snapshot(chain, [wager, fake, mustReadWager(chain, wager).feeAccount])).toEqual(before);
  });

  it('a copy of a fulfilled wager owned by the System program cannot be settled', async () => {
    const wager = await fulfilledWager(chain);
    const fake = forgeAccount(chain, { owner: SYSTEM_PROGRAM_ADDRESS, data: accountData(chain, wager) });
    await expectSettleRefused(chain, wager, 'invalidWager', (ix) => withAccount(ix, SETTLE.wager, fake), [fake]);
    expectOk(await chain.runner.send(chain.keeper, [await settleInstruction(chain, wager)]));
  });
});

// ---- Type confusion ---------------------------------------------------------------------------------

describe('an account of one kind passed as another', () => {
  let chain: WagerTestChain;
  let bystander: KeyPairSigner;
  let config: Address;
  let pool: Address;
  beforeAll(async () => {
    chain = await createWagerTestChain();
    bystander = await fundedSigner(chain);
    [config] = await findConfigPda();
    [pool] = await findPoolPda();
  });

  it('at open: the paytable as config, the config as pool, a wager as paytable are each refused', async () => {
    const wager = await openOk(chain);
    await expectOpenRefused(chain, 'invalidConfig', { feePayer: bystander, override: (ix) => withAccount(ix, OPEN.config, chain.paytables['coin-flip']!) });
    await expectOpenRefused(chain, 'invalidPool', { feePayer: bystander, override: (ix) => withAccount(ix, OPEN.pool, config) });
    await expectOpenRefused(chain, 'invalidPaytable', { feePayer: bystander, override: (ix) => withAccount(ix, OPEN.paytable, wager) });
  });

  it('the pool where a wager is expected is refused at settle', async () => {
    const wager = await fulfilledWager(chain);
    await expectSettleRefused(chain, wager, 'invalidWager', (ix) => withAccount(ix, SETTLE.wager, pool));
  });

  it('a program-owned account of a wager\'s exact size with another discriminator is not a wager', async () => {
    const wager = await fulfilledWager(chain);
    // The wager's own bytes, with the Pool discriminator: only the type tag differs.
    const data = accountData(chain, wager);
    expect(data.length).toBe(WAGER_SIZE);
    data.set(accountDiscriminator('Pool'), 0);
    const fake = forgeAccount(chain, { owner: WAGER_PROGRAM_ADDRESS, data });
    await expectSettleRefused(chain, wager, 'invalidWager', (ix) => withAccount(ix, SETTLE.wager, fake), [fake]);
  });

  it('a program-owned account of a paytable\'s exact size with the Wager discriminator is not a paytable', async () => {
    const data = accountData(chain, chain.paytables['coin-flip']!);
    expect(data.length).toBe(PAYTABLE_SIZE);
    data.set(accountDiscriminator('Wager'), 0);
    const fake = forgeAccount(chain, { owner: WAGER_PROGRAM_ADDRESS, data });
    await expectOpenRefused(chain, 'invalidPaytable', { feePayer: bystander, override: (ix) => withAccount(ix, OPEN.paytable, fake) });
  });

  it('the discriminators the checks rely on are Anchor\'s account:<Name> hashes', () => {
    // Guards the forgeries above: with the wrong tag bytes they would test nothing.
    const paytable = accountData(chain, chain.paytables['coin-flip']!);
    expect(Buffer.from(paytable.subarray(0, 8))).toEqual(Buffer.from(accountDiscriminator('Paytable')));
    expect(Buffer.from(accountData(chain, pool).subarray(0, 8))).toEqual(Buffer.from(accountDiscriminator('Pool')));
  });
});

describe('liquidity requests: a deposit request is not a withdraw request, nor the reverse', () => {
  it('claims refuse the other kind of request (same size, same owner, same epoch); the right kind then pays', async () => {
    const chain = await createWagerTestChain();
    const { runner, lp } = chain;
    const epoch = (await readPool(chain)).epoch;
    const lpUsdc = await mintTokens(runner, lp, chain.usdc, lp.address, 5_000_000n);
    const [depositRequest] = await findDepositRequestPda({ owner: lp.address, epoch });
    const [withdrawRequest] = await findWithdrawRequestPda({ owner: lp.address, epoch });
    const [epochRecord] = await findEpochRecordPda({ epoch });
    await runner.sendOrThrow(lp, [await getRequestDepositInstructionAsync({ owner: lp, request: depositRequest, epochRecord, source: lpUsdc, amount: 5_000_000n })]);
    await runner.sendOrThrow(lp, [await getRequestWithdrawInstructionAsync({ owner: lp, request: withdrawRequest, epochRecord, source: chain.lpShares, shares: 1_000_000n })]);
    expect(accountData(chain, depositRequest).length).toBe(accountData(chain, withdrawRequest).length);
    const closeSlot = (await readPool(chain)).epochCloseSlot;
    runner.advanceSlots(Number(closeSlot - runner.slot()) + 1);
    await runner.sendOrThrow(chain.keeper, [await getStrikeEpochInstructionAsync({ caller: chain.keeper, epochRecord })]);

    const claimDeposit = await getClaimDepositInstructionAsync({ caller: chain.keeper, epochRecord, request: depositRequest, owner: lp.address, ownerShares: chain.lpShares });
    const claimWithdraw = await getClaimWithdrawInstructionAsync({ caller: chain.keeper, epochRecord, request: withdrawRequest, owner: lp.address, ownerUsdc: lpUsdc });
    const [pool] = await findPoolPda();
    const [vault] = await findVaultPda();
    const watched = [depositRequest, withdrawRequest, lpUsdc, chain.lpShares, pool, vault, lp.address];
    const before = snapshot(chain, watched);
    expectRefusedByWager(await runner.send(chain.keeper, [withAccount(claimDeposit, CLAIM_DEPOSIT.request, withdrawRequest)]), 'invalidLiquidityRequest');
    expectRefusedByWager(await runner.send(chain.keeper, [withAccount(claimWithdraw, CLAIM_WITHDRAW.request, depositRequest)]), 'invalidLiquidityRequest');
    expect(snapshot(chain, watched)).toEqual(before);

    expectOk(await runner.send(chain.keeper, [claimDeposit]));
    expectOk(await runner.send(chain.keeper, [claimWithdraw]));
    expect(usdcOf(chain, lpUsdc)).toBeGreaterThan(0n);
  });
});

// ---- Substituted addresses --------------------------------------------------------------------------

describe('substituted addresses: wager PDA, fee account, vault, escrow, payer, beneficiary, paytable', () => {
  let chain: WagerTestChain;
  let bystander: KeyPairSigner;
  let keeperUsdc: Address;
  let escrow: Address;
  let vault: Address;
  let wagerA: Address;
  let wagerB: Address;
  beforeAll(async () => {
    chain = await createWagerTestChain();
    bystander = await fundedSigner(chain);
    keeperUsdc = await ensureTokenAccount(chain.runner, chain.keeper, chain.usdc.address, chain.keeper.address);
    [escrow] = await findEscrowPda();
    [vault] = await findVaultPda();
    wagerA = await fulfilledWager(chain);
    wagerB = await fulfilledWager(chain);
  });

  it('open refuses a wager address that is not PDA(["wager", app, nonce]) of the nonce in the data', async () => {
    const nonce = 9_000n;
    for (const [integratorAuthority, otherNonce] of [[chain.app.address, nonce + 1n], [chain.keeper.address, nonce]] as const) {
      const [wrongWager] = await findWagerPda({ integratorAuthority, nonce: otherNonce });
      const [wrongFees] = await findWagerFeesPda({ wager: wrongWager });
      await expectOpenRefused(chain, 'invalidWagerAddress', {
        nonce,
        feePayer: bystander,
        extra: [wrongWager, wrongFees],
        override: (ix) => withAccount(withAccount(ix, OPEN.wager, wrongWager), OPEN.wagerFees, wrongFees),
      });
    }
  });

  it('open refuses a fee account that is not PDA(["wager-fees", wager]): another wager\'s, or any address', async () => {
    const feesOfA = mustReadWager(chain, wagerA).feeAccount;
    for (const fees of [feesOfA, randomAddress()]) {
      await expectOpenRefused(chain, 'invalidWagerAddress', { feePayer: bystander, extra: [fees], override: (ix) => withAccount(ix, OPEN.wagerFees, fees) });
    }
  });

  it('open refuses a vault that is not the pool\'s: the escrow, or someone\'s USDC account', async () => {
    for (const notVault of [escrow, keeperUsdc]) {
      await expectOpenRefused(chain, 'invalidVault', { feePayer: bystander, extra: [notVault], override: (ix) => withAccount(ix, OPEN.vault, notVault) });
    }
  });

  it('settle refuses another wager\'s fee account (its prefund stays where it is)', async () => {
    const feesOfB = mustReadWager(chain, wagerB).feeAccount;
    await expectSettleRefused(chain, wagerA, 'invalidWagerAddress', (ix) => withAccount(ix, SETTLE.wagerFees, feesOfB), [feesOfB]);
  });

  it('request_randomness refuses another wager\'s fee account as the one paying the oracle', async () => {
    const wager = await openOk(chain);
    chain.runner.advanceSlots(2);
    const record = mustReadWager(chain, wager);
    const feesOfB = mustReadWager(chain, wagerB).feeAccount;
    const { instruction, oracleRequest } = await getRequestRandomnessForWager({
      caller: chain.keeper, wagerAddress: wager, wager: record, oracle: chain.oracle, slotHashes: chain.runner.svm.getSlotHashes(),
    });
    const watched = [wager, record.feeAccount, feesOfB, oracleRequest];
    const before = snapshot(chain, watched);
    expectRefusedByWager(await chain.runner.send(bystander, [withAccount(instruction, REQUEST.wagerFees, feesOfB)]), 'invalidWagerAddress');
    expect(snapshot(chain, watched)).toEqual(before);
  });

  it('settle refuses a vault or escrow that is not the pool\'s', async () => {
    await expectSettleRefused(chain, wagerA, 'invalidVault', (ix) => withAccount(ix, SETTLE.vault, keeperUsdc), [keeperUsdc]);
    await expectSettleRefused(chain, wagerA, 'invalidVault', (ix) => withAccount(ix, SETTLE.vault, escrow));
    await expectSettleRefused(chain, wagerA, 'invalidVault', (ix) => withAccount(ix, SETTLE.escrow, keeperUsdc), [keeperUsdc]);
    await expectSettleRefused(chain, wagerA, 'invalidVault', (ix) => withAccount(withAccount(ix, SETTLE.vault, escrow), SETTLE.escrow, vault));
  });

  it('the caller of settle cannot take the payer\'s refund (wrongPayer) or the payout (wrongBeneficiary)', async () => {
    await expectSettleRefused(chain, wagerA, 'wrongPayer', (ix) => withAccount(ix, SETTLE.payer, chain.keeper.address));
    await expectSettleRefused(chain, wagerA, 'wrongBeneficiary', (ix) => withAccount(ix, SETTLE.beneficiary, keeperUsdc), [keeperUsdc]);
  });

  it('settle refuses a paytable other than the wager\'s (dice for a coin-flip wager)', async () => {
    await expectSettleRefused(chain, wagerA, 'invalidPaytable', (ix) => withAccount(ix, SETTLE.paytable, chain.paytables.dice!));
  });

  it('after all that, both wagers settle honestly', async () => {
    for (const wager of [wagerA, wagerB]) expectOk(await chain.runner.send(chain.keeper, [await settleInstruction(chain, wager)]));
    expect(readWager(chain, wagerA)).toBeNull();
    expect(readWager(chain, wagerB)).toBeNull();
  });
});

// ---- Fake oracle, fake slot hash --------------------------------------------------------------------

describe('fake oracle accounts and forged slot hashes', () => {
  let chain: WagerTestChain;
  let bystander: KeyPairSigner;
  beforeAll(async () => {
    chain = await createWagerTestChain();
    bystander = await fundedSigner(chain);
  });

  /** 64 bytes of randomness that draw coin-flip's 1.96x bucket. */
  function winningRandomness(): Uint8Array {
    const paytable = getPaytableDecoder().decode(accountData(chain, chain.paytables['coin-flip']!));
    const randomness = new Uint8Array(64).fill(0xff);
    expect(drawBucket(paytable, randomness)).toBe(1);
    return randomness;
  }

  /** The wager's real request account bytes, made to look fulfilled with `randomness`. */
  function fulfilledLookalike(wager: Address, randomness: Uint8Array): Uint8Array {
    const data = accountData(chain, mustReadWager(chain, wager).oracleRequest);
    data[RANDOMNESS_VARIANT_OFFSET] = 1;
    data.set(randomness, RANDOMNESS_VALUE_OFFSET);
    return data;
  }

  it('settle refuses the oracle request of another wager (fulfilled, another seed)', async () => {
    const wager = await fulfilledWager(chain);
    const other = await fulfilledWager(chain);
    const otherRequest = mustReadWager(chain, other).oracleRequest;
    await expectSettleRefused(chain, wager, 'invalidOracleAccount', (ix) => withAccount(ix, SETTLE.oracleRequest, otherRequest), [otherRequest]);
    expectOk(await chain.runner.send(chain.keeper, [await settleInstruction(chain, wager)]));
  });

  it('settle refuses a winning "fulfilled RandomnessV2" forged in an account owned by the System program', async () => {
    const wager = await requestedWager(chain);
    const fake = forgeAccount(chain, { owner: SYSTEM_PROGRAM_ADDRESS, data: fulfilledLookalike(wager, winningRandomness()) });
    await expectSettleRefused(chain, wager, 'invalidOracleAccount', (ix) => withAccount(ix, SETTLE.oracleRequest, fake), [fake]);
  });

  it('settle refuses the forgery even at the request\'s own address, when another program owns it', async () => {
    // Not reachable by transactions (only the oracle can write there): the owner check on its own.
    const wager = await requestedWager(chain);
    const request = mustReadWager(chain, wager).oracleRequest;
    const feePayer = await fundedSigner(chain);
    expectRefusedByWager(await chain.runner.send(feePayer, [await settleInstruction(chain, wager)]), 'notFulfilled');
    forgeAccount(chain, { address: request, owner: TOKEN_PROGRAM_ADDRESS, data: fulfilledLookalike(wager, winningRandomness()) });
    await expectSettleRefused(chain, wager, 'invalidOracleAccount', (ix) => ix);
  });

  it('expire refuses a forged pending request standing in for the fulfilled one (the winner keeps the win)', async () => {
    const wager = await fulfilledWager(chain);
    const record = mustReadWager(chain, wager);
    const pending = accountData(chain, record.oracleRequest);
    pending[RANDOMNESS_VARIANT_OFFSET] = 0;
    pending.fill(0, RANDOMNESS_VALUE_OFFSET);
    const fake = forgeAccount(chain, { owner: SYSTEM_PROGRAM_ADDRESS, data: pending });
    chain.runner.advanceSlots(Number(record.expirySlot - chain.runner.slot()) + 1);
    const ix = await getExpireForWager({ caller: chain.keeper, wagerAddress: wager, wager: record });
    const [pool] = await findPoolPda();
    const watched = [wager, record.feeAccount, record.payer, pool, fake];
    const before = snapshot(chain, watched);
    expectRefusedByWager(await chain.runner.send(bystander, [withAccount(ix, EXPIRE.oracleRequest, fake)]), 'invalidOracleAccount');
    expectRefusedByWager(await chain.runner.send(bystander, [ix]), 'alreadyFulfilled');
    expect(snapshot(chain, watched)).toEqual(before);
    expectOk(await chain.runner.send(chain.keeper, [await settleInstruction(chain, wager)]));
  });

  it('request_randomness refuses the Token program as the oracle program', async () => {
    const wager = await openOk(chain);
    chain.runner.advanceSlots(2);
    const record = mustReadWager(chain, wager);
    const { instruction } = await getRequestRandomnessForWager({
      caller: chain.keeper, wagerAddress: wager, wager: record, oracle: chain.oracle, slotHashes: chain.runner.svm.getSlotHashes(),
    });
    const before = snapshot(chain, [wager, record.feeAccount]);
    expectRefusedByWager(await chain.runner.send(bystander, [withAccount(instruction, REQUEST.oracleProgram, TOKEN_PROGRAM_ADDRESS)]), 'invalidOracleProgram');
    expect(snapshot(chain, [wager, record.feeAccount])).toEqual(before);
  });

  it('a network state copy owned by the System program is refused at open (zero fee) and at request', async () => {
    const data = accountData(chain, chain.oracle.networkState);
    data.set(u64le(0n), ORACLE_NETWORK_FEE_OFFSET);
    const fake = forgeAccount(chain, { owner: SYSTEM_PROGRAM_ADDRESS, data });
    await expectOpenRefused(chain, 'invalidOracleAccount', { feePayer: bystander, override: (ix) => withAccount(ix, OPEN.network, fake) });

    const wager = await openOk(chain);
    chain.runner.advanceSlots(2);
    const record = mustReadWager(chain, wager);
    const { instruction } = await getRequestRandomnessForWager({
      caller: chain.keeper, wagerAddress: wager, wager: record, oracle: chain.oracle, slotHashes: chain.runner.svm.getSlotHashes(),
    });
    const before = snapshot(chain, [wager, record.feeAccount]);
    expectRefusedByWager(await chain.runner.send(bystander, [withAccount(instruction, REQUEST.network, fake)]), 'invalidOracleAccount');
    expect(snapshot(chain, [wager, record.feeAccount])).toEqual(before);
  });

  it('SlotHashes is read through the sysvar syscall, so the only thing to forge is h*: a forged h* is refused', async () => {
    const wager = await openOk(chain);
    chain.runner.advanceSlots(2);
    const record = mustReadWager(chain, wager);
    const { instruction } = await getRequestRandomnessForWager({
      caller: chain.keeper, wagerAddress: wager, wager: record, oracle: chain.oracle, slotHashes: chain.runner.svm.getSlotHashes(),
    });
    // request_randomness takes no SlotHashes account at all: nine accounts, none of them the sysvar.
    expect(instruction.accounts?.map((a) => a.address)).not.toContain('SysvarS1otHashes111111111111111111111111111');
    const forged = withData(instruction, 16, crypto.getRandomValues(new Uint8Array(32)));
    const before = snapshot(chain, [wager, record.feeAccount]);
    expectRefusedByWager(await chain.runner.send(bystander, [forged]), 'invalidSlotHash');
    expect(snapshot(chain, [wager, record.feeAccount])).toEqual(before);
    expectOk(await chain.runner.send(chain.keeper, [instruction]));
  });
});

// ---- Duplicate accounts -----------------------------------------------------------------------------

describe('one account in two roles', () => {
  it('the pool\'s vault or payout escrow as the beneficiary of a wager is refused at open', async () => {
    const chain = await createWagerTestChain();
    const bystander = await fundedSigner(chain);
    const [vault] = await findVaultPda();
    const [escrow] = await findEscrowPda();
    for (const beneficiary of [vault, escrow]) {
      await expectOpenRefused(chain, 'duplicateAccount', { beneficiary, feePayer: bystander, extra: [escrow] });
    }
  });

  it('the payer may settle its own wager (caller = payer is not refused) and gets the fee and the whole refund', async () => {
    const chain = await createWagerTestChain();
    const bystander = await fundedSigner(chain);
    const wager = await fulfilledWager(chain);
    const record = mustReadWager(chain, wager);
    const owed = lamportsOf(chain, record.feeAccount) + lamportsOf(chain, wager);
    const before = lamportsOf(chain, chain.player.address);
    expectOk(await chain.runner.send(bystander, [await settleInstruction(chain, wager, chain.player)]));
    expect(lamportsOf(chain, chain.player.address)).toBe(before + owed);
    expect(lamportsOf(chain, record.feeAccount)).toBe(0n);
    expect(readWager(chain, wager)).toBeNull();
  });
});

// ---- Arithmetic at the edges ------------------------------------------------------------------------

describe('arithmetic at the edges', () => {
  let chain: WagerTestChain;
  let bystander: KeyPairSigner;
  beforeAll(async () => {
    chain = await createWagerTestChain();
    bystander = await fundedSigner(chain);
  });

  it('a stake of 2^64-1 is invalidStake: its max payout (x1.96) does not fit in u64, checked before the cap', async () => {
    await expectOpenRefused(chain, 'invalidStake', { stake: U64_MAX, feePayer: bystander });
    await expectOpenRefused(chain, 'invalidStake', { stake: 0n, feePayer: bystander });
  });

  it('the largest stake whose max payout still fits in u64 is perWagerCap, one more is invalidStake', async () => {
    // floor(stake * 19 600 / 10 000) <= 2^64 - 1  <=>  stake * 19 600 < 2^64 * 10 000
    const largest = ((1n << 64n) * 10_000n - 1n) / COIN_FLIP_MAX_MULTIPLIER_BPS;
    expect((largest * COIN_FLIP_MAX_MULTIPLIER_BPS) / 10_000n).toBeLessThanOrEqual(U64_MAX);
    expect(((largest + 1n) * COIN_FLIP_MAX_MULTIPLIER_BPS) / 10_000n).toBeGreaterThan(U64_MAX);
    await expectOpenRefused(chain, 'perWagerCap', { stake: largest, feePayer: bystander });
    await expectOpenRefused(chain, 'invalidStake', { stake: largest + 1n, feePayer: bystander });
  });

  it('a deposit request that would overflow the pending deposits is refused before any USDC moves', async () => {
    const { runner, lp } = chain;
    const lpUsdc = await mintTokens(runner, lp, chain.usdc, lp.address, 1_000_000n);
    const epoch = (await readPool(chain)).epoch;
    const [request] = await findDepositRequestPda({ owner: lp.address, epoch });
    const [epochRecord] = await findEpochRecordPda({ epoch });
    const deposit = (amount: bigint) => getRequestDepositInstructionAsync({ owner: lp, request, epochRecord, source: lpUsdc, amount });
    expectOk(await runner.send(lp, [await deposit(1_000_000n)]));
    const [pool] = await findPoolPda();
    const [vault] = await findVaultPda();
    const watched = [pool, vault, lpUsdc, request, epochRecord];
    const before = snapshot(chain, watched);
    expectRefusedByWager(await runner.send(lp, [await deposit(U64_MAX)]), 'arithmeticOverflow');
    expectRefusedByWager(await runner.send(lp, [await deposit(U64_MAX - 999_999n)]), 'arithmeticOverflow');
    expect(snapshot(chain, watched)).toEqual(before);
    expect((await readPool(chain)).pendingDeposits).toBe(1_000_000n);
  });

  it('a withdraw request for more shares than exist is refused and no share moves', async () => {
    const { runner, lp } = chain;
    const poolBefore = await readPool(chain);
    const [request] = await findWithdrawRequestPda({ owner: lp.address, epoch: poolBefore.epoch });
    const [epochRecord] = await findEpochRecordPda({ epoch: poolBefore.epoch });
    const withdraw = async (shares: bigint) =>
      getRequestWithdrawInstructionAsync({ owner: lp, request, epochRecord, source: chain.lpShares, shares });
    const [pool] = await findPoolPda();
    const watched = [pool, chain.lpShares, request, epochRecord];
    const before = snapshot(chain, watched);
    for (const shares of [poolBefore.totalShares + 1n, U64_MAX]) {
      expectRefusedByWager(await runner.send(lp, [await withdraw(shares)]), 'insufficientFreeLiquidity');
    }
    expect(snapshot(chain, watched)).toEqual(before);
  });
});

// ---- Closing, then reviving -------------------------------------------------------------------------

describe('a closed wager stays closed', () => {
  let chain: WagerTestChain;
  beforeAll(async () => {
    chain = await createWagerTestChain();
  });

  it('settle, send lamports back to the wager, settle or claim again, all in one transaction: refused, nothing happened', async () => {
    const wager = await fulfilledWager(chain);
    const settle = await settleInstruction(chain, wager);
    const claim = await getClaimPayoutForWager({ caller: chain.keeper, wagerAddress: wager, wager: mustReadWager(chain, wager) });
    const revive = getTransferSolInstruction({ source: chain.keeper, destination: wager, amount: lamports(SOL / 10n) });
    const before = await settleState(chain, wager);
    for (const again of [settle, claim]) {
      expectRefusedByWager(await chain.runner.send(chain.keeper, [settle, revive, again]), 'invalidWager', 2);
      // the whole transaction was rolled back, the first settle included
      const after = await settleState(chain, wager);
      expect(after.filter((a) => a.address !== chain.keeper.address)).toEqual(before.filter((a) => a.address !== chain.keeper.address));
    }
    expect(mustReadWager(chain, wager).status).toBe(2);
  });

  it('a settled wager cannot be settled or claimed again later, even after lamports were sent to its address', async () => {
    const wager = await fulfilledWager(chain);
    const record = mustReadWager(chain, wager);
    const settle = await settleInstruction(chain, wager);
    const claim = await getClaimPayoutForWager({ caller: chain.keeper, wagerAddress: wager, wager: record });
    expectOk(await chain.runner.send(chain.keeper, [settle]));
    expect(readWager(chain, wager)).toBeNull();
    const paid = usdcOf(chain, record.beneficiary);
    const bystander = await fundedSigner(chain);
    expectRefusedByWager(await chain.runner.send(bystander, [settle]), 'invalidWager');
    await chain.runner.sendOrThrow(bystander, [getTransferSolInstruction({ source: bystander, destination: wager, amount: lamports(SOL / 10n) })]);
    expectRefusedByWager(await chain.runner.send(bystander, [settle]), 'invalidWager');
    expectRefusedByWager(await chain.runner.send(bystander, [claim]), 'invalidWager');
    expect(usdcOf(chain, record.beneficiary)).toBe(paid);
  });
});

// ---- Wrong mint, wrong programs ---------------------------------------------------------------------

describe('wrong mint or program', () => {
  let chain: WagerTestChain;
  let bystander: KeyPairSigner;
  let otherMintAccount: Address;
  beforeAll(async () => {
    chain = await createWagerTestChain();
    bystander = await fundedSigner(chain);
    const authority = await fundedSigner(chain, 1n);
    const otherMint = await createUsdcMint(chain.runner, chain.admin, authority.address);
    otherMintAccount = await mintTokens(chain.runner, chain.player, { address: otherMint, authority }, chain.player.address, 50_000_000n);
  });

  it('a stake paid from a token account of another mint is invalidMint', async () => {
    await expectOpenRefused(chain, 'invalidMint', {
      feePayer: bystander,
      extra: [otherMintAccount],
      override: (ix) => withAccount(ix, OPEN.stakeSource, otherMintAccount),
    });
  });

  it('a beneficiary that is not a USDC token account (another mint, a wallet) is invalidBeneficiary', async () => {
    for (const beneficiary of [otherMintAccount, chain.player.address]) {
      await expectOpenRefused(chain, 'invalidBeneficiary', { beneficiary, feePayer: bystander, extra: [otherMintAccount] });
    }
  });

  it('another program in place of the Token program is invalidTokenProgram (at open and at settle)', async () => {
    for (const program of [chain.oracle.programAddress, SYSTEM_PROGRAM_ADDRESS]) {
      await expectOpenRefused(chain, 'invalidTokenProgram', { feePayer: bystander, override: (ix) => withAccount(ix, OPEN.tokenProgram, program) });
    }
    const wager = await fulfilledWager(chain);
    await expectSettleRefused(chain, wager, 'invalidTokenProgram', (ix) => withAccount(ix, SETTLE.tokenProgram, chain.oracle.programAddress));
  });

  it('another program in place of the System program is invalidSystemProgram (at open, request and settle)', async () => {
    await expectOpenRefused(chain, 'invalidSystemProgram', { feePayer: bystander, override: (ix) => withAccount(ix, OPEN.systemProgram, TOKEN_PROGRAM_ADDRESS) });
    const wager = await openOk(chain);
    chain.runner.advanceSlots(2);
    const record = mustReadWager(chain, wager);
    const { instruction } = await getRequestRandomnessForWager({
      caller: chain.keeper, wagerAddress: wager, wager: record, oracle: chain.oracle, slotHashes: chain.runner.svm.getSlotHashes(),
    });
    const before = snapshot(chain, [wager, record.feeAccount]);
    expectRefusedByWager(await chain.runner.send(bystander, [withAccount(instruction, REQUEST.systemProgram, chain.oracle.programAddress)]), 'invalidSystemProgram');
    expect(snapshot(chain, [wager, record.feeAccount])).toEqual(before);
    expectOk(await chain.runner.send(chain.keeper, [instruction]));
    await fulfil(chain, wager);
    await expectSettleRefused(chain, wager, 'invalidSystemProgram', (ix) => withAccount(ix, SETTLE.systemProgram, TOKEN_PROGRAM_ADDRESS));
  });
});

// ---- Pause ------------------------------------------------------------------------------------------

describe('pause', () => {
  it('paused: new wagers are refused, open ones still request and settle; unpaused: wagers open again', async () => {
    const chain = await createWagerTestChain();
    const bystander = await fundedSigner(chain);
    const setPaused = async (paused: number) =>
      chain.runner.sendOrThrow(chain.guardian, [await getSetPausedInstructionAsync({ guardian: chain.guardian, paused })]);
    const before = await openOk(chain);

    await setPaused(1);
    expect((await readConfig(chain)).paused).toBe(1);
    await expectOpenRefused(chain, 'paused', { feePayer: bystander });

    chain.runner.advanceSlots(2);
    expectOk((await requestRandomness(chain, before)).outcome);
    await fulfil(chain, before);
    expectOk(await chain.runner.send(chain.keeper, [await settleInstruction(chain, before)]));
    expect(readWager(chain, before)).toBeNull();

    await setPaused(0);
    const after = await openOk(chain);
    expect(mustReadWager(chain, after).status).toBe(1);
  });
});

// ---- Per-wager cap ----------------------------------------------------------------------------------

/** Liquidity that can back new wagers (open_wager.c): L + open stakes - locked - pending withdrawals' worth. */
function freeLiquidity(pool: Pool): bigint {
  const backing = pool.liquidity + pool.openStakes;
  if (backing <= pool.lockedLiability) return 0n;
  const free = backing - pool.lockedLiability;
  const reserve = (pool.pendingWithdrawShares * (pool.liquidity + 1n)) / (pool.totalShares + 1n);
  return free > reserve ? free - reserve : 0n;
}

/** The largest stake whose max payout (PerWagerCap compares the max payout itself) is at most `allowed`. */
function largestStakeWithin(allowed: bigint, multiplierBps: bigint): bigint {
  const exposure = (stake: bigint) => (stake * multiplierBps) / 10_000n;
  let ok = 1n;
  let tooMuch = 1n << 64n;
  while (tooMuch - ok > 1n) {
    const mid = (ok + tooMuch) / 2n;
    if (exposure(mid) <= allowed) ok = mid;
    else tooMuch = mid;
  }
  return ok;
}

describe('per-wager cap', () => {
  let chain: WagerTestChain;
  let bystander: KeyPairSigner;
  beforeAll(async () => {
    chain = await createWagerTestChain();
    bystander = await fundedSigner(chain);
    await mintTokens(chain.runner, chain.admin, chain.usdc, chain.player.address, 30_000_000_000n);
  });

  async function boundary(paytable: string) {
    const config = await readConfig(chain);
    const pool = await readPool(chain);
    const allowed = (freeLiquidity(pool) * BigInt(config.perWagerCapBps)) / 10_000n;
    const table = getPaytableDecoder().decode(accountData(chain, chain.paytables[paytable]!));
    return { allowed, stake: largestStakeWithin(allowed, BigInt(table.maxMultiplierBps)), multiplier: BigInt(table.maxMultiplierBps) };
  }

  it('on the fresh pool: one unit over the cap is perWagerCap, the largest stake under it opens', async () => {
    const { allowed, stake, multiplier } = await boundary('coin-flip');
    expect(multiplier).toBe(COIN_FLIP_MAX_MULTIPLIER_BPS);
    expect(allowed).toBe((1_000_000_000_000n * 100n) / 10_000n); // 1% of 1M USDC
    expect(stake).toBe(5_102_040_816n); // floor(1.96 * stake) <= 10 000 USDC (the max payout, not payout - stake)
    await expectOpenRefused(chain, 'perWagerCap', { stake: stake + 1n, feePayer: bystander });
    const wager = await openOk(chain, { stake });
    expect(mustReadWager(chain, wager).maxPayout).toBe((stake * multiplier) / 10_000n);
  });

  it('with open wagers and a pending withdrawal, the cap follows the free liquidity exactly', async () => {
    const { runner, lp } = chain;
    const epoch = (await readPool(chain)).epoch;
    const [request] = await findWithdrawRequestPda({ owner: lp.address, epoch });
    const [epochRecord] = await findEpochRecordPda({ epoch });
    expectOk(await runner.send(lp, [await getRequestWithdrawInstructionAsync({ owner: lp, request, epochRecord, source: chain.lpShares, shares: 100_000_000_000n })]));
    const pool = await readPool(chain);
    expect(pool.openStakes).toBeGreaterThan(0n);
    expect(pool.pendingWithdrawShares).toBe(100_000_000_000n);
    const { stake } = await boundary('dice');
    // Without the reserve for the withdrawal (or without the open stakes), the boundary would be elsewhere.
    const withoutReserve = largestStakeWithin(((pool.liquidity + pool.openStakes - pool.lockedLiability) * 100n) / 10_000n, 58_800n);
    expect(withoutReserve).toBeGreaterThan(stake + 1n);
    await expectOpenRefused(chain, 'perWagerCap', { paytable: 'dice', stake: stake + 1n, feePayer: bystander });
    await openOk(chain, { paytable: 'dice', stake });
  });
});
