import { address, getAddressEncoder, generateKeyPairSigner } from '@solana/kit';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getNetworkStateEncoder, getRandomnessV2Encoder } from '../../../src-main/protocol/generated/oracle';
import { generateClient } from '../generate-clients';
import { ORACLE_ERRORS, anchorDiscriminator } from '../oracle-idl';
import { cBytes, cDefines, camelCase } from './c-header';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
const readSource = (path: string) => readFile(join(root, path), 'utf8');

describe('the oracle C program and its Codama IDL agree', () => {
  it('has the same error names and codes', async () => {
    const header = await readSource('program/oracle/errors.h');
    const fromC = [...header.matchAll(/^#define ERR_(\w+) ORACLE_ERROR\((\d+)\)/gm)].map((m) => [camelCase(m[1]!), Number(m[2])]);
    expect(fromC).toEqual(ORACLE_ERRORS.map(([name, code]) => [name, code]));
  });

  it('uses the Anchor discriminators of its accounts, instructions and events', async () => {
    const defines = cDefines(await readSource('program/oracle/oracle.h'));
    const expected: Record<string, Uint8Array> = {
      NETWORK_STATE_DISCRIMINATOR: anchorDiscriminator('account', 'NetworkState'),
      RANDOMNESS_DISCRIMINATOR: anchorDiscriminator('account', 'RandomnessV2'),
      INIT_NETWORK_DISCRIMINATOR: anchorDiscriminator('global', 'init_network'),
      REQUEST_V2_DISCRIMINATOR: anchorDiscriminator('global', 'request_v2'),
      FULFILL_DISCRIMINATOR: anchorDiscriminator('global', 'fulfill'),
      FULFILL_V2_DISCRIMINATOR: anchorDiscriminator('global', 'fulfill_v2'),
      REQUEST_EVENT_DISCRIMINATOR: anchorDiscriminator('event', 'Request'),
      FULFILL_EVENT_DISCRIMINATOR: anchorDiscriminator('event', 'Fulfill'),
    };
    for (const [name, bytes] of Object.entries(expected)) expect(cBytes(defines.get(name)), name).toEqual(Array.from(bytes));
    // ORAO's published request_v2 and RandomnessV2 discriminators.
    expect(cBytes(defines.get('REQUEST_V2_DISCRIMINATOR'))).toEqual([38, 151, 209, 6, 195, 102, 28, 217]);
    expect(cBytes(defines.get('RANDOMNESS_DISCRIMINATOR'))).toEqual([139, 239, 184, 215, 227, 86, 191, 226]);
  });

  it('lays out RandomnessV2 and NetworkState at the offsets the C code reads', async () => {
    const defines = cDefines(await readSource('program/oracle/oracle.h'));
    const num = (name: string) => Number(defines.get(name));
    const client = (await generateKeyPairSigner()).address;
    const seed = new Uint8Array(32).fill(0x5e);
    const randomness = new Uint8Array(64).fill(0xab);
    const fulfilled = getRandomnessV2Encoder().encode({ request: { __kind: 'Fulfilled', client, seed, randomness } });
    expect(fulfilled.length).toBe(num('RANDOMNESS_ACCOUNT_SIZE'));
    expect(fulfilled[num('RANDOMNESS_VARIANT_OFFSET')]).toBe(num('RANDOMNESS_FULFILLED'));
    expect(fulfilled.slice(num('RANDOMNESS_CLIENT_OFFSET'), num('RANDOMNESS_CLIENT_OFFSET') + 32)).toEqual(getAddressEncoder().encode(client));
    expect(fulfilled.slice(num('RANDOMNESS_SEED_OFFSET'), num('RANDOMNESS_SEED_OFFSET') + 32)).toEqual(seed);
    expect(fulfilled.slice(num('RANDOMNESS_VALUE_OFFSET'))).toEqual(randomness);

    const authorities = [client, (await generateKeyPairSigner()).address, (await generateKeyPairSigner()).address];
    const treasury = (await generateKeyPairSigner()).address;
    const network = getNetworkStateEncoder().encode({
      authority: client, treasury, requestFee: 0x0102030405060708n, fulfillmentAuthorities: authorities,
      tokenFeeConfig: null, numReceived: 0x1111n, bump: 254,
    });
    expect(network.length).toBe(94 + 32 * authorities.length); // NETWORK_STATE_SIZE(n)
    expect(network.slice(num('NETWORK_TREASURY_OFFSET'), num('NETWORK_TREASURY_OFFSET') + 32)).toEqual(getAddressEncoder().encode(treasury));
    expect(network[num('NETWORK_REQUEST_FEE_OFFSET')]).toBe(0x08);
    expect(network[num('NETWORK_AUTHORITY_COUNT_OFFSET')]).toBe(3);
    expect(network.at(-1)).toBe(254); // NETWORK_BUMP_OFFSET(n) is the last byte
  });

  it('knows the real addresses of the programs and sysvars the SDK names', async () => {
    const header = await readSource('program/include/sol/pubkey.h');
    const ids: Record<string, string> = {
      SOL_TOKEN_PROGRAM_ID: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      SOL_BPF_LOADER_UPGRADEABLE_ID: 'BPFLoaderUpgradeab1e11111111111111111111111',
      SOL_ED25519_PROGRAM_ID: 'Ed25519SigVerify111111111111111111111111111',
      SOL_SYSVAR_INSTRUCTIONS_ID: 'Sysvar1nstructions1111111111111111111111111',
      SOL_SYSVAR_SLOT_HASHES_ID: 'SysvarS1otHashes111111111111111111111111111',
    };
    for (const [name, id] of Object.entries(ids)) {
      const body = header.match(new RegExp(`#define ${name}\\s*\\\\?\\s*\\{\\{([^}]*)\\}\\}`))?.[1] ?? '';
      expect(cBytes(body.replace(/\\/g, '')), name).toEqual(Array.from(getAddressEncoder().encode(address(id))));
    }
  });
});

describe('the generated oracle client', () => {
  it('is what `npm run generate:clients` produces from the IDL (regenerate after changing it)', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'wk-codama-'));
    try {
      await mkdir(join(scratch, 'program', 'idl'), { recursive: true });
      await generateClient('oracle', scratch);
      const listFiles = async (dir: string): Promise<string[]> => {
        const entries = await readdir(dir, { withFileTypes: true, recursive: true });
        return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
      };
      const generatedDir = join('src-main', 'protocol', 'generated', 'oracle');
      const expected = await listFiles(join(scratch, generatedDir));
      expect(await listFiles(join(root, generatedDir))).toEqual(expected);
      for (const file of [...expected.map((f) => join(generatedDir, f)), join('program', 'idl', 'oracle.json')]) {
        expect(await readFile(join(root, file), 'utf8'), file).toBe(await readFile(join(scratch, file), 'utf8'));
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
