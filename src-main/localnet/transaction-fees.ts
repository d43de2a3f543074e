/**
 * The fee a validator (and LiteSVM, which runs Agave's fee code) charges a transaction: 5 000 lamports
 * per signature, counting the signatures that Ed25519 / secp256k1 / secp256r1 precompile instructions
 * verify, plus the priority fee ceil(compute-unit price x compute-unit limit / 1e6). Used for
 * getTransaction's `meta.fee` and for getFeeForMessage, so both equal what the payer is debited.
 */
import type { Address, ReadonlyUint8Array } from '@solana/kit';
import { LAMPORTS_PER_SIGNATURE, priorityFeeLamports } from '../chain/fees';


const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
const ED25519_PROGRAM = 'Ed25519SigVerify111111111111111111111111111';
const SECP256K1_PROGRAM = 'KeccakSecp256k11111111111111111111111111111';
const SECP256R1_PROGRAM = 'Secp256r1SigVerify1111111111111111111111111';
const MAX_COMPUTE_UNIT_LIMIT = 1_400_000n;
const DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT = 200_000n;
/** Agave (reserve_minimal_cus_for_builtin_instructions): a builtin instruction reserves only this much. */
const MAX_BUILTIN_ALLOCATION_COMPUTE_UNIT_LIMIT = 3_000n;

/**
 * Programs Agave counts as builtins when it sizes the default compute-unit limit. Stake, Config and
 * Address Lookup Table are left out: with every feature active (LiteSVM's default) they count as
 * migrated to BPF programs, so as ordinary programs.
 */
const BUILTIN_PROGRAMS = new Set<string>([
  '11111111111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  COMPUTE_BUDGET_PROGRAM,
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  ED25519_PROGRAM,
  SECP256K1_PROGRAM,
  SECP256R1_PROGRAM,
]);

export interface FeeInstruction {
  programAddress: Address;
  data: ReadonlyUint8Array;
}

export interface TransactionFee {
  /** Signatures the transaction carries. */
  transactionSignatures: number;
  /** Signatures its precompile instructions verify (each instruction's first data byte). */
  precompileSignatures: number;
  computeUnitLimit: bigint;
  /** Micro-lamports per compute unit (SetComputeUnitPrice), 0 when not set. */
  computeUnitPrice: bigint;
  priorityFee: bigint;
  /** What the fee payer is debited. */
  total: bigint;
}

const u32At = (data: ReadonlyUint8Array, offset: number) =>
  BigInt((data[offset]! | (data[offset + 1]! << 8) | (data[offset + 2]! << 16)) + data[offset + 3]! * 2 ** 24);
const u64At = (data: ReadonlyUint8Array, offset: number) => u32At(data, offset) + (u32At(data, offset + 4) << 32n);

/** The fee of a message with `signatures` required signatures and these instructions. */
export function transactionFee(signatures: number, instructions: readonly FeeInstruction[]): TransactionFee {
  let precompileSignatures = 0;
  let requestedLimit: bigint | undefined;
  let computeUnitPrice = 0n;
  let builtin = 0n;
  let other = 0n;
  for (const { programAddress, data } of instructions) {
    if (programAddress === ED25519_PROGRAM || programAddress === SECP256K1_PROGRAM || programAddress === SECP256R1_PROGRAM) {
      precompileSignatures += data[0] ?? 0;
    }
    if (programAddress === COMPUTE_BUDGET_PROGRAM) {
      if (data[0] === 2 && data.length >= 5) requestedLimit = u32At(data, 1);
      if (data[0] === 3 && data.length >= 9) computeUnitPrice = u64At(data, 1);
    }
    if (BUILTIN_PROGRAMS.has(programAddress)) builtin += 1n;
    else other += 1n;
  }
  const defaultLimit = builtin * MAX_BUILTIN_ALLOCATION_COMPUTE_UNIT_LIMIT + other * DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT;
  const computeUnitLimit = requestedLimit ?? defaultLimit;
  const cappedLimit = computeUnitLimit < MAX_COMPUTE_UNIT_LIMIT ? computeUnitLimit : MAX_COMPUTE_UNIT_LIMIT;
  const priorityFee = priorityFeeLamports(computeUnitPrice, cappedLimit);
  const total = LAMPORTS_PER_SIGNATURE * BigInt(signatures + precompileSignatures) + priorityFee;
  return { transactionSignatures: signatures, precompileSignatures, computeUnitLimit: cappedLimit, computeUnitPrice, priorityFee, total };
}

interface CompiledMessageView {
  header: { numSignerAccounts: number };
  staticAccounts: readonly Address[];
  instructions?: readonly { programAddressIndex: number; data?: ReadonlyUint8Array }[];
}

/** The fee of a compiled (legacy or v0) message, as kit's getCompiledTransactionMessageDecoder gives it. */
export function messageFee(message: CompiledMessageView): TransactionFee {
  const instructions = (message.instructions ?? []).map((ix) => ({
    programAddress: message.staticAccounts[ix.programAddressIndex]!,
    data: ix.data ?? new Uint8Array(),
  }));
  return transactionFee(message.header.numSignerAccounts, instructions);
}
