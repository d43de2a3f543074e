/**
 * Deploying through the BPF Upgradeable Loader's own instructions (InitializeBuffer, Write,
 * DeployWithMaxDataLen), exactly like the spike's deploy.mjs. Unlike `svm.addProgram`, this runs the
 * loader's strict deploy-time ELF checks. Private to the toolchain tests on purpose.
 */
import {
  AccountRole,
  address,
  generateKeyPairSigner,
  getAddressEncoder,
  getProgramDerivedAddress,
} from '@solana/kit';
import type {
  AccountMeta,
  AccountSignerMeta,
  Address,
  Instruction,
  InstructionWithSigners,
  KeyPairSigner,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import type { LiteSVM } from 'litesvm';
import { send } from './svm.ts';
import type { Outcome } from './svm.ts';

export const UPGRADEABLE_LOADER = address('BPFLoaderUpgradeab1e11111111111111111111111');
const SYSTEM_PROGRAM = address('11111111111111111111111111111111');
const RENT_SYSVAR = address('SysvarRent111111111111111111111111111111111');
const CLOCK_SYSVAR = address('SysvarC1ock11111111111111111111111111111111');

/** UpgradeableLoaderState::Buffer header (enum tag + Option<authority>). */
const BUFFER_METADATA_SIZE = 37;
/** UpgradeableLoaderState::Program (enum tag + programdata address). */
const PROGRAM_ACCOUNT_SIZE = 36;
/** Bytes of program per Write instruction: keeps each transaction under the 1232-byte limit. */
const WRITE_CHUNK = 900;

/** Loader instruction tags (bincode enum discriminants, u32 little-endian). */
const INITIALIZE_BUFFER = 0;
const WRITE = 1;
const DEPLOY_WITH_MAX_DATA_LEN = 2;

type LoaderInstruction = Instruction & InstructionWithSigners;

// Typed metas (not inline literals): kit's signer-aware instruction type rejects inline signer metas.
const writable = (account: Address): AccountMeta => ({ address: account, role: AccountRole.WRITABLE });
const readonly = (account: Address): AccountMeta => ({ address: account, role: AccountRole.READONLY });
const readonlySigner = (signer: KeyPairSigner): AccountSignerMeta => ({
  address: signer.address,
  role: AccountRole.READONLY_SIGNER,
  signer,
});
const writableSigner = (signer: KeyPairSigner): AccountSignerMeta => ({
  address: signer.address,
  role: AccountRole.WRITABLE_SIGNER,
  signer,
});

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}
function u64(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value), true);
  return out;
}
function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function initializeBufferInstruction(buffer: Address, authority: Address): LoaderInstruction {
  return {
    programAddress: UPGRADEABLE_LOADER,
    accounts: [writable(buffer), readonly(authority)],
    data: u32(INITIALIZE_BUFFER),
  };
}

export function writeInstruction(
  buffer: Address,
  authority: KeyPairSigner,
  offset: number,
  bytes: Uint8Array,
): LoaderInstruction {
  return {
    programAddress: UPGRADEABLE_LOADER,
    accounts: [writable(buffer), readonlySigner(authority)],
    data: concat(u32(WRITE), u32(offset), u64(bytes.length), bytes),
  };
}

export function deployWithMaxDataLenInstruction(accounts: {
  payer: KeyPairSigner;
  programData: Address;
  program: Address;
  buffer: Address;
  authority: KeyPairSigner;
  maxDataLen: number;
}): LoaderInstruction {
  return {
    programAddress: UPGRADEABLE_LOADER,
    accounts: [
      writableSigner(accounts.payer),
      writable(accounts.programData),
      writable(accounts.program),
      writable(accounts.buffer),
      readonly(RENT_SYSVAR),
      readonly(CLOCK_SYSVAR),
      readonly(SYSTEM_PROGRAM),
      readonlySigner(accounts.authority),
    ],
    data: concat(u32(DEPLOY_WITH_MAX_DATA_LEN), u64(accounts.maxDataLen)),
  };
}

/** Result of {@link deployUpgradeable}: the deploy transaction's outcome and the program address. */
export interface Deployment {
  readonly program: Address;
  readonly programData: Address;
  /** Outcome of the DeployWithMaxDataLen transaction (where the strict ELF checks run). */
  readonly deploy: Outcome;
}

async function mustSucceed(title: string, outcome: Promise<Outcome>): Promise<void> {
  const result = await outcome;
  if (!result.ok) throw new Error(`${title} failed: ${result.error}\n${result.logs.join('\n')}`);
}

/**
 * Creates a buffer, writes `so` into it chunk by chunk and deploys it with DeployWithMaxDataLen.
 * Buffer steps must succeed; the deploy outcome is returned so tests can assert refusals too.
 */
export async function deployUpgradeable(
  svm: LiteSVM,
  payer: KeyPairSigner,
  so: Uint8Array,
): Promise<Deployment> {
  const buffer = await generateKeyPairSigner();
  const bufferSize = BUFFER_METADATA_SIZE + so.length;
  await mustSucceed(
    'create + InitializeBuffer',
    send(svm, payer, [
      getCreateAccountInstruction({
        payer,
        newAccount: buffer,
        lamports: svm.minimumBalanceForRentExemption(BigInt(bufferSize)),
        space: bufferSize,
        programAddress: UPGRADEABLE_LOADER,
      }),
      initializeBufferInstruction(buffer.address, payer.address),
    ]),
  );
  for (let offset = 0; offset < so.length; offset += WRITE_CHUNK) {
    const chunk = so.subarray(offset, offset + WRITE_CHUNK);
    await mustSucceed(
      `Write @${offset}`,
      send(svm, payer, [writeInstruction(buffer.address, payer, offset, chunk)]),
    );
  }

  const program = await generateKeyPairSigner();
  const [programData] = await getProgramDerivedAddress({
    programAddress: UPGRADEABLE_LOADER,
    seeds: [getAddressEncoder().encode(program.address)],
  });
  const deploy = await send(svm, payer, [
    getCreateAccountInstruction({
      payer,
      newAccount: program,
      lamports: svm.minimumBalanceForRentExemption(BigInt(PROGRAM_ACCOUNT_SIZE)),
      space: PROGRAM_ACCOUNT_SIZE,
      programAddress: UPGRADEABLE_LOADER,
    }),
    deployWithMaxDataLenInstruction({
      payer,
      programData,
      program: program.address,
      buffer: buffer.address,
      authority: payer,
      maxDataLen: so.length * 2,
    }),
  ]);
  return { program: program.address, programData, deploy };
}
