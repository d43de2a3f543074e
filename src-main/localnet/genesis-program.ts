/**
 * Upgradeable programs placed at genesis, as `solana-test-validator --upgradeable-program ID SO AUTHORITY`
 * places them: a Program account and its ProgramData account written straight into the ledger, owned by
 * the BPF Upgradeable Loader, at any address (no program keypair needed, so ORAO VRF's own address works).
 * Also reads a ProgramData account's header back (deployment slot, upgrade authority).
 */
import {
  getAddressDecoder,
  getAddressEncoder,
  getU32Decoder,
  getU32Encoder,
  getU64Decoder,
  getU64Encoder,
  lamports,
  type Address,
  type ReadonlyUint8Array,
} from '@solana/kit';
import type { LiteSVM } from 'litesvm';
import { BPF_LOADER_UPGRADEABLE_ADDRESS, PROGRAM_ACCOUNT_SIZE, findProgramDataAddress } from '../chain/upgradeable-loader';

/** UpgradeableLoaderState tags (bincode u32): Program and ProgramData. */
const PROGRAM_TAG = 2;
const PROGRAM_DATA_TAG = 3;
/** ProgramData header: tag u32, slot u64, Option<authority> (1 + 32); the ELF follows. */
export const PROGRAM_DATA_METADATA_SIZE = 45;

export interface GenesisProgram {
  program: Address;
  bytes: Uint8Array;
  /** null: an immutable program (no upgrade authority). */
  upgradeAuthority: Address | null;
  /** The ProgramData's deployment slot. */
  slot: bigint;
}

/** The ProgramData account's bytes: header, then the program. */
export function encodeProgramData({ bytes, upgradeAuthority, slot }: Omit<GenesisProgram, 'program'>): Uint8Array {
  const data = new Uint8Array(PROGRAM_DATA_METADATA_SIZE + bytes.length);
  data.set(getU32Encoder().encode(PROGRAM_DATA_TAG), 0);
  data.set(getU64Encoder().encode(slot), 4);
  if (upgradeAuthority) {
    data[12] = 1;
    data.set(getAddressEncoder().encode(upgradeAuthority), 13);
  }
  data.set(bytes, PROGRAM_DATA_METADATA_SIZE);
  return data;
}

/**
 * Writes the program as an upgradeable one and returns its ProgramData address. ProgramData goes first:
 * LiteSVM loads a program into its cache when the executable Program account is written, from the
 * ProgramData it points at.
 */
export async function placeUpgradeableProgram(svm: LiteSVM, input: GenesisProgram): Promise<Address> {
  const programData = await findProgramDataAddress(input.program);
  const data = encodeProgramData(input);
  const rentExempt = (size: number) => lamports(svm.minimumBalanceForRentExemption(BigInt(size)));
  svm.setAccount({
    address: programData,
    lamports: rentExempt(data.length),
    data,
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    executable: false,
    space: BigInt(data.length),
  });
  const program = new Uint8Array(PROGRAM_ACCOUNT_SIZE);
  program.set(getU32Encoder().encode(PROGRAM_TAG), 0);
  program.set(getAddressEncoder().encode(programData), 4);
  svm.setAccount({
    address: input.program,
    lamports: rentExempt(PROGRAM_ACCOUNT_SIZE),
    data: program,
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    executable: true,
    space: BigInt(PROGRAM_ACCOUNT_SIZE),
  });
  return programData;
}

export interface ProgramDataHeader {
  slot: bigint;
  upgradeAuthority: Address | null;
  /** The program's bytes as deployed (the account may hold trailing zeros beyond them: room for upgrades). */
  programBytes: ReadonlyUint8Array;
}

/** Reads a ProgramData account's data; throws when it is not one. */
export function decodeProgramData(data: ReadonlyUint8Array): ProgramDataHeader {
  if (data.length < PROGRAM_DATA_METADATA_SIZE || getU32Decoder().decode(data, 0) !== PROGRAM_DATA_TAG) {
    throw new Error('not an upgradeable loader ProgramData account');
  }
  return {
    slot: getU64Decoder().decode(data, 4),
    upgradeAuthority: data[12] === 1 ? getAddressDecoder().decode(data, 13) : null,
    programBytes: data.subarray(PROGRAM_DATA_METADATA_SIZE),
  };
}
