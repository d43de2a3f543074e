/**
 * The oracle seed: fixed vectors check the TypeScript derivation against the encoding spelled out byte by
 * byte (computed here with node:crypto, without the kit codecs), and live wagers check the program's
 * derivation against TypeScript for the s* and h* actually sent. Then every way to pick s*, h*, the
 * oracle request or the oracle program other than the honest one, and the request window's edges.
 */
import { getBase58Encoder, getProgramDerivedAddress, type Address } from '@solana/kit';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { findRandomnessRequestPda } from '../../../src-main/protocol/generated/oracle';
import {
  WAGER_PROGRAM_ADDRESS,
  deriveOracleSeed,
  findFirstSlotHashAfter,
  getRequestRandomnessInstructionAsync,
} from '../../../src-main/protocol/wager';
import vectorsFile from './fixtures/oracle-seed-vectors.json';
import { expectOk, expectRefusedByWager, randomAddress, setSlotHashes, snapshot } from './helpers/tamper';
import { createWagerTestChain, lamportsOf, openWager, readWager, type WagerTestChain } from './wager-test-chain';

// ---- The encoding, spelled out --------------------------------------------------------------------

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A 32-byte public key from base58, written out (leading '1's are leading zero bytes). */
function publicKeyBytes(text: string): Buffer {
  let n = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) throw new Error(`not base58: ${text}`);
    n = n * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  for (; n > 0n; n >>= 8n) bytes.unshift(Number(n & 0xffn));
  for (let i = 0; i < text.length && text[i] === '1'; i++) bytes.unshift(0);
  if (bytes.length !== 32) throw new Error(`${text} is ${bytes.length} bytes, not 32`);
  return Buffer.from(bytes);
}

function u64LittleEndian(value: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(value);
  return bytes;
}

interface SeedInput {
  programAddress: string;
  wager: string;
  openSlot: bigint;
  sStar: bigint;
  hStar: Uint8Array;
}

/** ASCII "SVC/ORACLE-SEED/v1" ‖ program (32) ‖ wager (32) ‖ open slot (u64 LE) ‖ s* (u64 LE) ‖ h* (32). */
function preimageOf(input: SeedInput): Buffer {
  if (input.hStar.length !== 32) throw new Error('h* must be 32 bytes');
  return Buffer.concat([
    Buffer.from('SVC/ORACLE-SEED/v1', 'ascii'),
    publicKeyBytes(input.programAddress),
    publicKeyBytes(input.wager),
    u64LittleEndian(input.openSlot),
    u64LittleEndian(input.sStar),
    Buffer.from(input.hStar),
  ]);
}

const independentSeed = (input: SeedInput): string => createHash('sha256').update(preimageOf(input)).digest('hex');
const hex = (bytes: ArrayLike<number>): string => Buffer.from(Uint8Array.from(bytes)).toString('hex');

interface Vector {
  name: string;
  programAddress: string;
  wager: string;
  openSlot: string;
  sStar: string;
  hStar: string;
  preimage: string;
  seed: string;
}
const vectors: Vector[] = vectorsFile.vectors;
const inputOf = (v: Vector): SeedInput => ({
  programAddress: v.programAddress,
  wager: v.wager,
  openSlot: BigInt(v.openSlot),
  sStar: BigInt(v.sStar),
  hStar: Buffer.from(v.hStar, 'hex'),
});
const deriveFor = (input: SeedInput): string =>
  hex(deriveOracleSeed({ ...input, programAddress: input.programAddress as Address, wager: input.wager as Address }));

describe('oracle seed: fixed vectors', () => {
  it('the fixture holds at least five vectors, with distinct seeds', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(5);
    expect(new Set(vectors.map((v) => v.seed)).size).toBe(vectors.length);
  });

  const named = vectors.map((vector) => [vector.name, vector] as const);

  it.each(named)('%s: the preimage is the spelled-out byte string and hashes to the fixture seed', (_name, vector) => {
    const preimage = preimageOf(inputOf(vector));
    expect(preimage.length).toBe(18 + 32 + 32 + 8 + 8 + 32);
    expect(preimage.toString('hex')).toBe(vector.preimage);
    expect(independentSeed(inputOf(vector))).toBe(vector.seed);
  });

  it.each(named)('%s: deriveOracleSeed gives the fixture seed', (_name, vector) => {
    expect(deriveFor(inputOf(vector))).toBe(vector.seed);
  });

  it('changing any one input changes the seed', () => {
    const base = inputOf(vectors[0]!);
    const flipped = Uint8Array.from(base.hStar);
    flipped[31]! ^= 1;
    const variants: SeedInput[] = [
      { ...base, programAddress: vectors[5]!.programAddress },
      { ...base, wager: vectors[1]!.wager },
      { ...base, openSlot: base.openSlot + 1n },
      { ...base, sStar: base.sStar + 1n },
      { ...base, hStar: flipped },
      // open slot and s* swapped: the order of the two slots is part of the encoding
      { ...base, openSlot: base.sStar, sStar: base.openSlot },
    ];
    const seeds = new Set([deriveFor(base), ...variants.map(deriveFor)]);
    expect(seeds.size).toBe(variants.length + 1);
  });

  it('an h* that is not 32 bytes is refused by deriveOracleSeed instead of hashed', () => {
    const input = inputOf(vectors[0]!);
    expect(() => deriveFor({ ...input, hStar: input.hStar.slice(0, 31) })).toThrow(/32 bytes/);
  });
});

// ---- On chain ---------------------------------------------------------------------------------------

/** The hash SlotHashes holds for `slot` (raw bytes), if any. */
function hashAt(chain: WagerTestChain, slot: bigint): Uint8Array | undefined {
  const entry = chain.runner.svm.getSlotHashes().find((e) => e.slot === slot);
  return entry ? Uint8Array.from(getBase58Encoder().encode(entry.hash)) : undefined;
}

function mustHashAt(chain: WagerTestChain, slot: bigint): Uint8Array {
  const hash = hashAt(chain, slot);
  if (!hash) throw new Error(`no SlotHashes entry for slot ${slot}`);
  return hash;
}

function openSlotOf(chain: WagerTestChain, wager: Address): bigint {
  const record = readWager(chain, wager);
  if (!record) throw new Error(`no wager at ${wager}`);
  return record.openSlot;
}

async function openOk(chain: WagerTestChain) {
  const opened = await openWager(chain);
  expectOk(opened.outcome);
  return { ...opened, openSlot: openSlotOf(chain, opened.wager) };
}

interface RequestChoice {
  sStar: bigint;
  hStar: Uint8Array;
  /** Defaults to the oracle's PDA of the seed derived from sStar / hStar. */
  oracleRequest?: Address;
  oracleProgram?: Address;
}

/** request_randomness with s*, h* and accounts chosen by the test (not by the keeper helpers). */
async function buildRequest(chain: WagerTestChain, wager: Address, choice: RequestChoice) {
  const record = readWager(chain, wager);
  if (!record) throw new Error(`no wager at ${wager}`);
  const seed = deriveOracleSeed({ programAddress: WAGER_PROGRAM_ADDRESS, wager, openSlot: record.openSlot, sStar: choice.sStar, hStar: choice.hStar });
  const [pda, requestBump] = await findRandomnessRequestPda({ seed }, { programAddress: chain.oracle.programAddress });
  const oracleRequest = choice.oracleRequest ?? pda;
  const instruction = await getRequestRandomnessInstructionAsync({
    caller: chain.keeper,
    wager,
    wagerFees: record.feeAccount,
    oracleProgram: choice.oracleProgram ?? chain.oracle.programAddress,
    oracleNetworkState: chain.oracle.networkState,
    oracleTreasury: chain.oracle.treasury,
    oracleRequest,
    sStar: choice.sStar,
    hStar: choice.hStar,
    requestBump,
    slotHashIndex: 0, // no hint: the program walks from the newest entry, then searches
  });
  return { instruction, seed, oracleRequest };
}

async function requestWith(chain: WagerTestChain, wager: Address, choice: RequestChoice) {
  const built = await buildRequest(chain, wager, choice);
  return { ...built, outcome: await chain.runner.send(chain.keeper, [built.instruction]) };
}

/** What a refused request must leave alone: the wager, its fee account, the oracle request, the caller. */
function requestState(chain: WagerTestChain, wager: Address, oracleRequest: Address) {
  const record = readWager(chain, wager);
  return snapshot(chain, [wager, record?.feeAccount ?? wager, oracleRequest, chain.oracle.treasury]);
}

const EVENT_RANDOMNESS_REQUESTED = createHash('sha256').update('event:WagerRandomnessRequested').digest().subarray(0, 8);

/** The WagerRandomnessRequested event of a transaction: wager, oracle request, seed, s*. */
function randomnessRequestedEvent(logs: readonly string[]) {
  for (const line of logs) {
    const match = /^Program data: (\S+)$/.exec(line);
    if (!match) continue;
    const data = Buffer.from(match[1]!, 'base64');
    if (!data.subarray(0, 8).equals(EVENT_RANDOMNESS_REQUESTED)) continue;
    return {
      wager: data.subarray(8, 40),
      oracleRequest: data.subarray(40, 72),
      seed: hex(data.subarray(72, 104)),
      sStar: data.readBigUInt64LE(104),
    };
  }
  return undefined;
}

/** Checks everything the chain recorded for a request against the TypeScript and the spelled-out seed. */
async function expectRequestRecorded(
  chain: WagerTestChain,
  wager: Address,
  sent: { sStar: bigint; hStar: Uint8Array; logs: readonly string[] },
) {
  const record = readWager(chain, wager);
  expect(record?.status).toBe(2);
  const input = { programAddress: WAGER_PROGRAM_ADDRESS, wager, openSlot: record!.openSlot, sStar: sent.sStar, hStar: sent.hStar };
  const tsSeed = hex(deriveOracleSeed(input));
  expect(tsSeed).toBe(independentSeed(input));
  // The program's own derivation, as it stored it and as it told the oracle.
  expect(hex(record!.seed)).toBe(tsSeed);
  const [pda] = await getProgramDerivedAddress({
    programAddress: chain.oracle.programAddress,
    seeds: ['orao-vrf-randomness-request', Buffer.from(tsSeed, 'hex')],
  });
  expect(record!.oracleRequest).toBe(pda);
  const request = chain.runner.svm.getAccount(pda);
  expect(request.exists && request.programAddress).toBe(chain.oracle.programAddress);
  expect(request.exists && hex(request.data.subarray(41, 73))).toBe(tsSeed);
  const event = randomnessRequestedEvent(sent.logs);
  expect(event, sent.logs.join('\n')).toBeDefined();
  expect(event!.seed).toBe(tsSeed);
  expect(event!.sStar).toBe(sent.sStar);
  expect(event!.wager.equals(publicKeyBytes(wager))).toBe(true);
  expect(event!.oracleRequest.equals(publicKeyBytes(pda))).toBe(true);
}

describe('oracle seed on chain: the program derives the same seed as TypeScript', () => {
  let chain: WagerTestChain;
  beforeAll(async () => {
    chain = await createWagerTestChain();
  });

  it('a wager requested at open+2 stores the seed of (program, wager, open slot, open+1, its hash) and asks for its PDA', async () => {
    const { wager, openSlot } = await openOk(chain);
    chain.runner.advanceSlots(2);
    const sStar = openSlot + 1n;
    const hStar = mustHashAt(chain, sStar);
    const { outcome } = await requestWith(chain, wager, { sStar, hStar });
    expectOk(outcome);
    await expectRequestRecorded(chain, wager, { sStar, hStar, logs: outcome.logs });
  });

  it('three wagers opened in different slots each get the seed TypeScript derives for them', async () => {
    const opened = [];
    for (let i = 0; i < 3; i++) {
      opened.push(await openOk(chain));
      chain.runner.advanceSlots(1 + i);
    }
    chain.runner.advanceSlots(2);
    const seeds = new Set<string>();
    for (const { wager, openSlot } of opened) {
      const sStar = openSlot + 1n;
      const hStar = mustHashAt(chain, sStar);
      const { outcome, seed } = await requestWith(chain, wager, { sStar, hStar });
      expectOk(outcome);
      await expectRequestRecorded(chain, wager, { sStar, hStar, logs: outcome.logs });
      seeds.add(hex(seed));
    }
    expect(seeds.size).toBe(3);
  });

  it('when open+1 was skipped, open+2 is s*: accepted, and the seed follows it', async () => {
    const { wager, openSlot } = await openOk(chain);
    chain.runner.advanceSlots(4, new Set([openSlot + 1n]));
    expect(hashAt(chain, openSlot + 1n)).toBeUndefined();
    const picked = findFirstSlotHashAfter(chain.runner.svm.getSlotHashes(), openSlot);
    expect(picked?.sStar).toBe(openSlot + 2n);
    const sStar = openSlot + 2n;
    const hStar = mustHashAt(chain, sStar);
    const { outcome } = await requestWith(chain, wager, { sStar, hStar });
    expectOk(outcome);
    await expectRequestRecorded(chain, wager, { sStar, hStar, logs: outcome.logs });
  });
});

describe('oracle seed on chain: a request with the wrong s*, h*, oracle account or program is refused', () => {
  let chain: WagerTestChain;
  beforeAll(async () => {
    chain = await createWagerTestChain();
  });

  it('a later slot that has a hash but is not the first after the open is refused; the first is then accepted', async () => {
    const { wager, openSlot } = await openOk(chain);
    chain.runner.advanceSlots(4);
    for (const later of [openSlot + 2n, openSlot + 3n]) {
      const attempt = await requestWith(chain, wager, { sStar: later, hStar: mustHashAt(chain, later) });
      expectRefusedByWager(attempt.outcome, 'invalidSlotHash');
      expect(readWager(chain, wager)?.status).toBe(1);
      expect(chain.runner.svm.getAccount(attempt.oracleRequest).exists).toBe(false);
    }
    const honest = await requestWith(chain, wager, { sStar: openSlot + 1n, hStar: mustHashAt(chain, openSlot + 1n) });
    expectOk(honest.outcome);
  });

  it('a slot that SlotHashes does not hold is refused (the current slot, a future slot)', async () => {
    const { wager, openSlot } = await openOk(chain);
    chain.runner.advanceSlots(3);
    const fake = crypto.getRandomValues(new Uint8Array(32));
    for (const sStar of [chain.runner.slot(), openSlot + 1_000n]) {
      expect(hashAt(chain, sStar)).toBeUndefined();
      const attempt = await buildRequest(chain, wager, { sStar, hStar: fake });
      const before = requestState(chain, wager, attempt.oracleRequest);
      expectRefusedByWager(await chain.runner.send(chain.keeper, [attempt.instruction]), 'invalidSlotHash');
      expect(requestState(chain, wager, attempt.oracleRequest)).toEqual(before);
    }
  });

  it('s* at or before the open slot is refused, even with its real hash', async () => {
    const { wager, openSlot } = await openOk(chain);
    chain.runner.advanceSlots(3);
    for (const sStar of [openSlot, openSlot - 1n]) {
      const attempt = await requestWith(chain, wager, { sStar, hStar: mustHashAt(chain, sStar) });
      expectRefusedByWager(attempt.outcome, 'invalidSlotHash');
    }
    expect(readWager(chain, wager)?.status).toBe(1);
  });

  it('the right s* with a wrong h* (another slot\'s hash, one bit flipped) is refused', async () => {
    const { wager, openSlot } = await openOk(chain);
    chain.runner.advanceSlots(3);
    const sStar = openSlot + 1n;
    const real = mustHashAt(chain, sStar);
    const flipped = Uint8Array.from(real);
    flipped[0]! ^= 0x80;
    for (const hStar of [mustHashAt(chain, openSlot + 2n), flipped]) {
      const attempt = await requestWith(chain, wager, { sStar, hStar });
      expectRefusedByWager(attempt.outcome, 'invalidSlotHash');
    }
    expectOk((await requestWith(chain, wager, { sStar, hStar: real })).outcome);
  });

  it('with open+1 skipped, the slot after the first present one is still refused', async () => {
    const { wager, openSlot } = await openOk(chain);
    chain.runner.advanceSlots(5, new Set([openSlot + 1n]));
    const refused = await requestWith(chain, wager, { sStar: openSlot + 3n, hStar: mustHashAt(chain, openSlot + 3n) });
    expectRefusedByWager(refused.outcome, 'invalidSlotHash');
    // and the skipped slot itself, with any hash, is not in SlotHashes
    const skipped = await requestWith(chain, wager, { sStar: openSlot + 1n, hStar: mustHashAt(chain, openSlot + 2n) });
    expectRefusedByWager(skipped.outcome, 'invalidSlotHash');
    expectOk((await requestWith(chain, wager, { sStar: openSlot + 2n, hStar: mustHashAt(chain, openSlot + 2n) })).outcome);
  });

  it('an oracle request account that is the PDA of another seed, or no PDA at all, is refused', async () => {
    const { wager, openSlot } = await openOk(chain);
    chain.runner.advanceSlots(3);
    const sStar = openSlot + 1n;
    const hStar = mustHashAt(chain, sStar);
    const otherSeed = deriveOracleSeed({ programAddress: WAGER_PROGRAM_ADDRESS, wager, openSlot, sStar: openSlot + 2n, hStar: mustHashAt(chain, openSlot + 2n) });
    const [otherRequest] = await findRandomnessRequestPda({ seed: otherSeed }, { programAddress: chain.oracle.programAddress });
    const rightSeed = deriveOracleSeed({ programAddress: WAGER_PROGRAM_ADDRESS, wager, openSlot, sStar, hStar });
    // the right seed, but derived under the wager program instead of the oracle
    const [wrongProgramPda] = await findRandomnessRequestPda({ seed: rightSeed }, { programAddress: WAGER_PROGRAM_ADDRESS });
    for (const oracleRequest of [otherRequest, wrongProgramPda, randomAddress()]) {
      const before = requestState(chain, wager, oracleRequest);
      const attempt = await requestWith(chain, wager, { sStar, hStar, oracleRequest });
      expectRefusedByWager(attempt.outcome, 'invalidOracleAccount');
      expect(requestState(chain, wager, oracleRequest)).toEqual(before);
    }
    expectOk((await requestWith(chain, wager, { sStar, hStar })).outcome);
  });

  it('another program in place of the configured oracle (here the wager program itself) is refused', async () => {
    const { wager, openSlot } = await openOk(chain);
    chain.runner.advanceSlots(3);
    const sStar = openSlot + 1n;
    const hStar = mustHashAt(chain, sStar);
    const fees = readWager(chain, wager)!.feeAccount;
    const before = lamportsOf(chain, fees);
    const attempt = await requestWith(chain, wager, { sStar, hStar, oracleProgram: WAGER_PROGRAM_ADDRESS });
    expectRefusedByWager(attempt.outcome, 'invalidOracleProgram');
    expect(lamportsOf(chain, fees)).toBe(before);
    expect(readWager(chain, wager)?.status).toBe(1);
  });
});

describe('oracle seed on chain: SlotHashes that does not reach back to the open', () => {
  it('s* is refused when nothing at or before the open slot proves that the slots in between were skipped', async () => {
    const chain = await createWagerTestChain();
    const { wager, openSlot } = await openOk(chain);
    chain.runner.advanceSlots(4, new Set([openSlot + 1n]));
    const entries = chain.runner.svm.getSlotHashes().map((e) => ({ slot: e.slot, hash: Uint8Array.from(getBase58Encoder().encode(e.hash)) }));
    const sStar = openSlot + 2n;
    const hStar = mustHashAt(chain, sStar);
    // A sysvar cut off just after the open: open+1 missing, and no entry at or below the open.
    setSlotHashes(chain, entries.filter((e) => e.slot > openSlot));
    expect(findFirstSlotHashAfter(chain.runner.svm.getSlotHashes(), openSlot)).toBeNull();
    expectRefusedByWager((await requestWith(chain, wager, { sStar, hStar })).outcome, 'invalidSlotHash');
    // With the open slot's entry back, the same s* and h* are accepted.
    setSlotHashes(chain, entries.filter((e) => e.slot >= openSlot));
    expect(findFirstSlotHashAfter(chain.runner.svm.getSlotHashes(), openSlot)?.sStar).toBe(sStar);
    const accepted = await requestWith(chain, wager, { sStar, hStar });
    expectOk(accepted.outcome);
    await expectRequestRecorded(chain, wager, { sStar, hStar, logs: accepted.outcome.logs });
  });
});

describe('request window: from open+2 through open+T_SETTLE (150)', () => {
  it('open+1 is too early, open+2 and open+150 are accepted, open+151 is closed', async () => {
    const chain = await createWagerTestChain();
    const first = await openOk(chain);
    const second = await openOk(chain);
    const third = await openOk(chain);
    const openSlot = first.openSlot;
    expect([second.openSlot, third.openSlot]).toEqual([openSlot, openSlot]);
    const sStar = openSlot + 1n;

    chain.runner.advanceSlots(1);
    expect(chain.runner.slot()).toBe(openSlot + 1n);
    // the hash of open+1 does not exist yet: any h* will do, the window is checked first
    const early = await requestWith(chain, first.wager, { sStar, hStar: new Uint8Array(32).fill(7) });
    expectRefusedByWager(early.outcome, 'tooEarly');
    expect(readWager(chain, first.wager)?.status).toBe(1);

    chain.runner.advanceSlots(1);
    expect(chain.runner.slot()).toBe(openSlot + 2n);
    const hStar = mustHashAt(chain, sStar);
    expectOk((await requestWith(chain, first.wager, { sStar, hStar })).outcome);

    chain.runner.advanceSlots(148);
    expect(chain.runner.slot()).toBe(openSlot + 150n);
    expectOk((await requestWith(chain, second.wager, { sStar, hStar })).outcome);

    chain.runner.advanceSlots(1);
    expect(chain.runner.slot()).toBe(openSlot + 151n);
    const late = await requestWith(chain, third.wager, { sStar, hStar });
    expectRefusedByWager(late.outcome, 'requestWindowClosed');
    expect(readWager(chain, third.wager)?.status).toBe(1);
    expect(chain.runner.svm.getAccount(late.oracleRequest).exists).toBe(false);
  });
});
