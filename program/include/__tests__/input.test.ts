/**
 * sol/input.h on the real runtime: programs/input.c parses its serialized input with
 * sol_parse_input and reports what it found (accounts, instruction data, program id); it can also
 * write through one parsed account and read through another, to show which pointers are shared.
 */
import { AccountRole, generateKeyPairSigner, getAddressEncoder, lamports } from '@solana/kit';
import type { AccountMeta, Address } from '@solana/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSdkTestProgram, loadSdkTestProgram, reader } from './helpers/sdk-program.ts';
import type { SdkTestChain } from './helpers/sdk-program.ts';

/** Index value that makes programs/input.c skip its write and read. */
const NO_ACCOUNT = 0xff;
const PROGRAM_ID_AT = 17;

let bytes: Uint8Array;
beforeAll(async () => {
  bytes = await buildSdkTestProgram('input.c');
});

const addressBytes = (address: Address) => Uint8Array.from(getAddressEncoder().encode(address));

/** An account owned by the test program (so it may write its data), holding `data`. */
async function programAccount(chain: SdkTestChain, data: Uint8Array): Promise<Address> {
  const { address } = await generateKeyPairSigner();
  chain.runner.svm.setAccount({
    address,
    data,
    executable: false,
    lamports: lamports(chain.runner.svm.minimumBalanceForRentExemption(BigInt(data.length))),
    programAddress: chain.program,
    space: BigInt(data.length),
  });
  return address;
}

const writable = (address: Address): AccountMeta => ({ address, role: AccountRole.WRITABLE });

interface Request {
  capacity: number;
  writeIndex?: number;
  readIndex?: number;
  value?: number;
  /** Bytes after the 4-byte header; echoed back by the program. */
  extra?: readonly number[];
}

interface Parsed {
  parsed: boolean;
  accountCount: bigint;
  dataLength: bigint;
  programId: Uint8Array;
  read: number;
  shared: { key: boolean; lamports: boolean; data: boolean; owner: boolean };
  keys: Uint8Array[];
  data: Uint8Array;
}

const instructionData = ({
  capacity,
  writeIndex = NO_ACCOUNT,
  readIndex = NO_ACCOUNT,
  value = 0,
  extra = [],
}: Request) => Uint8Array.from([capacity, writeIndex, readIndex, value, ...extra]);

/** Runs programs/input.c with `accounts` and decodes its report. */
async function parse(
  chain: SdkTestChain,
  accounts: readonly AccountMeta[],
  request: Request,
): Promise<Parsed> {
  const returned = await chain.returnData(instructionData(request), accounts);
  const r = reader(returned);
  const accountCount = r.u64(1);
  const dataLength = r.u64(9);
  const filled = Math.min(Number(accountCount), request.capacity);
  const shared = r.u8(PROGRAM_ID_AT + 33);
  const keysAt = PROGRAM_ID_AT + 34;
  expect(returned.length, 'report size').toBe(keysAt + filled * 32 + Number(dataLength));
  return {
    parsed: r.u8(0) === 1,
    accountCount,
    dataLength,
    programId: r.bytes(PROGRAM_ID_AT, 32),
    read: r.u8(PROGRAM_ID_AT + 32),
    shared: { key: !!(shared & 1), lamports: !!(shared & 2), data: !!(shared & 4), owner: !!(shared & 8) },
    keys: Array.from({ length: filled }, (_, i) => r.bytes(keysAt + i * 32, 32)),
    data: r.bytes(keysAt + filled * 32, Number(dataLength)),
  };
}

const accountData = (chain: SdkTestChain, address: Address) => {
  const account = chain.runner.svm.getAccount(address);
  if (!account.exists) throw new Error(`account ${address} does not exist`);
  return account.data;
};

describe('sol_parse_input, run in LiteSVM', () => {
  it('finds the instruction data and the program id of an invocation without accounts', async () => {
    const chain = await loadSdkTestProgram(bytes);
    const request = { capacity: 0, extra: [...new TextEncoder().encode('instruction data')] };
    const report = await parse(chain, [], request);
    expect(report.parsed).toBe(true);
    expect(report.accountCount).toBe(0n);
    expect(report.data).toEqual(instructionData(request));
    expect(report.programId).toEqual(addressBytes(chain.program));
  });

  it('finds every account, the instruction data and the program id past accounts of odd data sizes', async () => {
    const chain = await loadSdkTestProgram(bytes);
    // 3 and 1001 bytes: each account's data is followed by 10 KiB of room and padding to 8 bytes.
    const accounts = [
      await programAccount(chain, Uint8Array.from([1, 2, 3])),
      await programAccount(chain, new Uint8Array(0)),
      await programAccount(chain, new Uint8Array(1001).fill(7)),
    ];
    const request = { capacity: 8, extra: Array.from({ length: 37 }, (_, i) => i * 3) };
    const report = await parse(chain, accounts.map(writable), request);
    expect(report.parsed).toBe(true);
    expect(report.accountCount).toBe(3n);
    expect(report.keys).toEqual(accounts.map(addressBytes));
    expect(report.data).toEqual(instructionData(request));
    expect(report.programId).toEqual(addressBytes(chain.program));
  });

  it('makes a duplicate account share the first one: a write through one is read through the other', async () => {
    const chain = await loadSdkTestProgram(bytes);
    const first = await programAccount(chain, Uint8Array.from([0x11, 0, 0]));
    const other = await programAccount(chain, Uint8Array.from([0x22]));
    // `first` again at position 2: the runtime serializes it as a duplicate marker pointing at 0.
    const accounts = [writable(first), writable(other), writable(first)];

    const duplicate = await parse(chain, accounts, { capacity: 3, writeIndex: 2, readIndex: 0, value: 0x5a });
    expect(duplicate.parsed).toBe(true);
    expect(duplicate.accountCount).toBe(3n);
    expect(duplicate.keys).toEqual([addressBytes(first), addressBytes(other), addressBytes(first)]);
    expect(duplicate.shared).toEqual({ key: true, lamports: true, data: true, owner: true });
    expect(duplicate.read).toBe(0x5a);
    expect(accountData(chain, first)[0]).toBe(0x5a);

    // Control: two different accounts share nothing, and the write lands on the other account.
    const distinct = await parse(chain, accounts, { capacity: 3, writeIndex: 1, readIndex: 0, value: 0x6b });
    expect(distinct.shared).toEqual({ key: false, lamports: false, data: false, owner: false });
    expect(distinct.read).toBe(0x5a);
    expect(accountData(chain, other)[0]).toBe(0x6b);
  });

  it('refuses more accounts than its capacity, still finding the instruction data and the program id', async () => {
    const chain = await loadSdkTestProgram(bytes);
    const accounts = [
      await programAccount(chain, new Uint8Array(40)),
      await programAccount(chain, new Uint8Array(5)),
      await programAccount(chain, new Uint8Array(300)),
    ];
    const request = { capacity: 2, extra: [9, 8, 7] };
    const tooMany = await parse(chain, accounts.map(writable), request);
    expect(tooMany.parsed).toBe(false);
    expect(tooMany.accountCount).toBe(3n);
    expect(tooMany.keys).toEqual(accounts.slice(0, 2).map(addressBytes));
    expect(tooMany.data).toEqual(instructionData(request));
    expect(tooMany.programId).toEqual(addressBytes(chain.program));

    expect((await parse(chain, accounts.map(writable), { ...request, capacity: 3 })).parsed).toBe(true);
    // A duplicate counts too: [a, b, a] is three accounts.
    const withDuplicate = [accounts[0]!, accounts[1]!, accounts[0]!].map(writable);
    expect((await parse(chain, withDuplicate, request)).parsed).toBe(false);
    expect((await parse(chain, [], { capacity: 0 })).parsed).toBe(true);
    expect((await parse(chain, [writable(accounts[0]!)], { capacity: 0 })).parsed).toBe(false);
  });
});
