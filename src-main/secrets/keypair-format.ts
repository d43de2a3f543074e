/**
 * The two ways a keeper key travels outside the keychain: the Solana CLI keypair file (a JSON array of 64
 * bytes) and a base58 string of the same 64 bytes (what wallets show as a "private key"). Reading takes
 * either; writing makes a Solana CLI keypair file only this user can read, and never over an existing file.
 * Never logs the secret; callers zero the bytes they get once they are done with them.
 */
import { getBase58Encoder, type KeyPairSigner } from '@solana/kit';
import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { keypairFromBytes } from './keypair-bytes';

export interface ParsedKeypair {
  signer: KeyPairSigner;
  /** 64 bytes: private key then public key. Zero them after use. */
  bytes: Uint8Array;
}

const FORMATS =
  'a Solana CLI keypair file (a JSON array of 64 bytes) or a base58 secret key (64 bytes, 87 or 88 characters)';

/**
 * A keypair from text in either format; `origin` names where it came from in errors (never the text).
 * @example await parseKeypairText('[12,34,...]', 'id.json') // { signer, bytes }
 */
export async function parseKeypairText(text: string, origin: string): Promise<ParsedKeypair> {
  const trimmed = text.trim();
  let bytes: Uint8Array;
  if (trimmed.startsWith('[')) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch {
      throw new Error(`${origin} is not ${FORMATS}: it starts like a JSON array but is not valid JSON`);
    }
    if (!Array.isArray(json) || !json.every((n) => Number.isInteger(n) && n >= 0 && n < 256))
      throw new Error(`${origin} is not ${FORMATS}: the JSON array must hold numbers 0-255`);
    bytes = Uint8Array.from(json as number[]);
  } else if (/^[1-9A-HJ-NP-Za-km-z]+$/.test(trimmed)) {
    bytes = Uint8Array.from(getBase58Encoder().encode(trimmed));
  } else {
    throw new Error(`${origin} is not ${FORMATS}`);
  }
  if (bytes.length !== 64) {
    const length = bytes.length;
    bytes.fill(0);
    throw new Error(`${origin} holds ${length} bytes, a keypair is 64: give ${FORMATS}`);
  }
  try {
    return { signer: await keypairFromBytes(bytes), bytes };
  } catch (error) {
    bytes.fill(0);
    throw new Error(
      `${origin} is not a consistent keypair: its last 32 bytes must be the public key of its first 32; check it is the whole key, copied unchanged`,
      { cause: error },
    );
  }
}

/** A keypair from a file in either format. */
export async function readKeypairAnyFormat(path: string): Promise<ParsedKeypair> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  return parseKeypairText(text, path);
}

/**
 * Writes `bytes` as a Solana CLI keypair file with mode 0600; refuses a path that exists (a backup never
 * overwrites anything, least of all another key).
 */
export async function writeKeypairFile(path: string, bytes: Uint8Array): Promise<void> {
  if (bytes.length !== 64) throw new Error(`a keypair is 64 bytes, got ${bytes.length}`);
  let file;
  try {
    // O_EXCL: fails if the path exists, also if it appeared since any check.
    file = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EEXIST')
      throw new Error(`${path} already exists: the key is never written over a file; pick a new file name`, {
        cause: error,
      });
    if (code === 'ENOENT')
      throw new Error(`cannot write ${path}: its folder does not exist; pick a path in an existing folder`, {
        cause: error,
      });
    throw new Error(`cannot write ${path}: ${(error as Error).message}; pick a folder you can write`, {
      cause: error,
    });
  }
  try {
    await file.chmod(0o600); // whatever the umask
    const text = Buffer.from(JSON.stringify(Array.from(bytes)), 'utf8');
    await file.writeFile(text);
    text.fill(0);
    await file.sync();
  } finally {
    await file.close();
  }
}
