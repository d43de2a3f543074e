/**
 * Instructions of the BPF Upgradeable Loader (loader v3) for deploying and upgrading a program the way
 * `solana program deploy` does: buffer, chunked writes, DeployWithMaxDataLen, Upgrade, ExtendProgram,
 * Close; and the decoder of its accounts (buffer, program, program data). Hand-written because
 * @solana-program/loader-v3 requires @solana/kit 6 and the project is on kit 8.
 */
import {
  AccountRole,
  address,
  getAddressDecoder,
  getAddressEncoder,
  getProgramDerivedAddress,
  getU32Encoder,
  getU64Encoder,
  type AccountMeta,
  type AccountSignerMeta,
  type Address,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';

export const BPF_LOADER_UPGRADEABLE_ADDRESS = address('BPFLoaderUpgradeab1e11111111111111111111111');
const SYSTEM_PROGRAM = address('11111111111111111111111111111111');
const SYSVAR_RENT = address('SysvarRent111111111111111111111111111111111');
const SYSVAR_CLOCK = address('SysvarC1ock11111111111111111111111111111111');

/** Bytes of loader metadata before the program bytes in a buffer account (enum tag + Option<authority>). */
export const BUFFER_METADATA_SIZE = 37;
/** Size of a program account: enum tag + the ProgramData address. */
export const PROGRAM_ACCOUNT_SIZE = 36;
/** Bytes of loader metadata before the program bytes in a ProgramData account (tag + slot + Option<authority>). */
export const PROGRAM_DATA_METADATA_SIZE = 45;
/** Program bytes per Write instruction: keeps each transaction under the 1 232-byte packet limit. */
export const WRITE_CHUNK_SIZE = 900;

const u32 = (value: number) => getU32Encoder().encode(value);
const u64 = (value: number | bigint) => getU64Encoder().encode(value);
const readonly = (account: Address): AccountMeta => ({ address: account, role: AccountRole.READONLY });
const writable = (account: Address): AccountMeta => ({ address: account, role: AccountRole.WRITABLE });
const signing = (signer: TransactionSigner, role: AccountRole.READONLY_SIGNER | AccountRole.WRITABLE_SIGNER): AccountSignerMeta => ({ address: signer.address, role, signer });
const concat = (...parts: ArrayLike<number>[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p)));

/** The ProgramData account of a program: PDA of the loader seeded by the program address. */
export async function findProgramDataAddress(program: Address): Promise<Address> {
  const [programData] = await getProgramDerivedAddress({
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    seeds: [getAddressEncoder().encode(program)],
  });
  return programData;
}

/** InitializeBuffer: a created buffer account gets `authority`, who alone may write it. */
export function getInitializeBufferInstruction(buffer: Address, authority: Address): Instruction {
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      writable(buffer),
      readonly(authority),
    ],
    data: u32(0),
  };
}

/** Write: `bytes` at `offset` of the buffer's program bytes (after its metadata). */
export function getWriteInstruction(buffer: Address, authority: TransactionSigner, offset: number, bytes: Uint8Array): Instruction {
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      writable(buffer),
      signing(authority, AccountRole.READONLY_SIGNER),
    ],
    data: concat(u32(1), u32(offset), u64(bytes.length), bytes),
  };
}

export interface DeployWithMaxDataLenInput {
  payer: TransactionSigner;
  programData: Address;
  program: Address;
  buffer: Address;
  authority: TransactionSigner;
  maxDataLen: number;
}

/** DeployWithMaxDataLen: the buffer becomes the program's ProgramData (room for `maxDataLen` bytes); the buffer's lamports go to the payer. */
export function getDeployWithMaxDataLenInstruction(input: DeployWithMaxDataLenInput): Instruction {
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      signing(input.payer, AccountRole.WRITABLE_SIGNER),
      writable(input.programData),
      writable(input.program),
      writable(input.buffer),
      readonly(SYSVAR_RENT),
      readonly(SYSVAR_CLOCK),
      readonly(SYSTEM_PROGRAM),
      signing(input.authority, AccountRole.READONLY_SIGNER),
    ],
    data: concat(u32(2), u64(input.maxDataLen)),
  };
}

export interface ProgramDeploymentInput {
  payer: TransactionSigner;
  /** The program's own keypair: its address becomes the program id. */
  program: TransactionSigner;
  /** A fresh keypair for the temporary buffer account. */
  buffer: TransactionSigner;
  /** Upgrade authority of the deployed program. */
  authority: TransactionSigner;
  bytes: Uint8Array;
  /** Lamports that make an account of `space` bytes rent-exempt (from the cluster). */
  rentExemptLamports: (space: number) => bigint;
  /** Room for upgrades: ProgramData holds this many times the current size (default 2). */
  growthFactor?: number;
}

/**
 * The transactions (each a list of instructions, to send in order) that deploy `bytes` as an upgradeable
 * program: create + initialize the buffer, write it in chunks, then create the program account and deploy.
 */
export async function planProgramDeployment(input: ProgramDeploymentInput): Promise<Instruction[][]> {
  const { payer, program, buffer, authority, bytes } = input;
  const bufferSize = BUFFER_METADATA_SIZE + bytes.length;
  const transactions: Instruction[][] = [
    [
      getCreateAccountInstruction({
        payer,
        newAccount: buffer,
        lamports: input.rentExemptLamports(bufferSize),
        space: bufferSize,
        programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
      }),
      getInitializeBufferInstruction(buffer.address, authority.address),
    ],
  ];
  for (let offset = 0; offset < bytes.length; offset += WRITE_CHUNK_SIZE) {
    transactions.push([getWriteInstruction(buffer.address, authority, offset, bytes.subarray(offset, offset + WRITE_CHUNK_SIZE))]);
  }
  transactions.push([
    getCreateAccountInstruction({
      payer,
      newAccount: program,
      lamports: input.rentExemptLamports(PROGRAM_ACCOUNT_SIZE),
      space: PROGRAM_ACCOUNT_SIZE,
      programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    }),
    getDeployWithMaxDataLenInstruction({
      payer,
      programData: await findProgramDataAddress(program.address),
      program: program.address,
      buffer: buffer.address,
      authority,
      maxDataLen: bytes.length * (input.growthFactor ?? 2),
    }),
  ]);
  return transactions;
}

export interface UpgradeInput {
  programData: Address;
  program: Address;
  buffer: Address;
  /** Receives the buffer's lamports and the program data's excess. */
  spill: Address;
  /** The program's upgrade authority (also the buffer's authority). */
  authority: TransactionSigner;
}

/** Upgrade: the buffer's bytes replace the program's (the rest of ProgramData zero-filled); the buffer is closed into `spill`. */
export function getUpgradeInstruction(input: UpgradeInput): Instruction {
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      writable(input.programData),
      writable(input.program),
      writable(input.buffer),
      writable(input.spill),
      readonly(SYSVAR_RENT),
      readonly(SYSVAR_CLOCK),
      signing(input.authority, AccountRole.READONLY_SIGNER),
    ],
    data: u32(3),
  };
}

export interface CloseInput {
  /** A buffer (or an uninitialized account, or a ProgramData with `program`). */
  account: Address;
  /** Receives the account's lamports. */
  recipient: Address;
  authority: TransactionSigner;
  /** Only when closing a ProgramData account: its program. */
  program?: Address;
}

/** Close: a buffer (or a program's data) is closed by its authority and its rent paid to `recipient`. */
export function getCloseInstruction(input: CloseInput): Instruction {
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      writable(input.account),
      writable(input.recipient),
      signing(input.authority, AccountRole.READONLY_SIGNER),
      ...(input.program ? [writable(input.program)] : []),
    ],
    data: u32(5),
  };
}

export interface ExtendProgramInput {
  programData: Address;
  program: Address;
  /** Pays the rent of the added bytes. */
  payer: TransactionSigner;
  additionalBytes: number;
}

/**
 * ExtendProgram: makes room for `additionalBytes` more program bytes, the payer paying the rent. Runtimes
 * with `enable_extend_program_checked` refuse it (InvalidInstructionData) for ExtendProgramChecked.
 */
export function getExtendProgramInstruction(input: ExtendProgramInput): Instruction {
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      writable(input.programData),
      writable(input.program),
      readonly(SYSTEM_PROGRAM),
      signing(input.payer, AccountRole.WRITABLE_SIGNER),
    ],
    data: concat(u32(6), u32(input.additionalBytes)),
  };
}

/** ExtendProgramChecked: ExtendProgram signed by the upgrade authority (runtimes from Agave 2.2; older ones refuse it). */
export function getExtendProgramCheckedInstruction(input: ExtendProgramInput & { authority: TransactionSigner }): Instruction {
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      writable(input.programData),
      writable(input.program),
      signing(input.authority, AccountRole.READONLY_SIGNER),
      readonly(SYSTEM_PROGRAM),
      signing(input.payer, AccountRole.WRITABLE_SIGNER),
    ],
    data: concat(u32(9), u32(input.additionalBytes)),
  };
}

/** An account of the upgradeable loader, decoded (bincode `UpgradeableLoaderState` and the bytes after it). */
export type UpgradeableLoaderAccount =
  | { kind: 'uninitialized' }
  | { kind: 'buffer'; authority: Address | null; bytes: Uint8Array }
  | { kind: 'program'; programData: Address }
  | { kind: 'programData'; slot: bigint; upgradeAuthority: Address | null; bytes: Uint8Array };

/**
 * Decodes an account owned by the upgradeable loader; throws on data that is not one.
 * @example decodeUpgradeableLoaderAccount(programDataAccountBytes) // { kind: 'programData', slot, upgradeAuthority, bytes }
 */
export function decodeUpgradeableLoaderAccount(data: Uint8Array): UpgradeableLoaderAccount {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const tag = data.length >= 4 ? view.getUint32(0, true) : -1;
  const optionalAddress = (at: number) => (data[at] === 1 ? getAddressDecoder().decode(data.subarray(at + 1, at + 33)) : null);
  if (tag === 0) return { kind: 'uninitialized' };
  if (tag === 1 && data.length >= BUFFER_METADATA_SIZE) {
    return { kind: 'buffer', authority: optionalAddress(4), bytes: data.subarray(BUFFER_METADATA_SIZE) };
  }
  if (tag === 2 && data.length >= PROGRAM_ACCOUNT_SIZE) return { kind: 'program', programData: getAddressDecoder().decode(data.subarray(4, 36)) };
  if (tag === 3 && data.length >= PROGRAM_DATA_METADATA_SIZE) {
    return { kind: 'programData', slot: view.getBigUint64(4, true), upgradeAuthority: optionalAddress(12), bytes: data.subarray(PROGRAM_DATA_METADATA_SIZE) };
  }
  throw new Error(`not an upgradeable loader account (tag ${tag}, ${data.length} bytes)`);
}
