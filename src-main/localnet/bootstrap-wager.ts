/**
 * Puts the wager program on a LiteSVM chain the way an operator would on a cluster: a USDC mint,
 * the program deployed through the upgradeable loader, `initialize` by the upgrade authority, named
 * paytables, and pool liquidity seeded through the real deposit epoch path. The instructions come from
 * protocol/wager/service-instructions.ts, which `wager-keeper deploy` sends over JSON-RPC.
 */
import {
  generateKeyPairSigner,
  type Address,
  type KeyPairSigner,
  type TransactionSigner,
} from '@solana/kit';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getMintSize,
  getMintToInstruction,
} from '@solana-program/token';
import { findProgramDataAddress } from '../chain/upgradeable-loader';
import { readProgramBytes, readProgramKeypair } from '../protocol/program-artifacts';
import { WAGER_PROGRAM_ADDRESS, getPoolDecoder } from '../protocol/generated/wager';
import {
  DEFAULT_WAGER_CONFIG,
  findServiceAddresses,
  getClaimDepositForService,
  getCreatePaytableForService,
  getCreateUsdcMintInstructions,
  getInitializeServiceInstruction,
  getRequestDepositForService,
  getStrikeEpochForService,
  type PaytableDefinition,
  type WagerConfigValues,
} from '../protocol/wager/service-instructions';
import type { LiteSvmRunner } from './litesvm-runner';

export {
  DEFAULT_WAGER_CONFIG,
  STANDARD_PAYTABLES,
  USDC_DECIMALS,
  type PaytableDefinition,
  type WagerConfigValues,
} from '../protocol/wager/service-instructions';

/** Creates a 6-decimal USDC-like mint with `authority` as mint and freeze authority (as real USDC has). */
export async function createUsdcMint(runner: LiteSvmRunner, payer: TransactionSigner, authority: Address): Promise<Address> {
  const mint = await generateKeyPairSigner();
  const lamports = runner.svm.minimumBalanceForRentExemption(BigInt(getMintSize()));
  await runner.sendOrThrow(payer, getCreateUsdcMintInstructions({ payer, mint, authority, lamports }));
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
  const initialize = await getInitializeServiceInstruction({
    admin: setup.admin,
    addresses: await findServiceAddresses(program.address),
    programData: await findProgramDataAddress(program.address),
    usdcMint: setup.usdcMint,
    guardian: setup.guardian,
    oracleProgram: setup.oracleProgram,
    config: { ...DEFAULT_WAGER_CONFIG, ...setup.config },
  });
  await runner.sendOrThrow(setup.admin, [initialize]);
  return program.address;
}

/** Creates a named paytable (the program checks it) and returns its address. */
export async function createPaytable(
  runner: LiteSvmRunner,
  admin: TransactionSigner,
  paytable: PaytableDefinition,
  program: Address = WAGER_PROGRAM_ADDRESS,
): Promise<Address> {
  const { instruction, address } = await getCreatePaytableForService({ admin, addresses: await findServiceAddresses(program), paytable });
  await runner.sendOrThrow(admin, [instruction]);
  return address;
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
  program: Address = WAGER_PROGRAM_ADDRESS,
): Promise<Address> {
  const source = await mintTokens(runner, lp, usdc, lp.address, amount);
  const addresses = await findServiceAddresses(program);
  const readPool = () => {
    const account = runner.svm.getAccount(addresses.pool);
    if (!account.exists) throw new Error('the pool does not exist');
    return getPoolDecoder().decode(account.data);
  };
  // Requests are refused (EpochClosed) once the live epoch's close has passed: strike it first.
  if (runner.slot() > readPool().epochCloseSlot) {
    await runner.sendOrThrow(lp, [await getStrikeEpochForService({ caller: lp, addresses, epoch: readPool().epoch })]);
  }
  const epoch = readPool().epoch;
  await runner.sendOrThrow(lp, [await getRequestDepositForService({ owner: lp, addresses, epoch, source, amount })]);

  const closeSlot = readPool().epochCloseSlot;
  if (runner.slot() <= closeSlot) runner.advanceSlots(Number(closeSlot - runner.slot()) + 1);
  await runner.sendOrThrow(lp, [await getStrikeEpochForService({ caller: lp, addresses, epoch })]);

  const ownerShares = await ensureTokenAccount(runner, lp, addresses.shareMint, lp.address);
  await runner.sendOrThrow(lp, [await getClaimDepositForService({ caller: lp, addresses, epoch, owner: lp.address, ownerShares })]);
  return ownerShares;
}
