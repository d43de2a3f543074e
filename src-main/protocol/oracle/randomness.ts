/**
 * Randomness of the local oracle: a fulfilment authority's ed25519 signature over the request seed.
 * Producing it needs the authority's private key; checking it needs only the authority's address.
 */
import {
  getAddressEncoder,
  getPublicKeyFromAddress,
  signBytes,
  verifySignature,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type ReadonlyUint8Array,
  type SignatureBytes,
} from '@solana/kit';
import { getFulfillInstructionAsync } from '../generated/oracle';
import { getEd25519VerifyInstruction } from './ed25519-instruction';

/** The 64 bytes of randomness `authority` produces for `seed`: its signature over the seed. */
export async function signRandomness(authority: KeyPairSigner, seed: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await signBytes(authority.keyPair.privateKey, seed));
}

/**
 * True when `randomness` is `authority`'s signature over `seed`: anyone can check a fulfilled request
 * offline with the authority's public key (its address).
 */
export async function verifyRandomness(
  authority: Address,
  seed: ReadonlyUint8Array,
  randomness: ReadonlyUint8Array,
): Promise<boolean> {
  if (randomness.length !== 64) return false;
  const publicKey = await getPublicKeyFromAddress(authority);
  return verifySignature(publicKey, randomness as SignatureBytes, seed);
}

/**
 * The first of `authorities` whose signature over `seed` is `randomness`, or undefined: verification when
 * the fulfilling authority is not known in advance (read the candidates from the NetworkState).
 */
export async function findFulfillingAuthority(
  authorities: readonly Address[],
  seed: ReadonlyUint8Array,
  randomness: ReadonlyUint8Array,
): Promise<Address | undefined> {
  for (const authority of authorities) if (await verifyRandomness(authority, seed, randomness)) return authority;
  return undefined;
}

export interface FulfillRandomnessInput {
  authority: KeyPairSigner;
  request: Address;
  seed: Uint8Array;
  /** Defaults to the authority's signature over the seed (the only value the oracle accepts). */
  randomness?: Uint8Array;
  /** The oracle's program id (default: the local oracle's), e.g. ORAO's address on a bare localnet. */
  oracleProgram?: Address;
}

/** The two instructions that fulfil a request: the Ed25519 precompile check, then the oracle's fulfill. */
export async function getFulfillRandomnessInstructions(input: FulfillRandomnessInput): Promise<Instruction[]> {
  const randomness = input.randomness ?? (await signRandomness(input.authority, input.seed));
  const publicKey = new Uint8Array(getAddressEncoder().encode(input.authority.address));
  const fulfill = await getFulfillInstructionAsync(
    { authority: input.authority, request: input.request, randomness },
    input.oracleProgram ? { programAddress: input.oracleProgram } : undefined,
  );
  return [getEd25519VerifyInstruction({ publicKey, message: input.seed, signature: randomness }), fulfill];
}
