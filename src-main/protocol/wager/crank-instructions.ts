/**
 * The permissionless steps of a wager's life, built from the wager's on-chain record: what a keeper
 * (or anyone) sends to request randomness, settle, expire or deliver a parked payout. The service's
 * PDAs (config, pool, vault, escrow) are derived under the wager's program, whichever deployment it is.
 */
import type { Address, Instruction, TransactionSigner } from '@solana/kit';
import { findRandomnessRequestPda } from '../generated/oracle';
import {
  WAGER_PROGRAM_ADDRESS,
  findConfigPda,
  findEscrowPda,
  findPoolPda,
  findVaultPda,
  getClaimPayoutInstructionAsync,
  getExpireWagerInstructionAsync,
  getRequestRandomnessInstructionAsync,
  getSettleWagerInstructionAsync,
  type Wager,
} from '../generated/wager';
import { getFeeAccountTopUp, type FeeAccountConfig, type FeeAccountTopUp, type FeeAccountTopUpInput } from './fee-account-top-up';
import { deriveOracleSeed, findFirstSlotHashAfter, type SlotHash } from './oracle-seed';

/** Where the configured oracle takes requests: its program, network state and treasury. */
export interface OracleEndpoint {
  programAddress: Address;
  networkState: Address;
  treasury: Address;
}

export interface WagerStepInput {
  caller: TransactionSigner;
  wagerAddress: Address;
  wager: Wager;
  programAddress?: Address;
}

/** The service PDAs of `programAddress` that the crank instructions take. */
async function servicePdas(programAddress: Address) {
  const at = { programAddress };
  const [[config], [pool], [vault], [escrow]] = await Promise.all([findConfigPda(at), findPoolPda(at), findVaultPda(at), findEscrowPda(at)]);
  return { config, pool, vault, escrow };
}

export class SlotHashUnavailableError extends Error {
  constructor(openSlot: bigint) {
    super(`no SlotHashes entry after open slot ${openSlot} can serve as s* yet`);
  }
}

/**
 * How the caller makes sure the wager's fee account can pay the request: the RPC to read its balance, the
 * oracle's current fee and the rent minimums, and the program config (its fees).
 */
export interface FeeAccountFunding {
  rpc: FeeAccountTopUpInput['rpc'];
  config: FeeAccountConfig;
}

export interface RequestRandomnessForWager {
  /** request_randomness alone. */
  instruction: Instruction;
  /** What to send, in order: the fee account top-up (when one is needed), then request_randomness. */
  instructions: Instruction[];
  /** The System transfer from the caller topping up the fee account, when the oracle fee rose since the open. */
  topUp: FeeAccountTopUp | null;
  seed: Uint8Array;
  oracleRequest: Address;
}

/**
 * request_randomness with s* and h* picked from `slotHashes` and the oracle request PDA of the derived seed.
 * With `feeAccountFunding`, first checks that the wager's fee account can pay what the request spends
 * (see fee-account-top-up.ts) and, when it cannot (the oracle raised its fee after the open), prepends a
 * System transfer of exactly the shortfall from the caller.
 */
export async function getRequestRandomnessForWager(
  input: WagerStepInput & { oracle: OracleEndpoint; slotHashes: readonly SlotHash[]; feeAccountFunding?: FeeAccountFunding },
): Promise<RequestRandomnessForWager> {
  const programAddress = input.programAddress ?? WAGER_PROGRAM_ADDRESS;
  const picked = findFirstSlotHashAfter(input.slotHashes, input.wager.openSlot);
  if (!picked) throw new SlotHashUnavailableError(input.wager.openSlot);
  const seed = deriveOracleSeed({ programAddress, wager: input.wagerAddress, openSlot: input.wager.openSlot, sStar: picked.sStar, hStar: picked.hStar });
  const [oracleRequest, requestBump] = await findRandomnessRequestPda({ seed }, { programAddress: input.oracle.programAddress });
  const { config } = await servicePdas(programAddress);
  const instruction = await getRequestRandomnessInstructionAsync(
    {
      caller: input.caller,
      config,
      wager: input.wagerAddress,
      wagerFees: input.wager.feeAccount,
      oracleProgram: input.oracle.programAddress,
      oracleNetworkState: input.oracle.networkState,
      oracleTreasury: input.oracle.treasury,
      oracleRequest,
      sStar: picked.sStar,
      hStar: picked.hStar,
      requestBump,
      slotHashIndex: Math.min(picked.index, 0xffff),
    },
    { programAddress },
  );
  const topUp = input.feeAccountFunding
    ? await getFeeAccountTopUp({
        ...input.feeAccountFunding,
        payer: input.caller,
        feeAccount: input.wager.feeAccount,
        oracle: input.oracle,
        oracleRequest,
      })
    : null;
  return { instruction, instructions: topUp ? [topUp.instruction, instruction] : [instruction], topUp, seed, oracleRequest };
}

export async function getSettleForWager(input: WagerStepInput): Promise<Instruction> {
  const programAddress = input.programAddress ?? WAGER_PROGRAM_ADDRESS;
  const { config, pool, vault, escrow } = await servicePdas(programAddress);
  return getSettleWagerInstructionAsync(
    {
      caller: input.caller,
      config,
      pool,
      vault,
      escrow,
      wager: input.wagerAddress,
      wagerFees: input.wager.feeAccount,
      payer: input.wager.payer,
      paytable: input.wager.paytable,
      oracleRequest: input.wager.oracleRequest,
      beneficiary: input.wager.beneficiary,
    },
    { programAddress },
  );
}

export async function getExpireForWager(input: WagerStepInput): Promise<Instruction> {
  const programAddress = input.programAddress ?? WAGER_PROGRAM_ADDRESS;
  const { config, pool } = await servicePdas(programAddress);
  return getExpireWagerInstructionAsync(
    {
      caller: input.caller,
      config,
      pool,
      wager: input.wagerAddress,
      wagerFees: input.wager.feeAccount,
      payer: input.wager.payer,
      oracleRequest: input.wager.oracleRequest,
    },
    { programAddress },
  );
}

export async function getClaimPayoutForWager(input: WagerStepInput): Promise<Instruction> {
  const programAddress = input.programAddress ?? WAGER_PROGRAM_ADDRESS;
  const { config, pool, escrow } = await servicePdas(programAddress);
  return getClaimPayoutInstructionAsync(
    { caller: input.caller, config, pool, escrow, wager: input.wagerAddress, payer: input.wager.payer, beneficiary: input.wager.beneficiary },
    { programAddress },
  );
}
