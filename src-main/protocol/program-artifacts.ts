/**
 * The committed program builds (resources/programs/<name>.so) and, for programs this project deploys
 * itself on local clusters, their program keypairs (<name>-keypair.json, Solana CLI format).
 */
import { createKeyPairSignerFromBytes, type KeyPairSigner } from '@solana/kit';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROGRAMS_DIRECTORY = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'resources', 'programs');

/** The SBPF bytes of a built program. */
export async function readProgramBytes(name: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(join(PROGRAMS_DIRECTORY, `${name}.so`)));
}

/** The program's keypair (64-byte JSON array: secret then public key), whose address is the program id. */
export async function readProgramKeypair(name: string): Promise<KeyPairSigner> {
  const json: unknown = JSON.parse(await readFile(join(PROGRAMS_DIRECTORY, `${name}-keypair.json`), 'utf8'));
  if (!Array.isArray(json) || json.length !== 64) throw new Error(`${name}-keypair.json is not a 64-byte keypair`);
  return createKeyPairSignerFromBytes(Uint8Array.from(json as number[]));
}
