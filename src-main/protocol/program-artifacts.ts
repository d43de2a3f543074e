/**
 * The committed program builds (resources/programs/<name>.so) and, for programs this project deploys
 * itself on local clusters, their program keypairs (<name>-keypair.json, Solana CLI format).
 */
import type { KeyPairSigner } from '@solana/kit';
import { readKeypairFile } from '../secrets/keypair-bytes';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectPath } from '../project-root';

export const PROGRAMS_DIRECTORY = projectPath('resources', 'programs');

/** The SBPF bytes of a built program. */
export async function readProgramBytes(name: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(join(PROGRAMS_DIRECTORY, `${name}.so`)));
}

/** The program's keypair (Solana CLI format), whose address is the program id. */
export function readProgramKeypair(name: string): Promise<KeyPairSigner> {
  return readKeypairFile(join(PROGRAMS_DIRECTORY, `${name}-keypair.json`));
}
