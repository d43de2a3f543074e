/**
 * The localnet on a Node.js without zstd (22.12-22.14, which package.json allows): it loads and serves,
 * and refuses base64+zstd with -32602 in requests and subscriptions instead of crashing. node:zlib is
 * mocked here without zstdCompressSync, as those versions have it.
 */
import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { LocalChain } from '../local-chain';
import { startPubSub, type PubSubServer } from '../pubsub-server';
import { RpcError } from '../rpc-errors';
import { createRpcMethods } from '../rpc-methods';

vi.mock('node:zlib', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:zlib')>();
  return { ...actual, zstdCompressSync: undefined };
});

const REFUSAL = { code: -32602, message: 'Invalid param: base64+zstd encoding needs zstd, which this Node.js does not have (22.15 or later)' };

let chain: LocalChain;
let pubsub: PubSubServer;

beforeAll(async () => {
  chain = new LocalChain({ manualSlots: true });
  pubsub = await startPubSub(chain, { port: 0 });
});
afterAll(async () => {
  chain?.stop();
  await pubsub?.close();
});

const refusal = (call: () => unknown) => {
  try {
    call();
  } catch (error) {
    if (error instanceof RpcError) return { code: error.code, message: error.message };
    throw error;
  }
  return null;
};

describe('without zstd', () => {
  it('refuses base64+zstd in getAccountInfo, getMultipleAccounts and getProgramAccounts, and still serves base64', async () => {
    const methods = createRpcMethods(chain);
    const key = (await generateKeyPairSigner()).address;
    chain.airdrop(key, 1_000_000n);
    expect(refusal(() => methods.getAccountInfo!([key, { encoding: 'base64+zstd' }]))).toEqual(REFUSAL);
    expect(refusal(() => methods.getMultipleAccounts!([[key], { encoding: 'base64+zstd' }]))).toEqual(REFUSAL);
    expect(refusal(() => methods.getProgramAccounts!(['11111111111111111111111111111111', { encoding: 'base64+zstd' }]))).toEqual(REFUSAL);
    expect(methods.getAccountInfo!([key, { encoding: 'base64' }])).toMatchObject({ value: { data: ['', 'base64'], lamports: 1_000_000n } });
  });

  it('refuses an accountSubscribe for base64+zstd at subscribe time', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${pubsub.port}`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const answer = new Promise<{ error?: unknown }>((resolve) => socket.once('message', (data) => resolve(JSON.parse(data.toString()) as { error?: unknown })));
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'accountSubscribe', params: [(await generateKeyPairSigner()).address, { encoding: 'base64+zstd' }] }));
    expect((await answer).error).toEqual(REFUSAL);
    socket.close();
  });
});
