/**
 * sol/slot_hashes.h on the real runtime: programs/slot_hashes.c looks slots up in the SlotHashes
 * sysvar (set by the test with svm.setSlotHashes) and reports each index, entry slot and hash.
 */
import { getBase58Decoder } from '@solana/kit';
import type { SlotHash } from 'litesvm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSdkTestProgram, loadSdkTestProgram, reader, u64s } from './helpers/sdk-program.ts';
import type { SdkTestChain } from './helpers/sdk-program.ts';

/** What programs/slot_hashes.c returns per slot: index i64, entry slot u64, hash (32). */
const RESULT_SIZE = 48;
/** Slots per transaction: 8 + 21 * 48 bytes of return data fit in 1024. */
const SLOTS_PER_TRANSACTION = 21;
/** The most entries the SlotHashes sysvar holds. */
const MAX_ENTRIES = 512;

let bytes: Uint8Array;
beforeAll(async () => {
  bytes = await buildSdkTestProgram('slot_hashes.c');
});

interface Entry {
  slot: bigint;
  hash: Uint8Array;
}

/** A hash that names its slot, so a wrong entry cannot pass for the right one. */
function hashOf(slot: bigint): Uint8Array {
  const hash = new Uint8Array(32).fill(0xa5);
  new DataView(hash.buffer).setBigUint64(0, slot, true);
  hash[31] = Number(slot % 251n);
  return hash;
}

/** Entries for `slots` (given newest first), installed as the SlotHashes sysvar. */
function setSlotHashes(chain: SdkTestChain, slots: readonly bigint[]): Entry[] {
  const entries = slots.map((slot) => ({ slot, hash: hashOf(slot) }));
  const base58 = getBase58Decoder();
  // LiteSVM's SlotHash class has no constructor; plain objects of the same shape are accepted.
  const sysvar: SlotHash[] = entries.map(
    ({ slot, hash }) => ({ slot, hash: base58.decode(hash) }) as SlotHash,
  );
  chain.runner.svm.setSlotHashes(sysvar);
  return entries;
}

interface Lookup {
  slot: bigint;
  index: bigint;
  entry?: Entry;
}

/** Looks every slot up on chain; also returns the entry count the program read. */
async function lookUp(
  chain: SdkTestChain,
  slots: readonly bigint[],
): Promise<{ count: bigint; lookups: Lookup[] }> {
  const lookups: Lookup[] = [];
  let count = -1n;
  for (let start = 0; start < slots.length; start += SLOTS_PER_TRANSACTION) {
    const batch = slots.slice(start, start + SLOTS_PER_TRANSACTION);
    const returned = await chain.returnData(u64s(batch));
    expect(returned.length).toBe(8 + batch.length * RESULT_SIZE);
    const r = reader(returned);
    count = r.u64(0);
    batch.forEach((slot, i) => {
      const at = 8 + i * RESULT_SIZE;
      const index = r.i64(at);
      lookups.push(
        index < 0n
          ? { slot, index }
          : { slot, index, entry: { slot: r.u64(at + 8), hash: r.bytes(at + 16, 32) } },
      );
    });
  }
  return { count, lookups };
}

/** What the lookups must say: the entry and its position for present slots, -1 for the others. */
function expected(entries: readonly Entry[], slots: readonly bigint[]): Lookup[] {
  return slots.map((slot) => {
    const index = entries.findIndex((e) => e.slot === slot);
    return index < 0 ? { slot, index: -1n } : { slot, index: BigInt(index), entry: entries[index]! };
  });
}

const range = (from: bigint, to: bigint) =>
  Array.from({ length: Number(to - from + 1n) }, (_, i) => from + BigInt(i));

describe('sol_slot_hashes_find, run in LiteSVM', () => {
  it('finds present slots at their index and returns -1 for skipped, newer and older slots', async () => {
    const chain = await loadSdkTestProgram(bytes);
    // Newest first, with skipped slots (98, 95, 94, 91, ...) as on a real cluster.
    const slots = [100n, 99n, 97n, 96n, 93n, 92n, 90n, 86n, 85n, 84n, 80n, 79n, 75n];
    const entries = setSlotHashes(chain, slots);
    const queries = range(70n, 105n);
    const { count, lookups } = await lookUp(chain, queries);
    expect(count).toBe(BigInt(slots.length));
    expect(lookups).toEqual(expected(entries, queries));
    expect(lookups.filter((l) => l.index >= 0n)).toHaveLength(slots.length);
  });

  it('finds every slot of a full sysvar (512 entries) by binary search', async () => {
    const chain = await loadSdkTestProgram(bytes);
    // Every third slot skipped, newest first.
    const slots = Array.from({ length: MAX_ENTRIES }, (_, i) => 5_000n - BigInt(i + Math.floor(i / 2)));
    const entries = setSlotHashes(chain, slots);
    const oldest = slots.at(-1)!;
    const queries = [
      ...slots,
      oldest - 1n,
      5_001n,
      ...range(oldest, 5_000n)
        .filter((s) => !slots.includes(s))
        .slice(0, 40),
    ];
    const { count, lookups } = await lookUp(chain, queries);
    expect(count).toBe(BigInt(MAX_ENTRIES));
    expect(lookups).toEqual(expected(entries, queries));
  });

  it('finds nothing in an empty sysvar, and the one slot of a single-entry sysvar', async () => {
    const chain = await loadSdkTestProgram(bytes);
    setSlotHashes(chain, []);
    const empty = await lookUp(chain, [0n, 1n, 100n]);
    expect(empty.count).toBe(0n);
    expect(empty.lookups.map((l) => l.index)).toEqual([-1n, -1n, -1n]);

    const entries = setSlotHashes(chain, [42n]);
    const single = await lookUp(chain, [41n, 42n, 43n]);
    expect(single.count).toBe(1n);
    expect(single.lookups).toEqual(expected(entries, [41n, 42n, 43n]));
  });
});
