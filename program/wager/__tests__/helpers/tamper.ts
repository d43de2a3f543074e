/**
 * What an attacker does to an honest instruction: swap an account, drop a signature, forge an account
 * in place with svm.setAccount. And what a test checks afterwards: which program refused with which
 * error, and that the accounts concerned did not change at all.
 */
import {
  AccountRole,
  downgradeRoleToNonSigner,
  getAddressDecoder,
  getBase58Decoder,
  lamports,
  upgradeRoleToSigner,
  type AccountMeta,
  type Address,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit';
import type { SlotHash } from 'litesvm';
import { expect } from 'vitest';
import { WAGER_PROGRAM_ADDRESS } from '../../../../src-main/protocol/wager';
import type { TransactionOutcome } from '../../../../src-main/localnet/litesvm-runner';
import { errorNameOf, type WagerTestChain } from '../wager-test-chain';

function metas(ix: Instruction): AccountMeta[] {
  return (ix.accounts ?? []).map((meta) => {
    if ('lookupTableAddress' in meta) throw new Error('lookup metas are not used in these tests');
    return meta;
  });
}

function withMeta(ix: Instruction, index: number, replace: (meta: AccountMeta) => AccountMeta): Instruction {
  const accounts = metas(ix);
  if (index < 0 || index >= accounts.length) throw new Error(`no account #${index} (${accounts.length} accounts)`);
  return { ...ix, accounts: accounts.map((meta, i) => (i === index ? replace(meta) : meta)) };
}

/** Account #index replaced by `address`, same writability, never a signer. */
export const withAccount = (ix: Instruction, index: number, address: Address): Instruction =>
  withMeta(ix, index, (meta) => ({ address, role: downgradeRoleToNonSigner(meta.role) }));

/** Account #index replaced by `signer`, which signs in its place. */
export const withSigner = (ix: Instruction, index: number, signer: TransactionSigner): Instruction =>
  withMeta(ix, index, (meta) => ({ address: signer.address, role: upgradeRoleToSigner(meta.role), signer }) as AccountMeta);

/** Account #index kept, but its signature dropped (the transaction is sent without it). */
export const withoutSignature = (ix: Instruction, index: number): Instruction =>
  withMeta(ix, index, (meta) => ({ address: meta.address, role: downgradeRoleToNonSigner(meta.role) }));

/** Account #index kept, passed read-only. */
export const readOnly = (ix: Instruction, index: number): Instruction =>
  withMeta(ix, index, (meta) =>
    meta.role === AccountRole.WRITABLE_SIGNER ? { ...meta, role: AccountRole.READONLY_SIGNER } : { ...meta, role: AccountRole.READONLY },
  );

/** The instruction's data with `bytes` written at `offset`. */
export function withData(ix: Instruction, offset: number, bytes: Uint8Array): Instruction {
  const data = Uint8Array.from(ix.data ?? []);
  data.set(bytes, offset);
  return { ...ix, data };
}

export const u64le = (value: bigint): Uint8Array => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
};

/** A fresh address nobody holds a key for. */
export const randomAddress = (): Address => getAddressDecoder().decode(crypto.getRandomValues(new Uint8Array(32)));

export function accountData(chain: WagerTestChain, address: Address): Uint8Array {
  const account = chain.runner.svm.getAccount(address);
  if (!account.exists) throw new Error(`no account at ${address}`);
  return Uint8Array.from(account.data);
}

/**
 * Writes an account directly (what no transaction could do): `data` owned by `owner`, rent-exempt
 * unless `lamports` says otherwise. Returns its address (a fresh one unless given).
 */
export function forgeAccount(
  chain: WagerTestChain,
  input: { owner: Address; data: Uint8Array; address?: Address; lamports?: bigint; executable?: boolean },
): Address {
  const address = input.address ?? randomAddress();
  const svm = chain.runner.svm;
  svm.setAccount({
    address,
    data: input.data,
    executable: input.executable ?? false,
    lamports: lamports(input.lamports ?? svm.minimumBalanceForRentExemption(BigInt(input.data.length))),
    programAddress: input.owner,
    space: BigInt(input.data.length),
  });
  return address;
}

/** Everything an account holds, comparable with toEqual (missing accounts included). */
export function snapshot(chain: WagerTestChain, addresses: readonly Address[]) {
  return addresses.map((address) => {
    const account = chain.runner.svm.getAccount(address);
    if (!account.exists) return { address, exists: false };
    return {
      address,
      exists: true,
      lamports: account.lamports,
      owner: account.programAddress,
      data: Buffer.from(account.data).toString('hex'),
    };
  });
}

/** The first program whose failure the logs report: the one that refused (CPI callers fail after it). */
export function refusingProgram(outcome: TransactionOutcome): string | undefined {
  for (const line of outcome.logs) {
    const match = /^Program (\w+) failed/.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

/**
 * The transaction failed, and it was the wager program itself that refused, with `error` (by IDL name):
 * an oracle or token error with the same number cannot pass for it.
 */
export function expectRefusedByWager(outcome: TransactionOutcome, error: string, instructionIndex?: number): void {
  const context = `${outcome.failure?.message}\n${outcome.logs.join('\n')}`;
  expect(outcome.ok, context).toBe(false);
  expect(errorNameOf(outcome), context).toBe(error);
  expect(refusingProgram(outcome), context).toBe(WAGER_PROGRAM_ADDRESS);
  if (instructionIndex !== undefined) expect(outcome.failure?.instructionIndex, context).toBe(instructionIndex);
}

export function expectOk(outcome: TransactionOutcome): void {
  expect(outcome.ok, `${outcome.failure?.message}\n${outcome.logs.join('\n')}`).toBe(true);
}

/** Installs `entries` (newest first) as the SlotHashes sysvar. Hashes as 32 raw bytes. */
export function setSlotHashes(chain: WagerTestChain, entries: readonly { slot: bigint; hash: Uint8Array }[]): void {
  const base58 = getBase58Decoder();
  // LiteSVM's SlotHash class has no public constructor; plain objects of the same shape are accepted.
  chain.runner.svm.setSlotHashes(entries.map(({ slot, hash }) => ({ slot, hash: base58.decode(hash) }) as SlotHash));
}
