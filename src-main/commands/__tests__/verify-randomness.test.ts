/**
 * `wager-keeper verify-randomness` end to end: a request fulfilled on a LiteSVM chain with the local
 * oracle, then the CLI run as a user runs it, offline with --authority and with --rpc reading the
 * fulfilment authorities from the oracle's NetworkState (served here by a minimal JSON-RPC endpoint that
 * answers getAccountInfo from the LiteSVM chain).
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { address, getBase16Decoder, getBase64Decoder } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOracleTestChain,
  randomSeed,
  type OracleTestChain,
} from '../../../program/oracle/__tests__/oracle-test-chain';
import {
  findRandomnessRequestPda,
  getFulfillRandomnessInstructions,
  getRequestV2InstructionAsync,
  signRandomness,
} from '../../protocol/oracle';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));
const exec = promisify(execFile);
/** Runs the CLI; resolves with exit code and output (a non-zero exit does not throw). */
const cli = async (...args: string[]) => {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
};

const hex = (bytes: Uint8Array) => getBase16Decoder().decode(bytes);
let chain: OracleTestChain;
let server: Server;
let rpcUrl: string;
let seed: Uint8Array;
let randomness: Uint8Array;

/** JSON-RPC getAccountInfo (base64) over the LiteSVM chain: all the command reads. */
function serveAccounts(request: { id: number; method: string; params: [string, unknown] }) {
  if (request.method !== 'getAccountInfo')
    return { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } };
  const account = chain.runner.svm.getAccount(address(request.params[0]));
  const value = account.exists
    ? {
        data: [getBase64Decoder().decode(account.data), 'base64'],
        executable: account.executable,
        lamports: Number(account.lamports),
        owner: account.programAddress,
        rentEpoch: 0,
        space: account.data.length,
      }
    : null;
  return { jsonrpc: '2.0', id: request.id, result: { context: { slot: 1 }, value } };
}

beforeAll(async () => {
  chain = await createOracleTestChain();
  seed = randomSeed();
  const request = await getRequestV2InstructionAsync(
    { payer: chain.payer, treasury: chain.treasury, seed },
    { programAddress: chain.programAddress },
  );
  await chain.runner.sendOrThrow(chain.payer, [request]);
  const [requestAddress] = await findRandomnessRequestPda({ seed }, { programAddress: chain.programAddress });
  await chain.runner.sendOrThrow(
    chain.payer,
    await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed }),
  );
  randomness = await signRandomness(chain.fulfiller, seed);

  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(serveAccounts(JSON.parse(body) as Parameters<typeof serveAccounts>[0])));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('wager-keeper verify-randomness', () => {
  it('verifies with the authorities of the NetworkState when --authority is omitted, naming the signer', async () => {
    // --oracle-program names the oracle (this minimal RPC has no genesis hash to find a deployment by;
    // deployment-commands.test.ts covers --rpc with a deployment).
    const valid = await cli(
      'verify-randomness',
      '--rpc',
      rpcUrl,
      '--oracle-program',
      chain.programAddress,
      '--seed',
      hex(seed),
      '--randomness',
      hex(randomness),
    );
    expect([valid.code, JSON.parse(valid.stdout)], valid.stderr).toEqual([
      0,
      { valid: true, authority: chain.fulfiller.address },
    ]);

    const altered = randomness.slice();
    altered[0]! ^= 1;
    const invalid = await cli(
      'verify-randomness',
      '--rpc',
      rpcUrl,
      '--oracle-program',
      chain.programAddress,
      '--seed',
      hex(seed),
      '--randomness',
      hex(altered),
    );
    expect([invalid.code, JSON.parse(invalid.stdout)]).toEqual([1, { valid: false, authoritiesTried: 1 }]);
  });

  it('still verifies offline against one --authority', async () => {
    const valid = await cli(
      'verify-randomness',
      '--authority',
      chain.fulfiller.address,
      '--seed',
      hex(seed),
      '--randomness',
      hex(randomness),
    );
    expect([valid.code, valid.stdout.trim()]).toEqual([0, '{"valid":true}']);
  });

  it('says what is missing: neither --authority nor --rpc, both, or no oracle configuration at the RPC', async () => {
    const neither = await cli('verify-randomness', '--seed', hex(seed), '--randomness', hex(randomness));
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--authority ADDRESS, or --rpc URL');
    const both = await cli(
      'verify-randomness',
      '--authority',
      chain.fulfiller.address,
      '--rpc',
      rpcUrl,
      '--seed',
      hex(seed),
      '--randomness',
      hex(randomness),
    );
    expect(both.code).toBe(2);
    const elsewhere = await cli(
      'verify-randomness',
      '--rpc',
      rpcUrl,
      '--oracle-program',
      chain.payer.address,
      '--seed',
      hex(seed),
      '--randomness',
      hex(randomness),
    );
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain('no oracle network configuration');
  });
});
