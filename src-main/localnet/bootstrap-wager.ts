/**
 * Puts the wager program on a LiteSVM chain the way an operator would on a cluster: a USDC mint,
 * the program deployed through the upgradeable loader, `initialize` by the upgrade authority, named
 * paytables, and pool liquidity seeded through the real deposit epoch path.
 */
import {
  generateKeyPairSigner,
  type Address,
  type KeyPairSigner,
  type TransactionSigner,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
} from '@solana-program/token';
import { findProgramDataAddress } from '../chain/upgradeable-loader';
import { readProgramBytes, readProgramKeypair } from '../protocol/program-artifacts';
import {

  findDepositRequestPda,
  findEpochRecordPda,
  findPaytablePda,
  findPoolPda,
  findShareMintPda,
  getClaimDepositInstructionAsync,
  getCreatePaytableInstructionAsync,
  getInitializeInstructionAsync,
  getPoolDecoder,
  getRequestDepositInstructionAsync,
  getStrikeEpochInstructionAsync,
} from '../protocol/generated/wager';
import { encodePaytableName } from '../protocol/wager/paytable-name';
import type { LiteSvmRunner } from './litesvm-runner';

export const USDC_DECIMALS = 6;

/** The spec's fees and window, and bounds that suit a test network. */
export const DEFAULT_WAGER_CONFIG = {
  requestFee: 50_000n,
  settleFee: 200_000n,
  expireFee: 200_000n,
  liquidityFee: 50_000n,
  tSettle: 150n,
  epochLength: 750n,
  oracleRequestSize: 137n,
  perWagerCapBps: 100,
  houseEdgeBps: 200,
  maxMultiplierBps: 1_000_000,
};
export type WagerConfigValues = typeof DEFAULT_WAGER_CONFIG;

export interface PaytableDefinition {
  name: string;
  buckets: { weight: number; multiplierBps: number }[];
}

/** The named paytables a fresh local deployment offers (each within the 2% house edge). */
export const STANDARD_PAYTABLES: PaytableDefinition[] = [
  { name: 'coin-flip', buckets: [{ weight: 1, multiplierBps: 0 }, { weight: 1, multiplierBps: 19_600 }] },
  {
    name: 'dice',
    buckets: [...Array.from({ length: 5 }, () => ({ weight: 1, multiplierBps: 0 })), { weight: 1, multiplierBps: 58_800 }],
  },
  {
    name: 'wheel',
    buckets: [
      { weight: 54, multiplierBps: 0 },
      { weight: 25, multiplierBps: 15_000 },
      { weight: 15, multiplierBps: 20_000 },
      { weight: 5, multiplierBps: 40_000 },
      { weight: 1, multiplierBps: 100_000 },
    ],
  },
];

/** Creates a 6-decimal USDC-like mint with `authority` as mint and freeze authority (as real USDC has). */
export async function createUsdcMint(runner: LiteSvmRunner, payer: TransactionSigner, authority: Address): Promise<Address> {
  const mint = await generateKeyPairSigner();
  await runner.sendOrThrow(payer, [
    getCreateAccountInstruction({
      payer,
      newAccount: mint,
      lamports: runner.svm.minimumBalanceForRentExemption(BigInt(getMintSize())),
      space: getMintSize(),
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeMint2Instruction({ mint: mint.address, decimals: USDC_DECIMALS, mintAuthority: authority, freezeAuthority: authority }),
  ]);
  return mint.address;
}

/** The owner's associated token account of `mint`, created if missing. */
export async function ensureTokenAccount(runner: LiteSvmRunner, payer: TransactionSigner, mint: Address, owner: Address): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({ mint, owner, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  await runner.sendOrThrow(payer, [await getCreateAssociatedTokenIdempotentInstructionAsync({ payer, mint, owner })]);
  return ata;
}

/** Mints `amount` base units of `mint` to the owner's associated token account (created if missing). */
export async function mintTokens(
  runner: LiteSvmRunner,
  payer: TransactionSigner,
  mint: { address: Address; authority: TransactionSigner },
  owner: Address,
  amount: bigint,
): Promise<Address> {
  const ata = await ensureTokenAccount(runner, payer, mint.address, owner);
  await runner.sendOrThrow(payer, [getMintToInstruction({ mint: mint.address, token: ata, mintAuthority: mint.authority, amount })]);
  return ata;
}

export interface WagerProgramSetup {
  /** Upgrade authority and config admin. */
  admin: KeyPairSigner;
  guardian: Address;
  usdcMint: Address;
  oracleProgram: Address;
  config?: Partial<WagerConfigValues>;
}

/** Deploys the wager program at its committed address and initializes config and pool. */
export async function bootstrapWagerProgram(runner: LiteSvmRunner, setup: WagerProgramSetup): Promise<Address> {
  const program = await readProgramKeypair('wager');
  await runner.deployUpgradeable({
    payer: setup.admin,
    program,
    buffer: await generateKeyPairSigner(),
    authority: setup.admin,
    bytes: await readProgramBytes('wager'),
  });
  const initialize = await getInitializeInstructionAsync({
    admin: setup.admin,
    usdcMint: setup.usdcMint,
    programData: await findProgramDataAddress(program.address),
    guardian: setup.guardian,
    oracleProgram: setup.oracleProgram,
    ...DEFAULT_WAGER_CONFIG,
    ...setup.config,
  });
  await runner.sendOrThrow(setup.admin, [initialize]);
  return program.address;
}

/** Creates a named paytable (the program checks it) and returns its address. */
export async function createPaytable(runner: LiteSvmRunner, admin: TransactionSigner, paytable: PaytableDefinition): Promise<Address> {
  const name = encodePaytableName(paytable.name);
  const ix = await getCreatePaytableInstructionAsync({ admin, name, bucketCount: paytable.buckets.length, buckets: paytable.buckets });
  await runner.sendOrThrow(admin, [ix]);
  return (await findPaytablePda({ name }))[0];
}

/**
 * Adds LP liquidity the way an LP would: request_deposit into the live epoch, wait for its close,
 * strike_epoch, then claim_deposit (the LP cranks its own epoch here). Returns the LP's share account.
 */
export async function seedLiquidity(
  runner: LiteSvmRunner,
  lp: KeyPairSigner,
  usdc: { address: Address; authority: TransactionSigner },
  amount: bigint,
): Promise<Address> {
  const source = await mintTokens(runner, lp, usdc, lp.address, amount);
  const [poolAddress] = await findPoolPda();
  const readPool = () => {
    const account = runner.svm.getAccount(poolAddress);
    if (!account.exists) throw new Error('the pool does not exist');
    return getPoolDecoder().decode(account.data);
  };
  // Requests are refused (EpochClosed) once the live epoch's close has passed: strike it first.
  if (runner.slot() > readPool().epochCloseSlot) {
    const [liveRecord] = await findEpochRecordPda({ epoch: readPool().epoch });
    await runner.sendOrThrow(lp, [await getStrikeEpochInstructionAsync({ caller: lp, epochRecord: liveRecord })]);
  }
  const epoch = readPool().epoch;
  const [request] = await findDepositRequestPda({ owner: lp.address, epoch });
  const [epochRecord] = await findEpochRecordPda({ epoch });
  await runner.sendOrThrow(lp, [await getRequestDepositInstructionAsync({ owner: lp, request, epochRecord, source, amount })]);

  const closeSlot = readPool().epochCloseSlot;
  if (runner.slot() <= closeSlot) runner.advanceSlots(Number(closeSlot - runner.slot()) + 1);
  await runner.sendOrThrow(lp, [await getStrikeEpochInstructionAsync({ caller: lp, epochRecord })]);

  const [shareMint] = await findShareMintPda();
  const ownerShares = await ensureTokenAccount(runner, lp, shareMint, lp.address);
  await runner.sendOrThrow(lp, [
    await getClaimDepositInstructionAsync({ caller: lp, epochRecord, request, owner: lp.address, ownerShares }),
  ]);
  return ownerShares;
}

