/**
 * Our JSON-RPC responses have the shapes the Solana RPC documentation shows: the same keys at every level
 * and the same JSON types (number, string, boolean, null, array, object) as the documented example
 * responses in fixtures/rpc-docs/, values ignored. Raw fetch POSTs, so no client normalisation (kit turns
 * numbers into bigints, for one) can hide a difference. Plus the JSON-RPC envelope: errors, batches, /health.
 */
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Blockhash,
  type KeyPairSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnet, type Localnet } from '../localnet';
import { rawRpc, type JsonRpcResponse } from './localnet-test-helpers';

interface DocumentedExample {
  method: string;
  source: string;
  request: unknown[];
  response: unknown;
}

const documented = (method: string): DocumentedExample =>
  JSON.parse(readFileSync(new URL(`./fixtures/rpc-docs/${method}.json`, import.meta.url), 'utf8')) as DocumentedExample;

const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Where `actual` differs in structure from `reference`: missing or extra keys, or another JSON type.
 * Array elements are compared with the reference's element at the same index (its last one beyond it);
 * an empty array on either side is only checked for being an array.
 */
export function shapeDifferences(actual: unknown, reference: unknown, path = '$'): string[] {
  const [a, r] = [jsonType(actual), jsonType(reference)];
  if (a !== r) return [`${path}: ${a} where the documentation has ${r}`];
  if (a === 'array') {
    const [items, refs] = [actual as unknown[], reference as unknown[]];
    if (items.length === 0 || refs.length === 0) return [];
    return items.flatMap((item, i) => shapeDifferences(item, refs[Math.min(i, refs.length - 1)], `${path}[${i}]`));
  }
  if (a === 'object') {
    const [object, ref] = [actual as Record<string, unknown>, reference as Record<string, unknown>];
    const missing = Object.keys(ref).filter((key) => !(key in object)).map((key) => `${path}.${key}: missing`);
    const extra = Object.keys(object).filter((key) => !(key in ref)).map((key) => `${path}.${key}: not in the documentation`);
    const common = Object.keys(ref).filter((key) => key in object);
    return [...missing, ...extra, ...common.flatMap((key) => shapeDifferences(object[key], ref[key], `${path}.${key}`))];
  }
  return [];
}

let localnet: Localnet;
let payer: KeyPairSigner;

const call = <T = unknown>(method: string, params: unknown[] = []) => rawRpc<T>(localnet.rpcUrl, method, params);
const post = async (body: string) => {
  const response = await fetch(localnet.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, body: (await response.json()) as unknown };
};

/** A signed SOL transfer of the given message version, as base64 wire bytes. */
async function transfer(version: 'legacy' | 0, lamports = 1_000_000n) {
  const { result } = await call<{ value: { blockhash: Blockhash; lastValidBlockHeight: number } }>('getLatestBlockhash');
  const recipient = (await generateKeyPairSigner()).address;
  const message = pipe(
    createTransactionMessage({ version }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: result!.value.blockhash, lastValidBlockHeight: BigInt(result!.value.lastValidBlockHeight) }, m),
    (m) => appendTransactionMessageInstructions([getTransferSolInstruction({ source: payer, destination: recipient, amount: lamports })], m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return { wire: getBase64EncodedWireTransaction(signed), signature: getSignatureFromTransaction(signed) };
}

async function sendLegacyTransfer() {
  const { wire, signature } = await transfer('legacy');
  const sent = await call<string>('sendTransaction', [wire, { encoding: 'base64' }]);
  expect(sent.error).toBeUndefined();
  expect(sent.result).toBe(signature);
  return signature;
}

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, manualSlots: true });
  payer = await generateKeyPairSigner();
  const airdrop = await call('requestAirdrop', [payer.address, 10_000_000_000]);
  expect(airdrop.error).toBeUndefined();
});
afterAll(async () => {
  await localnet?.stop();
});

describe('the shape comparison itself', () => {
  it('notices a missing key, an extra key and a number sent as a string', () => {
    const reference = { context: { slot: 1 }, value: [{ lamports: 1, data: ['', 'base64'] }] };
    expect(shapeDifferences({ context: { slot: 2 }, value: [{ lamports: 5, data: ['x', 'base64'] }, { lamports: 6, data: [] }] }, reference)).toEqual([]);
    expect(shapeDifferences({ context: {}, value: [{ lamports: '1', data: [''], owner: 'x' }] }, reference)).toEqual([
      '$.context.slot: missing',
      '$.value[0].owner: not in the documentation',
      '$.value[0].lamports: string where the documentation has number',
    ]);
  });
});

describe('responses shaped like the documented examples', () => {
  it('getAccountInfo of a wallet, base58', async () => {
    const example = documented('getAccountInfo');
    const response = await call(example.method, [payer.address, { encoding: 'base58' }]);
    expect(shapeDifferences(response, example.response)).toEqual([]);
  });

  it('getProgramAccounts with filters and no encoding (bare base-58 data)', async () => {
    const example = documented('getProgramAccounts');
    const response = await call<unknown[]>(example.method, [TOKEN_PROGRAM_ADDRESS, { filters: [{ dataSize: 82 }] }]);
    expect(response.result!.length).toBeGreaterThanOrEqual(2); // the test USDC mint and the pool's share mint
    expect(shapeDifferences(response, example.response)).toEqual([]);
  });

  it('simulateTransaction of a transfer with replaceRecentBlockhash', async () => {
    const example = documented('simulateTransaction');
    const { wire } = await transfer(0);
    const response = await call(example.method, [wire, { commitment: 'confirmed', encoding: 'base64', replaceRecentBlockhash: true }]);
    expect(shapeDifferences(response, example.response)).toEqual([]);
  });

  it('getSignatureStatuses of a landed and an unknown signature', async () => {
    const example = documented('getSignatureStatuses');
    const landed = await sendLegacyTransfer();
    const unknown = (await transfer('legacy')).signature; // signed, never sent
    const response = await call(example.method, [[landed, unknown]]);
    expect(shapeDifferences(response, example.response)).toEqual([]);
  });

  it('getTransaction of a legacy transaction, json encoding', async () => {
    const example = documented('getTransaction');
    const signature = await sendLegacyTransfer();
    const response = await call(example.method, [signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0, encoding: 'json' }]);
    expect(shapeDifferences(response, example.response)).toEqual([]);
  });

  it('getTransaction leaves out `version` when the request did not set maxSupportedTransactionVersion', async () => {
    const signature = await sendLegacyTransfer();
    const { result } = await call<Record<string, unknown>>('getTransaction', [signature, 'json']);
    expect(Object.keys(result!).sort()).toEqual(['blockTime', 'meta', 'slot', 'transaction']);
  });
});

describe('the JSON-RPC envelope', () => {
  it('answers an unknown method with -32601 "Method not found"', async () => {
    expect(await call('getEverything', [])).toEqual({ jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 1 });
  });

  it('answers malformed JSON with -32700 "Parse error" and a null id', async () => {
    expect(await post('{"jsonrpc":"2.0","id":1,"method":"getSlot"')).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null },
    });
  });

  it('answers a batch in request order, each with its own id', async () => {
    const { status, body } = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'first', method: 'getHealth' },
        { jsonrpc: '2.0', id: 2, method: 'noSuchMethod' },
        { jsonrpc: '2.0', id: 3, method: 'getBalance', params: [payer.address] },
        { jsonrpc: '2.0', id: 4, method: 'getSlot' },
      ]),
    );
    expect(status).toBe(200);
    const answers = body as JsonRpcResponse[];
    expect(answers.map((a) => a.id)).toEqual(['first', 2, 3, 4]);
    expect(answers[0]!.result).toBe('ok');
    expect(answers[1]!.error).toEqual({ code: -32601, message: 'Method not found' });
    expect(answers[2]!.result).toMatchObject({ value: expect.any(Number) });
    expect(answers[3]!.result).toBe(Number((await call<number>('getSlot')).result));
  });

  it('serves GET /health as plain "ok"', async () => {
    const response = await fetch(new URL('/health', localnet.rpcUrl));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
  });
});
