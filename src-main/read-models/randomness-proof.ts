/**
 * The proof that a fulfilled wager drew what it should have: the randomness from its oracle request
 * account (it stays after settlement), the fulfilment authority whose Ed25519 signature over the seed it
 * is (read from the oracle's NetworkState), a verdict in words, the draw worked out with the program's own
 * arithmetic (draw-bucket.ts), and the `verify-randomness` command line that checks it offline.
 */
import { getBase64Encoder, type Address, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { Buffer } from 'node:buffer';
import {
  fulfilledRandomness,
  findFulfillingAuthority,
  findNetworkStatePda,
  getNetworkStateDecoder,
} from '../protocol/oracle';
import { formatUsdcAmount } from '../protocol/usdc-amount';
import { drawBucket, payoutFor, type PaytableBuckets } from '../protocol/wager';

const hex = (bytes: ArrayLike<number>): string => Buffer.from(Uint8Array.from(bytes)).toString('hex');

async function accountData(rpc: Rpc<SolanaRpcApi>, key: Address) {
  const { value } = await rpc.getAccountInfo(key, { encoding: 'base64' }).send();
  return value ? getBase64Encoder().encode(value.data[0]) : null;
}

/** "1.5×" from basis points (10 000 = 1×). */
export const multiplierText = (bps: number): string => `${(bps / 10_000).toString()}×`;

export interface RandomnessProof {
  seed: string;
  randomnessHex: string;
  /** The authority whose signature the randomness is, or null when none of the oracle's verifies it. */
  fulfilmentAuthority: string | null;
  randomnessVerified: boolean;
  verdict: string;
  drawnBucket: number | null;
  /** randomness → point → bucket → multiplier → payout, in words. */
  draw: string | null;
  payoutDue: bigint | null;
  verifyWith: string;
}

export interface ProofInput {
  seed: Uint8Array;
  oracleRequest: Address;
  oracleProgram: Address;
  /** The paytable the wager was opened with, and its stake, to work out the draw. */
  paytable: (PaytableBuckets & { name: string }) | null;
  stake: bigint;
  /** How verify-randomness finds the oracle again: `--rpc URL` plus a deployment or oracle flag. */
  verifyFlags: string;
}

/** Null while the request account holds no randomness (not fulfilled yet, or closed). */
export async function proveRandomness(
  rpc: Rpc<SolanaRpcApi>,
  input: ProofInput,
): Promise<RandomnessProof | null> {
  const request = await accountData(rpc, input.oracleRequest);
  const randomness = request ? fulfilledRandomness(request) : null;
  if (!randomness) return null;
  const network = await accountData(
    rpc,
    (await findNetworkStatePda({ programAddress: input.oracleProgram }))[0],
  );
  const authorities = network ? getNetworkStateDecoder().decode(network).fulfillmentAuthorities : [];
  const authority = (await findFulfillingAuthority(authorities, input.seed, randomness)) ?? null;
  const seed = hex(input.seed);
  const randomnessHex = hex(randomness);
  const verdict = authority
    ? `Verified: signed by the oracle's fulfilment authority ${authority}`
    : `Does not verify: the randomness is not the signature over the seed of any of the oracle's ${authorities.length} fulfilment authorities`;
  let drawnBucket: number | null = null;
  let draw: string | null = null;
  let payoutDue: bigint | null = null;
  if (input.paytable) {
    const table = input.paytable;
    drawnBucket = drawBucket(table, randomness);
    const r = new DataView(randomness.buffer, randomness.byteOffset, 8).getBigUint64(0, true);
    const point = (r * table.totalWeight) >> 64n;
    const before = table.buckets.slice(0, drawnBucket).reduce((sum, b) => sum + b.weight, 0);
    const bucket = table.buckets[drawnBucket]!;
    payoutDue = payoutFor(input.stake, bucket.multiplierBps);
    draw =
      `The randomness's first 8 bytes read as ${r} (u64, little-endian); ${r} × ${table.totalWeight} (the total weight of ${table.name}) ÷ 2^64 = point ${point}; ` +
      `bucket ${drawnBucket} holds points ${before} to ${before + bucket.weight - 1} (weight ${bucket.weight}), so bucket ${drawnBucket} is drawn; ` +
      `its multiplier ${multiplierText(bucket.multiplierBps)} on a stake of ${formatUsdcAmount(input.stake)} USDC pays ${formatUsdcAmount(payoutDue)} USDC.`;
  }
  return {
    seed,
    randomnessHex,
    fulfilmentAuthority: authority,
    randomnessVerified: authority !== null,
    verdict,
    drawnBucket,
    draw,
    payoutDue,
    verifyWith: `npx wager-keeper verify-randomness ${input.verifyFlags} --seed ${seed} --randomness ${randomnessHex}`,
  };
}
