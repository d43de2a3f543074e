/**
 * sol/math.h on the real runtime: programs/math.c runs sol_mul_u64, sol_div_u128_u64,
 * sol_mul_div_floor and sol_add_checked over many records per transaction, and every result is
 * compared with BigInt arithmetic, on edge values and on seeded random ones.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSdkTestProgram, loadSdkTestProgram, reader, u64s } from './helpers/sdk-program.ts';
import type { SdkTestChain } from './helpers/sdk-program.ts';

const U64_MAX = (1n << 64n) - 1n;

/** How programs/math.c encodes each operation: record words in, result bytes out. */
const OPS = {
  mul: { code: 0, words: 2, resultSize: 16 },
  div: { code: 1, words: 3, resultSize: 9 },
  mulDiv: { code: 2, words: 3, resultSize: 9 },
  add: { code: 3, words: 2, resultSize: 9 },
} as const;
type OpName = keyof typeof OPS;

/** Instruction data bytes per transaction: leaves room for signature, keys and blockhash under 1232. */
const MAX_DATA_PER_TRANSACTION = 1000;
const MAX_RETURN_DATA = 1024;

let chain: SdkTestChain;
beforeAll(async () => {
  chain = await loadSdkTestProgram(await buildSdkTestProgram('math.c'));
});

/** A result the way the test compares it: the value only counts when the function reported success. */
type Checked = { ok: true; value: bigint } | { ok: false };
const checked = (ok: boolean, value: bigint): Checked => (ok ? { ok, value } : { ok });

/** Runs `op` on every record (as few transactions as the size limits allow); raw result bytes per record. */
async function run(op: OpName, records: readonly (readonly bigint[])[]): Promise<Uint8Array[]> {
  const { code, words, resultSize } = OPS[op];
  const perTransaction = Math.min(
    Math.floor((MAX_DATA_PER_TRANSACTION - 1) / (words * 8)),
    Math.floor(MAX_RETURN_DATA / resultSize),
  );
  const results: Uint8Array[] = [];
  for (let start = 0; start < records.length; start += perTransaction) {
    const batch = records.slice(start, start + perTransaction);
    for (const record of batch) expect(record).toHaveLength(words);
    const data = Uint8Array.from([code, ...u64s(batch.flat())]);
    const returned = await chain.returnData(data);
    expect(returned.length).toBe(batch.length * resultSize);
    for (let i = 0; i < batch.length; i++) results.push(returned.slice(i * resultSize, (i + 1) * resultSize));
  }
  return results;
}

function decodeChecked(result: Uint8Array): Checked {
  const r = reader(result);
  expect(r.u8(0), 'the ok flag is a C bool').toBeLessThanOrEqual(1);
  return checked(r.u8(0) === 1, r.u64(1));
}

// Each runs its function on chain over every record, expects exactly what BigInt computes (inputs
// included, so a mismatch names its vector), and returns the on-chain results for further checks.

async function expectMulMatchesBigInt(pairs: readonly [bigint, bigint][]) {
  const results = await run('mul', pairs);
  const onChain = pairs.map(([a, b], i) => {
    const r = reader(results[i]!);
    return { a, b, product: { lo: r.u64(0), hi: r.u64(8) } };
  });
  expect(onChain).toEqual(
    pairs.map(([a, b]) => ({ a, b, product: { lo: (a * b) & U64_MAX, hi: (a * b) >> 64n } })),
  );
  return onChain;
}

/** Division records are (n.lo, n.hi, d). */
async function expectDivMatchesBigInt(records: readonly [bigint, bigint, bigint][]) {
  const results = await run('div', records);
  const onChain = records.map(([lo, hi, d], i) => ({ lo, hi, d, quotient: decodeChecked(results[i]!) }));
  expect(onChain).toEqual(
    records.map(([lo, hi, d]) => ({ lo, hi, d, quotient: floorDiv((hi << 64n) | lo, d) })),
  );
  return onChain;
}

async function expectMulDivMatchesBigInt(records: readonly [bigint, bigint, bigint][]) {
  const results = await run('mulDiv', records);
  const onChain = records.map(([a, b, d], i) => ({ a, b, d, result: decodeChecked(results[i]!) }));
  expect(onChain).toEqual(records.map(([a, b, d]) => ({ a, b, d, result: floorDiv(a * b, d) })));
  return onChain;
}

async function expectAddMatchesBigInt(pairs: readonly [bigint, bigint][]) {
  const results = await run('add', pairs);
  const onChain = pairs.map(([a, b], i) => ({ a, b, sum: decodeChecked(results[i]!) }));
  expect(onChain).toEqual(pairs.map(([a, b]) => ({ a, b, sum: checked(a + b <= U64_MAX, a + b) })));
  return onChain;
}

/** floor(n / d) when d is not 0 and the quotient fits in 64 bits. */
function floorDiv(n: bigint, d: bigint): Checked {
  if (d === 0n) return { ok: false };
  return checked(n / d <= U64_MAX, n / d);
}

/** Values where carries, shifts and 32-bit halves go wrong. */
const EDGES: readonly bigint[] = [
  0n,
  1n,
  2n,
  3n,
  (1n << 16n) + 1n,
  (1n << 32n) - 1n,
  1n << 32n,
  (1n << 32n) + 1n,
  10n ** 9n,
  1n << 48n,
  10n ** 18n,
  (1n << 63n) - 1n,
  1n << 63n,
  0xdeadbeefcafebaben,
  U64_MAX - 1n,
  U64_MAX,
];
const DIVISORS: readonly bigint[] = [
  0n,
  1n,
  2n,
  3n,
  (1n << 32n) - 1n,
  1n << 32n,
  10n ** 9n,
  1n << 63n,
  U64_MAX,
];
const pairsOf = (values: readonly bigint[]) =>
  values.flatMap((a) => values.map((b): [bigint, bigint] => [a, b]));

/** SplitMix64, seeded: the same "random" vectors on every run, so a failure can be replayed. */
function seededU64s(seed: bigint): () => bigint {
  let state = seed;
  const next = () => {
    state = (state + 0x9e3779b97f4a7c15n) & U64_MAX;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & U64_MAX;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & U64_MAX;
    return z ^ (z >> 31n);
  };
  // A random bit width first: uniform 64-bit values would almost never be small or make quotients fit.
  return () => next() & ((1n << (next() % 65n)) - 1n);
}
const RANDOM_COUNT = 200;
const randomTriples = (seed: bigint) => {
  const random = seededU64s(seed);
  return Array.from({ length: RANDOM_COUNT }, (): [bigint, bigint, bigint] => [random(), random(), random()]);
};

/** Random vectors must reach both the success and the refusal path, or they prove little. */
function expectBothOutcomes(results: readonly Checked[]): void {
  const fitting = results.filter((r) => r.ok).length;
  expect(fitting, 'results that fit').toBeGreaterThan(results.length / 10);
  expect(fitting, 'results that fit').toBeLessThan(results.length - results.length / 10);
}

describe('sol/math.h, run in LiteSVM', () => {
  it('128-bit multiply matches BigInt on edge values', async () => {
    const pairs = pairsOf(EDGES);
    const onChain = await expectMulMatchesBigInt(pairs);
    // Spot-check the model itself on the largest product: (2^64-1)^2 = 2^128 - 2^65 + 1.
    expect(onChain.find(({ a, b }) => a === U64_MAX && b === U64_MAX)?.product).toEqual({
      lo: 1n,
      hi: U64_MAX - 1n,
    });
  });

  it('128-bit multiply matches BigInt on 200 random values', async () => {
    const random = seededU64s(0x6d756cn);
    const pairs = Array.from({ length: RANDOM_COUNT }, (): [bigint, bigint] => [random(), random()]);
    await expectMulMatchesBigInt(pairs);
  });

  it('128/64 division floors like BigInt and refuses division by zero and quotients above 2^64-1', async () => {
    const records = EDGES.flatMap((hi) =>
      [0n, 1n, 1n << 63n, U64_MAX].flatMap((lo) =>
        // Around n.hi the quotient just fits (d = hi + 1) or just does not (d = hi).
        [...DIVISORS, hi, hi + 1n]
          .filter((d) => d <= U64_MAX)
          .map((d): [bigint, bigint, bigint] => [lo, hi, d]),
      ),
    );
    const onChain = await expectDivMatchesBigInt(records);
    const quotient = (lo: bigint, hi: bigint, d: bigint) =>
      onChain.find((r) => r.lo === lo && r.hi === hi && r.d === d)?.quotient;
    expect(quotient(1n, 0n, 0n)).toEqual({ ok: false });
    expect(quotient(0n, 1n, 1n)).toEqual({ ok: false }); // 2^64 / 1 does not fit
    expect(quotient(0n, 1n, 2n)).toEqual({ ok: true, value: 1n << 63n });
    expect(quotient(U64_MAX, U64_MAX - 1n, U64_MAX)).toEqual({ ok: true, value: U64_MAX });
  });

  it('128/64 division matches BigInt on 200 random values, fitting or not', async () => {
    const onChain = await expectDivMatchesBigInt(randomTriples(0x646976n));
    expectBothOutcomes(onChain.map((r) => r.quotient));
  });

  it('mul-div floors a * b / d through 128 bits like BigInt, refusing d = 0 and results above 2^64-1', async () => {
    const operands = [0n, 1n, 3n, (1n << 32n) + 1n, 10n ** 9n, 10n ** 18n, 1n << 63n, U64_MAX - 1n, U64_MAX];
    const records = pairsOf(operands).flatMap(([a, b]) =>
      [0n, 1n, 2n, 1n << 32n, 10n ** 9n, 1n << 63n, U64_MAX - 1n, U64_MAX].map(
        (d): [bigint, bigint, bigint] => [a, b, d],
      ),
    );
    const onChain = await expectMulDivMatchesBigInt(records);
    const result = (a: bigint, b: bigint, d: bigint) =>
      onChain.find((r) => r.a === a && r.b === b && r.d === d)?.result;
    expect(result(U64_MAX, U64_MAX, U64_MAX)).toEqual({ ok: true, value: U64_MAX });
    expect(result(U64_MAX, U64_MAX, U64_MAX - 1n)).toEqual({ ok: false });
    expect(result(10n ** 18n, 10n ** 18n, 10n ** 9n)).toEqual({ ok: false }); // 10^27 > 2^64
    expect(result(3n, 10n ** 18n, 10n ** 9n)).toEqual({ ok: true, value: 3n * 10n ** 9n });
    expect(result(0n, U64_MAX, 0n)).toEqual({ ok: false });
  });

  it('mul-div matches BigInt on 200 random values', async () => {
    const onChain = await expectMulDivMatchesBigInt(randomTriples(0x6d756c646976n));
    expectBothOutcomes(onChain.map((r) => r.result));
  });

  it('checked add sums like BigInt and reports overflow instead of wrapping', async () => {
    const random = seededU64s(0x616464n);
    // Random values of random width rarely overflow: add pairs of large values too.
    const large = () => U64_MAX - random();
    const pairs: [bigint, bigint][] = [
      ...pairsOf(EDGES),
      ...Array.from({ length: RANDOM_COUNT / 2 }, (): [bigint, bigint] => [random(), random()]),
      ...Array.from({ length: RANDOM_COUNT / 2 }, (): [bigint, bigint] => [large(), large()]),
    ];
    const onChain = await expectAddMatchesBigInt(pairs);
    const sum = (a: bigint, b: bigint) => onChain.find((r) => r.a === a && r.b === b)?.sum;
    expect(sum(U64_MAX, 0n)).toEqual({ ok: true, value: U64_MAX });
    expect(sum(U64_MAX, 1n)).toEqual({ ok: false });
    expect(sum(1n << 63n, 1n << 63n)).toEqual({ ok: false });
  });
});
