/**
 * The keeper key outside the keychain: both formats an operator has (a Solana CLI keypair file, a base58
 * secret as wallets show it) read to the same key; anything else is refused saying what is expected; a
 * backup is a Solana CLI keypair file only its owner can read, and never replaces an existing file.
 */
import { getBase58Decoder } from '@solana/kit';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKeypairWithBytes, readKeypairFile } from '../keypair-bytes';
import { parseKeypairText, readKeypairAnyFormat, writeKeypairFile } from '../keypair-format';

const dir = mkdtempSync(join(tmpdir(), 'keypair-format-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reading a keypair', () => {
  it('reads the JSON array and the base58 secret of one key to the same address and bytes', async () => {
    const key = await generateKeypairWithBytes();
    const fromJson = await parseKeypairText(JSON.stringify(Array.from(key.secretKey)), 'id.json');
    const fromBase58 = await parseKeypairText(`  ${getBase58Decoder().decode(key.secretKey)}\n`, 'pasted');
    expect(fromJson.signer.address).toBe(key.signer.address);
    expect(fromBase58.signer.address).toBe(key.signer.address);
    expect(Array.from(fromBase58.bytes)).toEqual(Array.from(key.secretKey));
  });

  it('refuses what is not a keypair, saying which formats it takes and never echoing the text', async () => {
    const key = await generateKeypairWithBytes();
    const half = getBase58Decoder().decode(key.secretKey.subarray(0, 32));
    await expect(parseKeypairText(half, 'the pasted secret')).rejects.toThrow(
      /the pasted secret holds 32 bytes, a keypair is 64: give a Solana CLI keypair file/,
    );
    await expect(parseKeypairText('[1,2,', 'id.json')).rejects.toThrow(
      /id.json is not a Solana CLI keypair file .* or a base58 secret key/,
    );
    await expect(parseKeypairText('not a key!', 'x')).rejects.toThrow(/x is not a Solana CLI keypair file/);
    const swapped = Uint8Array.from(key.secretKey);
    swapped[40] = swapped[40]! ^ 1; // public half no longer the private half's
    await expect(parseKeypairText(JSON.stringify(Array.from(swapped)), 'k.json')).rejects.toThrow(
      /k.json is not a consistent keypair: its last 32 bytes must be the public key of its first 32/,
    );
    await expect(parseKeypairText(half, 'p')).rejects.not.toThrow(new RegExp(half));
  });
});

describe('a base58 key given where a keypair file is expected (issue 33)', () => {
  it('is refused in a fixed sentence that echoes none of its characters', async () => {
    // One starting with a letter: JSON.parse's error then quotes the text's first 10 characters.
    let base58 = '';
    while (!/^[A-Za-z]/.test(base58)) base58 = getBase58Decoder().decode((await generateKeypairWithBytes()).secretKey);
    const path = join(dir, 'base58-key.json');
    writeFileSync(path, `${base58}\n`, { mode: 0o600 });
    const error = (await readKeypairFile(path).catch((failure: unknown) => failure)) as Error;
    expect(error.message).toBe(`${path} is not a Solana CLI keypair file (a JSON array of 64 bytes): it is not valid JSON`);
    expect(error.cause).toBeUndefined();
    expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain(base58.slice(0, 6));
  });
});

describe('writing a backup', () => {
  it('writes a Solana CLI keypair file with mode 0600 that reads back to the same key', async () => {
    const key = await generateKeypairWithBytes();
    const path = join(dir, 'backup.json');
    await writeKeypairFile(path, key.secretKey);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toHaveLength(64);
    expect((await readKeypairFile(path)).address).toBe(key.signer.address); // the Solana CLI format: what `solana-keygen pubkey` reads
    expect((await readKeypairAnyFormat(path)).signer.address).toBe(key.signer.address);
  });

  it('never writes over an existing file, and leaves it as it was', async () => {
    const key = await generateKeypairWithBytes();
    const path = join(dir, 'taken.json');
    writeFileSync(path, "the operator's other key");
    await expect(writeKeypairFile(path, key.secretKey)).rejects.toThrow(
      `${path} already exists: the key is never written over a file; pick a new file name`,
    );
    expect(readFileSync(path, 'utf8')).toBe("the operator's other key");
    await expect(writeKeypairFile(join(dir, 'no-such-folder', 'k.json'), key.secretKey)).rejects.toThrow(
      /its folder does not exist/,
    );
  });
});
