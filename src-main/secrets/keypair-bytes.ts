/**
 * Keypairs as Solana CLI keypair files hold them: 64 bytes, the 32-byte private key then the public key.
 * Used for dev keys of the local cluster and for `--keypair FILE`; never logged.
 */
import { createKeyPairSignerFromBytes, getAddressEncoder, type KeyPairSigner } from '@solana/kit';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';

export interface KeypairWithBytes {
  signer: KeyPairSigner;
  /** 64 bytes: private key then public key (Solana CLI format). */
  secretKey: Uint8Array;
}

/** A fresh keypair whose secret can be written out (kit's generated keys are not extractable). */
export async function generateKeypairWithBytes(): Promise<KeypairWithBytes> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32);
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32);
  const secretKey = Uint8Array.from([...seed, ...publicKey]);
  return { signer: await createKeyPairSignerFromBytes(secretKey), secretKey };
}

/** A signer from 64 keypair bytes; throws if the public half does not match the private half. */
export async function keypairFromBytes(bytes: ArrayLike<number>): Promise<KeyPairSigner> {
  const secretKey = Uint8Array.from(bytes);
  if (secretKey.length !== 64) throw new Error(`a keypair is 64 bytes, got ${secretKey.length}`);
  const signer = await createKeyPairSignerFromBytes(secretKey);
  const publicKey = getAddressEncoder().encode(signer.address);
  if (!publicKey.every((byte, i) => byte === secretKey[32 + i])) throw new Error('keypair bytes are inconsistent');
  return signer;
}

/** Reads a Solana CLI keypair file (a JSON array of 64 numbers). */
export async function readKeypairFile(path: string): Promise<KeyPairSigner> {
  return (await readKeypairFileBytes(path)).signer;
}

/** A keypair file's signer and its 64 bytes (to store in the keychain; never logged or sent anywhere). */
export async function readKeypairFileBytes(path: string): Promise<{ signer: KeyPairSigner; bytes: Uint8Array }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read keypair file ${path}: ${(error as Error).message}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // A fixed sentence, no cause: the parser's own message quotes the file's first characters (a base58 key's).
    throw new Error(`${path} is not a Solana CLI keypair file (a JSON array of 64 bytes): it is not valid JSON`);
  }
  if (!Array.isArray(json) || !json.every((n) => Number.isInteger(n) && n >= 0 && n < 256)) {
    throw new Error(`${path} is not a Solana CLI keypair file (a JSON array of 64 bytes)`);
  }
  return { signer: await keypairFromBytes(json as number[]), bytes: Uint8Array.from(json as number[]) };
}
