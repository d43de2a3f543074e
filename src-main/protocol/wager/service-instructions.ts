/**
 * The instructions that set a wager service up, for any program id: the test USDC mint, `initialize`
 * with the spec's values, named paytables, and LP liquidity through a deposit epoch (request_deposit,
 * strike_epoch, claim_deposit). The localnet's genesis (LiteSVM) and `wager-keeper deploy` (JSON-RPC)
 * both build from here. Every PDA is derived under the given program address, never defaulted to the
 * localnet's constant one.
 */
import type { Address, Instruction, TransactionSigner } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS, getInitializeMint2Instruction, getMintSize } from '@solana-program/token';
import {
  WAGER_PROGRAM_ADDRESS,
  findConfigPda,
  findDepositRequestPda,
  findEpochRecordPda,
  findEscrowPda,
  findPaytablePda,
  findPoolPda,
  findShareEscrowPda,
  findShareMintPda,
  findVaultPda,
  getClaimDepositInstructionAsync,
  getCreatePaytableInstructionAsync,
  getInitializeInstructionAsync,
  getRequestDepositInstructionAsync,
  getStrikeEpochInstructionAsync,
} from '../generated/wager';
import { USDC_DECIMALS } from '../usdc-amount';
import { T_SETTLE_SLOTS } from '../../../src-shared/wager-timing';
import { encodePaytableName } from './paytable-name';

export { USDC_DECIMALS };

/** The spec's fees and window, and bounds that suit a test network. */
export const DEFAULT_WAGER_CONFIG = {
  requestFee: 50_000n,
  settleFee: 200_000n,
  expireFee: 200_000n,
  liquidityFee: 50_000n,
  tSettle: BigInt(T_SETTLE_SLOTS),
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

/** The named paytables a fresh deployment offers (each within the 2% house edge). */
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

/** The accounts `initialize` creates for one wager program. */
export interface ServiceAddresses {
  program: Address;
  config: Address;
  pool: Address;
  vault: Address;
  escrow: Address;
  shareMint: Address;
  shareEscrow: Address;
}

/** The service's PDAs under `program`. */
export async function findServiceAddresses(program: Address = WAGER_PROGRAM_ADDRESS): Promise<ServiceAddresses> {
  const at = { programAddress: program };
  const [[config], [pool], [vault], [escrow], [shareMint], [shareEscrow]] = await Promise.all([
    findConfigPda(at),
    findPoolPda(at),
    findVaultPda(at),
    findEscrowPda(at),
    findShareMintPda(at),
    findShareEscrowPda(at),
  ]);
  return { program, config, pool, vault, escrow, shareMint, shareEscrow };
}

/** Creates a 6-decimal USDC-like mint at `mint` with `authority` as mint and freeze authority (as real USDC has). */
export function getCreateUsdcMintInstructions(input: { payer: TransactionSigner; mint: TransactionSigner; authority: Address; lamports: bigint }): Instruction[] {
  return [
    getCreateAccountInstruction({
      payer: input.payer,
      newAccount: input.mint,
      lamports: input.lamports,
      space: getMintSize(),
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeMint2Instruction({ mint: input.mint.address, decimals: USDC_DECIMALS, mintAuthority: input.authority, freezeAuthority: input.authority }),
  ];
}

export interface InitializeServiceInput {
  /** The program's upgrade authority: pays every rent and becomes the config's admin. */
  admin: TransactionSigner;
  addresses: ServiceAddresses;
  programData: Address;
  usdcMint: Address;
  guardian: Address;
  oracleProgram: Address;
  config: WagerConfigValues;
}

/** `initialize`: config, pool, vault, escrow, share mint and share escrow of `addresses.program`. */
export function getInitializeServiceInstruction(input: InitializeServiceInput): Promise<Instruction> {
  const { addresses } = input;
  return getInitializeInstructionAsync(
    {
      admin: input.admin,
      config: addresses.config,
      pool: addresses.pool,
      vault: addresses.vault,
      escrow: addresses.escrow,
      shareMint: addresses.shareMint,
      shareEscrow: addresses.shareEscrow,
      usdcMint: input.usdcMint,
      programData: input.programData,
      guardian: input.guardian,
      oracleProgram: input.oracleProgram,
      ...input.config,
    },
    { programAddress: addresses.program },
  );
}

/** The address of the paytable named `name` under `program`. */
export async function findPaytableAddress(program: Address, name: string): Promise<Address> {
  return (await findPaytablePda({ name: encodePaytableName(name) }, { programAddress: program }))[0];
}

/** `create_paytable` for a named paytable (the program checks it) and the paytable's address. */
export async function getCreatePaytableForService(input: {
  admin: TransactionSigner;
  addresses: ServiceAddresses;
  paytable: PaytableDefinition;
}): Promise<{ instruction: Instruction; address: Address }> {
  const { addresses, paytable } = input;
  const address = await findPaytableAddress(addresses.program, paytable.name);
  const instruction = await getCreatePaytableInstructionAsync(
    {
      admin: input.admin,
      config: addresses.config,
      paytable: address,
      name: encodePaytableName(paytable.name),
      bucketCount: paytable.buckets.length,
      buckets: paytable.buckets,
    },
    { programAddress: addresses.program },
  );
  return { instruction, address };
}

/** The deposit request of `owner` in `epoch` and that epoch's record. */
export async function findDepositAccounts(program: Address, owner: Address, epoch: bigint): Promise<{ request: Address; epochRecord: Address }> {
  const at = { programAddress: program };
  const [[request], [epochRecord]] = await Promise.all([findDepositRequestPda({ owner, epoch }, at), findEpochRecordPda({ epoch }, at)]);
  return { request, epochRecord };
}

/** `request_deposit` of `amount` USDC from `source` into the live `epoch`. */
export async function getRequestDepositForService(input: {
  owner: TransactionSigner;
  addresses: ServiceAddresses;
  epoch: bigint;
  source: Address;
  amount: bigint;
}): Promise<Instruction> {
  const { addresses } = input;
  const { request, epochRecord } = await findDepositAccounts(addresses.program, input.owner.address, input.epoch);
  return getRequestDepositInstructionAsync(
    { owner: input.owner, config: addresses.config, pool: addresses.pool, request, epochRecord, source: input.source, vault: addresses.vault, amount: input.amount },
    { programAddress: addresses.program },
  );
}

/** `strike_epoch` of `epoch` (allowed once its close slot has passed). */
export async function getStrikeEpochForService(input: { caller: TransactionSigner; addresses: ServiceAddresses; epoch: bigint }): Promise<Instruction> {
  const { addresses } = input;
  const [epochRecord] = await findEpochRecordPda({ epoch: input.epoch }, { programAddress: addresses.program });
  return getStrikeEpochInstructionAsync({ caller: input.caller, config: addresses.config, pool: addresses.pool, epochRecord }, { programAddress: addresses.program });
}

/** `claim_deposit` of `owner`'s struck request of `epoch`: its shares minted to `ownerShares`. */
export async function getClaimDepositForService(input: {
  caller: TransactionSigner;
  addresses: ServiceAddresses;
  epoch: bigint;
  owner: Address;
  ownerShares: Address;
}): Promise<Instruction> {
  const { addresses } = input;
  const { request, epochRecord } = await findDepositAccounts(addresses.program, input.owner, input.epoch);
  return getClaimDepositInstructionAsync(
    {
      caller: input.caller,
      config: addresses.config,
      pool: addresses.pool,
      epochRecord,
      request,
      owner: input.owner,
      ownerShares: input.ownerShares,
      shareMint: addresses.shareMint,
    },
    { programAddress: addresses.program },
  );
}
