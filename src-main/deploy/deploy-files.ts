/**
 * The files `deploy` keeps beside its --out file, so that a re-run with the same --out continues where
 * the last one stopped: the program keypair, the test USDC mint keypair, and while a program buffer
 * may exist on chain, a small state file naming the buffer's keypair. Keypairs are Solana CLI JSON
 * arrays, written 0600 through a temporary file and a rename, so a kill never leaves half a key.
 */
import type { KeyPairSigner } from '@solana/kit';
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { BufferKeyStore } from '../chain/program-deployer';
import { generateKeypairWithBytes, readKeypairFile } from '../secrets/keypair-bytes';

/** Where each file beside `out` lives. */
export interface DeployFilePaths {
  out: string;
  programKeypair: string;
  usdcMintKeypair: string;
  bufferState: string;
  bufferKeypair: string;
}

/** @example deployFilePaths('devnet.json').programKeypair // 'devnet.json.program-keypair.json' */
export function deployFilePaths(out: string): DeployFilePaths {
  return {
    out,
    programKeypair: `${out}.program-keypair.json`,
    usdcMintKeypair: `${out}.usdc-mint-keypair.json`,
    bufferState: `${out}.deploy-state.json`,
    bufferKeypair: `${out}.buffer-keypair.json`,
  };
}

/** Writes `text` to `path` atomically (temporary file + rename) with `mode`. */
export async function writeFileAtomically(path: string, text: string, mode: number): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  await writeFile(temporary, text, { mode });
  await rename(temporary, path);
}

/** A keypair file (Solana CLI format: a JSON array of 64 bytes), mode 0600. */
export const writeKeypairFile = (path: string, secretKey: Uint8Array) => writeFileAtomically(path, `${JSON.stringify(Array.from(secretKey))}\n`, 0o600);

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The keypair in `path`, or null when there is no such file (an unreadable one is an error). */
export async function readKeypairFileIfPresent(path: string): Promise<KeyPairSigner | null> {
  try {
    await readFile(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  return readKeypairFile(path);
}

/** The keypair saved in `path`, else a fresh one saved there first (so a re-run reuses it). */
export async function readOrCreateKeypairFile(path: string): Promise<{ signer: KeyPairSigner; created: boolean }> {
  const saved = await readKeypairFileIfPresent(path);
  if (saved) return { signer: saved, created: false };
  const fresh = await generateKeypairWithBytes();
  await writeKeypairFile(path, fresh.secretKey);
  return { signer: fresh.signer, created: true };
}

interface BufferState {
  buffer: string;
  bufferKeypair: string;
}

/** The buffer key store as two files beside --out: the state file and the buffer keypair (0600). */
export function fileBufferKeyStore(paths: Pick<DeployFilePaths, 'bufferState' | 'bufferKeypair'>): BufferKeyStore {
  return {
    async load() {
      let state: BufferState;
      try {
        state = JSON.parse(await readFile(paths.bufferState, 'utf8')) as BufferState;
      } catch (error) {
        if (isMissing(error)) return null;
        throw new Error(`${paths.bufferState}: unreadable deploy state (${(error as Error).message}); remove it to start the buffer over`, { cause: error });
      }
      const keypair = await readKeypairFileIfPresent(join(dirname(paths.bufferState), state.bufferKeypair));
      if (!keypair || keypair.address !== state.buffer) {
        throw new Error(`${paths.bufferState} names buffer ${state.buffer}, but its keypair file ${state.bufferKeypair} is missing or holds another key`);
      }
      return keypair;
    },
    async create() {
      const fresh = await generateKeypairWithBytes();
      // The keypair is on disk before the state that names it, and both before the buffer exists on chain.
      await writeKeypairFile(paths.bufferKeypair, fresh.secretKey);
      const state: BufferState = { buffer: fresh.signer.address, bufferKeypair: basename(paths.bufferKeypair) };
      await writeFileAtomically(paths.bufferState, `${JSON.stringify(state, null, 2)}\n`, 0o600);
      return fresh.signer;
    },
    async clear() {
      await rm(paths.bufferState, { force: true });
      await rm(paths.bufferKeypair, { force: true });
    },
  };
}
