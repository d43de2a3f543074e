/**
 * The pure parts of deploying a program: what the upgradeable loader's instructions and accounts look
 * like byte for byte (as Agave's bincode has them), which chunks a buffer still lacks, when program data
 * holds a build, and how much an upgrade must extend it by.
 */
import { generateKeyPairSigner, getAddressEncoder, type Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { chunksMissing, extensionFor, holdsProgram, MINIMUM_EXTEND_PROGRAM_BYTES } from '../program-deployer';
import {
  BPF_LOADER_UPGRADEABLE_ADDRESS,
  decodeUpgradeableLoaderAccount,
  getCloseInstruction,
  getExtendProgramCheckedInstruction,
  getExtendProgramInstruction,
  getUpgradeInstruction,
} from '../upgradeable-loader';

const u32 = (value: number) => [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >>> 24];
const addressBytes = (address: Address) => Array.from(getAddressEncoder().encode(address));

describe('upgradeable loader instructions', () => {
  it('Upgrade, Close, ExtendProgram and ExtendProgramChecked carry their bincode tags, arguments and accounts', async () => {
    const [authority, payer, ...others] = await Promise.all(Array.from({ length: 5 }, () => generateKeyPairSigner()));
    const [programData, program, buffer] = others.map((signer) => signer.address);
    const upgrade = getUpgradeInstruction({ programData: programData!, program: program!, buffer: buffer!, spill: payer!.address, authority: authority! });
    expect(upgrade.programAddress).toBe(BPF_LOADER_UPGRADEABLE_ADDRESS);
    expect(Array.from(upgrade.data!)).toEqual(u32(3));
    expect(upgrade.accounts).toHaveLength(7);
    expect(upgrade.accounts![4]!.address).toBe('SysvarRent111111111111111111111111111111111');
    expect(upgrade.accounts![5]!.address).toBe('SysvarC1ock11111111111111111111111111111111');

    const close = getCloseInstruction({ account: buffer!, recipient: payer!.address, authority: authority! });
    expect(Array.from(close.data!)).toEqual(u32(5));
    expect(close.accounts).toHaveLength(3);
    expect(getCloseInstruction({ account: programData!, recipient: payer!.address, authority: authority!, program: program! }).accounts).toHaveLength(4);

    const extend = getExtendProgramInstruction({ programData: programData!, program: program!, payer: payer!, additionalBytes: 10_240 });
    expect(Array.from(extend.data!)).toEqual([...u32(6), ...u32(10_240)]);
    expect(extend.accounts!.map((a) => a.address)).toEqual([programData, program, '11111111111111111111111111111111', payer!.address]);
    const checked = getExtendProgramCheckedInstruction({ programData: programData!, program: program!, payer: payer!, authority: authority!, additionalBytes: 10_240 });
    expect(Array.from(checked.data!)).toEqual([...u32(9), ...u32(10_240)]);
    expect(checked.accounts!.map((a) => a.address)).toEqual([programData, program, authority!.address, '11111111111111111111111111111111', payer!.address]);
  });
});

describe('upgradeable loader accounts', () => {
  it('decodes a buffer, a program and program data', async () => {
    const { address: authority } = await generateKeyPairSigner();
    const buffer = Uint8Array.from([...u32(1), 1, ...addressBytes(authority), 7, 8, 9]);
    expect(decodeUpgradeableLoaderAccount(buffer)).toEqual({ kind: 'buffer', authority, bytes: Uint8Array.from([7, 8, 9]) });
    expect(decodeUpgradeableLoaderAccount(Uint8Array.from([...u32(2), ...addressBytes(authority)]))).toEqual({ kind: 'program', programData: authority });
    const programData = Uint8Array.from([...u32(3), 42, 0, 0, 0, 0, 0, 0, 0, 0, ...new Array(32).fill(0), 5]);
    expect(decodeUpgradeableLoaderAccount(programData)).toEqual({ kind: 'programData', slot: 42n, upgradeAuthority: null, bytes: Uint8Array.from([5]) });
    expect(decodeUpgradeableLoaderAccount(Uint8Array.from(u32(0)))).toEqual({ kind: 'uninitialized' });
    expect(() => decodeUpgradeableLoaderAccount(Uint8Array.from(u32(7)))).toThrow(/not an upgradeable loader account/);
  });
});

describe('what a deploy still has to do', () => {
  it('finds the chunks a buffer lacks (a zero chunk of the build is already there in a fresh buffer)', () => {
    const build = Uint8Array.from({ length: 25 }, (_, i) => (i >= 10 && i < 20 ? 0 : i + 1));
    expect(chunksMissing(new Uint8Array(25), build, 10)).toEqual([0, 2]);
    const half = new Uint8Array(25);
    half.set(build.subarray(0, 10));
    expect(chunksMissing(half, build, 10)).toEqual([2]);
    expect(chunksMissing(build, build, 10)).toEqual([]);
  });

  it('program data holds a build when its bytes start with it and the rest is zero', () => {
    const build = Uint8Array.from([1, 2, 3]);
    expect(holdsProgram(Uint8Array.from([1, 2, 3]), build)).toBe(true);
    expect(holdsProgram(Uint8Array.from([1, 2, 3, 0, 0]), build)).toBe(true);
    expect(holdsProgram(Uint8Array.from([1, 2, 3, 4]), build)).toBe(false);
    expect(holdsProgram(Uint8Array.from([1, 2]), build)).toBe(false);
  });

  it('extends program data only when the build is larger, by at least the runtime minimum', () => {
    expect(extensionFor(70_928, 70_000)).toBe(0);
    expect(extensionFor(70_928, 75_024)).toBe(MINIMUM_EXTEND_PROGRAM_BYTES);
    expect(extensionFor(70_928, 100_000)).toBe(100_000 - 70_928);
    expect(() => extensionFor(70_928, 11 * 1024 * 1024)).toThrow(/does not fit/);
  });
});
