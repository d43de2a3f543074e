/**
 * The permissionless steps of a wager's life, built from the wager's on-chain record: what a keeper
 * (or anyone) sends to request randomness, settle, expire or deliver a parked payout.
 */
import type { Address, Instruction, TransactionSigner } from '@solana/kit';
import { findRandomnessRequestPda } from '../generated/oracle';
import {
  WAGER_PROGRAM_ADDRESS,
  getClaimPayoutInstructionAsync,
  getExpireWagerInstructionAsync,
  getRequestRandomnessInstructionAsync,
  getSettleWagerInstructionAsync,
  type Wager,
} from '../generated/wager';
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

export class SlotHashUnavailableError extends Error {
  constructor(openSlot: bigint) {
    super(`no SlotHashes entry after open slot ${openSlot} can serve as s* yet`);
  }
}

/** request_randomness with s* and h* picked from `slotHashes` and the oracle request PDA of the derived seed. */
export async function getRequestRandomnessForWager(
  input: WagerStepInput & { oracle: OracleEndpoint; slotHashes: readonly SlotHash[] },
): Promise<{ instruction: Instruction; seed: Uint8Array; oracleRequest: Address }> {
  const programAddress = input.programAddress ?? WAGER_PROGRAM_ADDRESS;
  const picked = findFirstSlotHashAfter(input.slotHashes, input.wager.openSlot);
  if (!picked) throw new SlotHashUnavailableError(input.wager.openSlot);
  const seed = deriveOracleSeed({ programAddress, wager: input.wagerAddress, openSlot: input.wager.openSlot, sStar: picked.sStar, hStar: picked.hStar });
  const [oracleRequest, requestBump] = await findRandomnessRequestPda({ seed }, { programAddress: input.oracle.programAddress });
  const instruction = await getRequestRandomnessInstructionAsync(
    {
      caller: input.caller,
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
  return { instruction, seed, oracleRequest };
}

export async function getSettleForWager(input: WagerStepInput): Promise<Instruction> {
  return getSettleWagerInstructionAsync(
    {
      caller: input.caller,
      wager: input.wagerAddress,
      wagerFees: input.wager.feeAccount,
      payer: input.wager.payer,
      paytable: input.wager.paytable,
      oracleRequest: input.wager.oracleRequest,
      beneficiary: input.wager.beneficiary,
    },
    { programAddress: input.programAddress ?? WAGER_PROGRAM_ADDRESS },
  );
}

export async function getExpireForWager(input: WagerStepInput): Promise<Instruction> {
  return getExpireWagerInstructionAsync(
    {
      caller: input.caller,
      wager: input.wagerAddress,
      wagerFees: input.wager.feeAccount,
      payer: input.wager.payer,
      oracleRequest: input.wager.oracleRequest,
    },
    { programAddress: input.programAddress ?? WAGER_PROGRAM_ADDRESS },
  );
}

export async function getClaimPayoutForWager(input: WagerStepInput): Promise<Instruction> {
  return getClaimPayoutInstructionAsync(
    { caller: input.caller, wager: input.wagerAddress, payer: input.wager.payer, beneficiary: input.wager.beneficiary },
    { programAddress: input.programAddress ?? WAGER_PROGRAM_ADDRESS },
  );
}
