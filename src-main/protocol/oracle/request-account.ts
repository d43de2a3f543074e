/**
 * The randomness of an oracle request account, whichever form the oracle wrote it in: ORAO VRF v2's
 * RandomnessV2 (what request_v2 creates, here and on ORAO), or ORAO's legacy v1 `Randomness`, which the
 * wager program also accepts at a wager's seed address when someone requested the seed with v1 first
 * (docs/wager-program.md, "Oracle request accounts"). Mirrors program/wager/oracle_request.c.
 */
import type { ReadonlyUint8Array } from '@solana/kit';
import { getRandomnessV2Decoder } from '../generated/oracle';

/** sha256("account:Randomness")[..8]: ORAO's legacy v1 request account. */
export const LEGACY_RANDOMNESS_DISCRIMINATOR = new Uint8Array([188, 96, 216, 248, 93, 94, 49, 112]);
/** Legacy layout: discriminator, seed [u8; 32] at 8..40, randomness [u8; 64] at 40..104 (zero until fulfilled). */
const LEGACY_RANDOMNESS_OFFSET = 40;
const RANDOMNESS_BYTES = 64;

const startsWith = (bytes: ReadonlyUint8Array, prefix: Uint8Array) =>
  prefix.every((byte, index) => bytes[index] === byte);

/** The 64 bytes of randomness once the request is fulfilled; null while pending or when not a request account. */
export function fulfilledRandomness(data: ReadonlyUint8Array): Uint8Array | null {
  if (startsWith(data, LEGACY_RANDOMNESS_DISCRIMINATOR)) {
    if (data.length < LEGACY_RANDOMNESS_OFFSET + RANDOMNESS_BYTES) return null;
    const randomness = data.slice(LEGACY_RANDOMNESS_OFFSET, LEGACY_RANDOMNESS_OFFSET + RANDOMNESS_BYTES);
    return randomness.some((byte) => byte !== 0) ? randomness : null;
  }
  try {
    const { request } = getRandomnessV2Decoder().decode(data);
    return request.__kind === 'Fulfilled' ? Uint8Array.from(request.randomness) : null;
  } catch {
    return null; // shorter than a fulfilled RandomnessV2, or not one at all
  }
}
