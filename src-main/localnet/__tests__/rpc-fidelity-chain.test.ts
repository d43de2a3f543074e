/**
 * Validator fidelity of the chain behind the JSON-RPC: duplicate refusal for as long as a blockhash
 * lives (not as long as history), fees as the payer is charged them (priority fee, precompile
 * signatures), a validator's errors and messages for malformed and failing transactions, getVersion,
 * getSignaturesForAddress limits and getRecentPrioritizationFees. A bare chain (no genesis) with a
 * tiny history behind the real RPC server, driven with kit's RPC client and raw JSON-RPC.
 */
import {
  address,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64Decoder,
  getBase64Encoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageEncoder,
  compileTransactionMessage,
  createTransactionMessage,
  AccountRole,
  appendTransactionMessageInstructions,
  isSolanaError,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  type Base64EncodedWireTransaction,
  type Blockhash,
  type Instruction,
  type KeyPairSigner,
  type Signature,
  type TransactionMessageBytesBase64,
} from '@solana/kit';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getTransferSolInstruction } from '@solana-program/system';
import type { ServerType } from '@hono/node-server';
import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { getEd25519VerifyInstruction } from '../../protocol/oracle/ed25519-instruction';
import { LocalChain } from '../local-chain';
import { startPubSub, type PubSubServer } from '../pubsub-server';
import { createRpcApp, listenRpc } from '../rpc-server';
import { createRpcMethods } from '../rpc-methods';
import { rawRpc, type LocalRpc } from './localnet-test-helpers';

const SOL = 1_000_000_000n;
const HISTORY = 3;
/** SPL Memo (v3), one of LiteSVM's default programs. */
const MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

let chain: LocalChain;
let server: ServerType;
let url: string;
let rpc: LocalRpc;
let pubsub: PubSubServer;

beforeAll(async () => {
  chain = new LocalChain({ manualSlots: true, historyLimit: HISTORY });
  const listening = await listenRpc(createRpcApp(createRpcMethods(chain)), 0);
  server = listening.server;
  url = `http://127.0.0.1:${listening.port}`;
  rpc = createSolanaRpc(url);
  pubsub = await startPubSub(chain, { port: 0 });
});
afterAll(async () => {
  chain?.stop();
  await pubsub?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

const call = <T = unknown>(method: string, params: unknown[] = []) => rawRpc<T>(url, method, params);

async function funded(amount = SOL): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  await rpc.requestAirdrop(signer.address, lamports(amount)).send();
  return signer;
}

async function signed(payer: KeyPairSigner, instructions: readonly Instruction[], blockhash?: Blockhash) {
  const lifetime = blockhash ? { blockhash, lastValidBlockHeight: 0n } : (await rpc.getLatestBlockhash().send()).value;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  const messageBase64 = getBase64Decoder().decode(getCompiledTransactionMessageEncoder().encode(compileTransactionMessage(message))) as TransactionMessageBytesBase64;
  return { wire: getBase64EncodedWireTransaction(transaction), messageBase64, signature: getBase58Decoder().decode(Object.values(transaction.signatures)[0]!) };
}

const landedTransaction = (signature: string) =>
  rpc.getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
const transfer = (payer: KeyPairSigner, amount: bigint, to = payer.address) => getTransferSolInstruction({ source: payer, destination: to, amount });
const send = (wire: Base64EncodedWireTransaction, skipPreflight = false) => rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight }).send();

function corrupt(wire: Base64EncodedWireTransaction): Base64EncodedWireTransaction {
  const bytes = Uint8Array.from(getBase64Encoder().encode(wire));
  bytes[1] = bytes[1]! ^ 0xff; // the first signature starts after the one-byte count
  return getBase64Decoder().decode(bytes) as Base64EncodedWireTransaction;
}

describe('duplicate transactions', () => {
  it('refuses a resent transaction while its blockhash lives, even after history dropped it; memory stays bounded', async () => {
    const payer = await funded();
    const recipient = (await funded()).address;
    const first = await signed(payer, [transfer(payer, 1_000n, recipient)]);
    await send(first.wire);
    // Push it out of the (3-transaction) history.
    for (let i = 0; i < HISTORY + 1; i++) await send((await signed(payer, [transfer(payer, 2_000n + BigInt(i), recipient)])).wire);
    expect(await landedTransaction(first.signature)).toBeNull();
    // Its status is still known while its blockhash lives (a validator's status cache answers it).
    const [status] = (await rpc.getSignatureStatuses([first.signature as Signature]).send()).value;
    expect(status).toMatchObject({ err: null, confirmationStatus: 'finalized' });

    // Without preflight a validator answers the signature and drops the duplicate: it does not run again.
    const again = await call('sendTransaction', [first.wire, { encoding: 'base64', skipPreflight: true }]);
    expect(again).toMatchObject({ result: first.signature });
    expect(again.error).toBeUndefined();
    const preflight = await call('sendTransaction', [first.wire, { encoding: 'base64' }]);
    expect(preflight.error).toMatchObject({ code: -32002, message: 'Transaction simulation failed: This transaction has already been processed' });
    expect((await rpc.simulateTransaction(first.wire, { encoding: 'base64' }).send()).value.err).toBe('AlreadyProcessed');
    expect((await rpc.getBalance(recipient).send()).value).toBe(SOL + 1_000n + 2_000n + 2_001n + 2_002n + 2_003n);

    // The address index follows history: only what history still holds is listed or kept.
    expect((await rpc.getSignaturesForAddress(recipient).send()).length).toBe(HISTORY);
    expect(chain.retained()).toMatchObject({ history: HISTORY });
    expect(chain.retained().indexedAddresses).toBeLessThanOrEqual(HISTORY * 3);

    // Once the blockhash expires the status cache lets the signature go: the resend is refused as expired.
    chain.advanceSlots(151);
    expect(chain.retained().statusCacheSignatures).toBe(0);
    expect((await rpc.getSignatureStatuses([first.signature as Signature]).send()).value).toEqual([null]);
    const expired = await call('sendTransaction', [first.wire, { encoding: 'base64', skipPreflight: true }]);
    expect(expired).toMatchObject({ result: first.signature });
    const expiredWithPreflight = await call('sendTransaction', [first.wire, { encoding: 'base64' }]);
    expect(expiredWithPreflight.error).toMatchObject({ code: -32002, message: 'Transaction simulation failed: Blockhash not found' });
    // Dropped, not run: the recipient got each transfer once, and the resent signature has no status.
    expect((await rpc.getBalance(recipient).send()).value).toBe(SOL + 1_000n + 2_000n + 2_001n + 2_002n + 2_003n);
    expect((await rpc.getSignatureStatuses([first.signature as Signature]).send()).value).toEqual([null]);
  });

  it('keys duplicates by the message, as Agave\'s status cache does: a copy of a processed message under other signature bytes is refused', async () => {
    const payer = await funded();
    const recipient = (await funded()).address;
    const first = await signed(payer, [transfer(payer, 7_000n, recipient)]);
    await send(first.wire);
    // The same message with other signature bytes. (ed25519 signing is deterministic, so a re-signed copy
    // has other bytes only from a randomized signer; flipped bytes stand in, and the chain is told they
    // were verified, so the duplicate check itself is what refuses it.)
    const copy = Uint8Array.from(getBase64Encoder().encode(corrupt(first.wire)));
    expect(() => chain.submit(copy, { signaturesVerified: true })).toThrow('This transaction has already been processed');
    expect((await rpc.getBalance(recipient).send()).value).toBe(SOL + 7_000n);
  });
});

describe('signatureSubscribe after history dropped the transaction', () => {
  it('is notified at once from the status cache, as a validator notifies a signature its bank knows', async () => {
    const payer = await funded();
    const first = await signed(payer, [transfer(payer, 1_000n)]);
    await send(first.wire);
    for (let i = 0; i < HISTORY + 1; i++) await send((await signed(payer, [transfer(payer, 3_000n + BigInt(i))])).wire);
    expect(await landedTransaction(first.signature)).toBeNull();

    const socket = new WebSocket(`ws://127.0.0.1:${pubsub.port}`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const messages: { id?: number; result?: unknown; method?: string; params?: { result: { value: unknown } } }[] = [];
    const notified = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as (typeof messages)[number];
        messages.push(message);
        if (message.method === 'signatureNotification') resolve();
      }),
    );
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'signatureSubscribe', params: [first.signature, { commitment: 'confirmed' }] }));
    await notified;
    socket.close();
    expect(typeof messages[0]!.result).toBe('number');
    expect(messages.filter((m) => m.method === 'signatureNotification').map((m) => m.params!.result.value)).toEqual([{ err: null }]);
  });
});

describe('the address index', () => {
  it('lists the newest transactions of a busy address, newest first, and keeps at most twice what history holds', async () => {
    const payer = await funded();
    const sent: string[] = [];
    for (let i = 0; i < 40; i++) {
      const tx = await signed(payer, [transfer(payer, 10_000n + BigInt(i))]);
      await send(tx.wire);
      sent.push(tx.signature);
    }
    const listed = await rpc.getSignaturesForAddress(payer.address).send();
    expect(listed.map((entry) => entry.signature)).toEqual(sent.slice(-HISTORY).reverse());
    // The system program is in every transfer: its list is evicted from the head on each transaction.
    expect((await rpc.getSignaturesForAddress(address('11111111111111111111111111111111')).send()).map((e) => e.signature)).toEqual(
      sent.slice(-HISTORY).reverse(),
    );
    const { indexedAddresses, indexedSignatures } = chain.retained();
    expect(indexedAddresses).toBeLessThanOrEqual(HISTORY * 3);
    expect(indexedSignatures).toBeLessThanOrEqual(2 * HISTORY * indexedAddresses);
  });
});

describe('fees', () => {
  it('charges and records the priority fee: meta.fee is what the payer lost beyond the transfer, and getFeeForMessage quotes it', async () => {
    const payer = await funded();
    const recipient = (await funded()).address;
    // No unit limit: the default limit applies (3 000 per builtin instruction here).
    const noLimit = await signed(payer, [getSetComputeUnitPriceInstruction({ microLamports: 1_000_000n }), transfer(payer, 10_000n, recipient)]);
    const quoted = (await rpc.getFeeForMessage(noLimit.messageBase64).send()).value;
    await send(noLimit.wire);
    const tx = (await landedTransaction(noLimit.signature))!;
    expect(tx.meta!.preBalances[0]! - tx.meta!.postBalances[0]!).toBe(10_000n + tx.meta!.fee);
    expect(tx.meta!.fee).toBe(5_000n + 6_000n);
    expect(quoted).toBe(tx.meta!.fee);

    const withLimit = await signed(payer, [
      getSetComputeUnitLimitInstruction({ units: 1_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: 1_500n }),
      transfer(payer, 10_000n, recipient),
    ]);
    const quotedWithLimit = (await rpc.getFeeForMessage(withLimit.messageBase64).send()).value;
    await send(withLimit.wire);
    const limited = (await landedTransaction(withLimit.signature))!;
    // ceil(1 500 x 1 000 / 1e6) = 2
    expect(limited.meta!.fee).toBe(5_002n);
    expect(limited.meta!.preBalances[0]! - limited.meta!.postBalances[0]!).toBe(10_000n + 5_002n);
    expect(quotedWithLimit).toBe(5_002n);

    // A program that is not a builtin reserves 200 000 units by default (the compute-budget one 3 000).
    const memo = { programAddress: MEMO_PROGRAM, accounts: [], data: new TextEncoder().encode('fee') } as Instruction;
    const withProgram = await signed(payer, [getSetComputeUnitPriceInstruction({ microLamports: 10_000n }), memo]);
    const quotedWithProgram = (await rpc.getFeeForMessage(withProgram.messageBase64).send()).value;
    await send(withProgram.wire);
    const programTx = (await landedTransaction(withProgram.signature))!;
    expect(programTx.meta!.err).toBeNull();
    // ceil(10 000 x 203 000 / 1e6) = 2 030
    expect(programTx.meta!.fee).toBe(5_000n + 2_030n);
    expect(programTx.meta!.preBalances[0]! - programTx.meta!.postBalances[0]!).toBe(programTx.meta!.fee);
    expect(quotedWithProgram).toBe(programTx.meta!.fee);
  });

  it('records what a failed transaction charged: the fee with its priority part, or nothing when the payer could not pay', async () => {
    const payer = await funded();
    const overdraft = await signed(payer, [
      getSetComputeUnitLimitInstruction({ units: 10_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: 100_000n }),
      transfer(payer, 2n * SOL, (await funded()).address),
    ]);
    await send(overdraft.wire, true);
    const failed = (await landedTransaction(overdraft.signature))!;
    expect(failed.meta!.err).not.toBeNull();
    expect(failed.meta!.fee).toBe(5_000n + 1_000n);
    expect(failed.meta!.preBalances[0]! - failed.meta!.postBalances[0]!).toBe(failed.meta!.fee);

    const unaffordable = await signed(payer, [
      getSetComputeUnitLimitInstruction({ units: 1_400_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: 1_000_000_000n }),
      transfer(payer, 1n),
    ]);
    const before = (await rpc.getBalance(payer.address).send()).value;
    await send(unaffordable.wire, true);
    expect((await rpc.getBalance(payer.address).send()).value).toBe(before);
    const unpaid = (await landedTransaction(unaffordable.signature))!;
    expect(unpaid.meta!.err).toBe('InsufficientFundsForFee');
    expect(unpaid.meta!.fee).toBe(0n);
  });

  it('charges 5 000 lamports per signature an Ed25519 precompile instruction verifies', async () => {
    const payer = await funded();
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const message = new TextEncoder().encode('fidelity');
    const signature = new Uint8Array(sign(null, message, privateKey));
    const rawKey = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));
    const verify = getEd25519VerifyInstruction({ publicKey: rawKey, message, signature });
    const tx = await signed(payer, [verify]);
    expect((await rpc.getFeeForMessage(tx.messageBase64).send()).value).toBe(10_000n);
    await send(tx.wire);
    const landed = (await landedTransaction(tx.signature))!;
    expect(landed.meta!.err).toBeNull();
    expect(landed.meta!.fee).toBe(10_000n);
    expect(landed.meta!.preBalances[0]! - landed.meta!.postBalances[0]!).toBe(10_000n);
  });

  it('lists the last 150 slots oldest first with the lowest compute-unit price paid in each', async () => {
    const payer = await funded();
    // The airdrop that funded the payer is a transaction at price 0, as a validator's faucet's: a slot before.
    chain.advanceSlots(160);
    await send((await signed(payer, [getSetComputeUnitPriceInstruction({ microLamports: 7n }), transfer(payer, 1n)])).wire);
    const slot = await rpc.getSlot().send();
    const fees = await rpc.getRecentPrioritizationFees().send();
    expect(fees).toHaveLength(150);
    expect(fees[0]!.slot).toBe(slot - 149n);
    expect(fees.at(-1)).toEqual({ slot, prioritizationFee: 7n });
    expect(fees.slice(0, -1).every((fee) => fee.prioritizationFee === 0n)).toBe(true);
  });
});

describe('errors as a validator words them', () => {
  it('answers malformed transaction bytes with -32602 and a deserialize message, from simulate and send', async () => {
    const garbage = getBase64Decoder().decode(new Uint8Array([1, 2, 3]));
    for (const method of ['simulateTransaction', 'sendTransaction']) {
      const { error } = await call(method, [garbage, { encoding: 'base64' }]);
      expect(error?.code).toBe(-32602);
      expect(error?.message).toMatch(/^failed to deserialize solana_transaction::versioned::VersionedTransaction: /);
    }
  });

  it('refuses a fee the payer cannot pay with "Insufficient funds for fee"', async () => {
    const payer = await funded();
    // 1 400 000 units at 1 000 lamports each: far more than the payer holds.
    const { wire } = await signed(payer, [
      getSetComputeUnitLimitInstruction({ units: 1_400_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: 1_000_000_000n }),
      transfer(payer, 1n),
    ]);
    const { error } = await call('sendTransaction', [wire, { encoding: 'base64' }]);
    expect(error).toMatchObject({ code: -32002, message: 'Transaction simulation failed: Insufficient funds for fee' });
    expect((error?.data as { err: unknown }).err).toBe('InsufficientFundsForFee');
  });

  it('words an instruction error as a validator: custom program error in hex', async () => {
    const payer = await funded(SOL);
    const { wire } = await signed(payer, [transfer(payer, 2n * SOL, (await generateKeyPairSigner()).address)]);
    const { error } = await call('sendTransaction', [wire, { encoding: 'base64' }]);
    expect(error).toMatchObject({ code: -32002, message: 'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1' });
    const viaKit = await rpc.sendTransaction(wire, { encoding: 'base64' }).send().catch((e: unknown) => e);
    expect(isSolanaError(viaKit, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(true);

    // A fieldless instruction error in Agave's words: a system transfer from an account that did not sign.
    const payer2 = await funded();
    const data = new Uint8Array(12);
    new DataView(data.buffer).setUint32(0, 2, true); // SystemInstruction::Transfer
    new DataView(data.buffer).setBigUint64(4, 1n, true);
    const unsigned: Instruction = {
      programAddress: address('11111111111111111111111111111111'),
      accounts: [
        { address: (await funded()).address, role: AccountRole.WRITABLE },
        { address: payer2.address, role: AccountRole.WRITABLE },
      ],
      data,
    };
    const missing = await signed(payer2, [unsigned]);
    const { error: missingError } = await call('sendTransaction', [missing.wire, { encoding: 'base64' }]);
    expect(missingError?.message).toBe('Transaction simulation failed: Error processing Instruction 0: missing required signature for instruction');
    expect((missingError?.data as { err: unknown }).err).toEqual({ InstructionError: [0, 'MissingRequiredSignature'] });
  });

  it('checks signatures before the blockhash: a bad signature on an unknown blockhash is -32003', async () => {
    const payer = await funded();
    const unknown = getBase58Decoder().decode(new Uint8Array(32).fill(3)) as Blockhash;
    const { wire } = await signed(payer, [transfer(payer, 1n)], unknown);
    const sent = await call('sendTransaction', [corrupt(wire), { encoding: 'base64' }]);
    expect(sent.error).toMatchObject({ code: -32003, message: 'Transaction signature verification failure' });
    const simulated = await call('simulateTransaction', [corrupt(wire), { encoding: 'base64', sigVerify: true }]);
    expect(simulated.error?.code).toBe(-32003);
    // Well signed, the same transaction fails on its blockhash.
    const good = await call('sendTransaction', [wire, { encoding: 'base64' }]);
    expect(good.error).toMatchObject({ code: -32002, message: 'Transaction simulation failed: Blockhash not found' });
  });
});

describe('getVersion and getSignaturesForAddress', () => {
  it('names solana-core as a plain semver and the feature set as a number', async () => {
    const version = await rpc.getVersion().send();
    expect(version['solana-core']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(typeof version['feature-set']).toBe('number');
  });

  it('refuses a limit above 1000 (or 0) with "Invalid limit; max 1000"', async () => {
    const payer = await funded();
    for (const limit of [1001, 0]) {
      const { error } = await call('getSignaturesForAddress', [payer.address, { limit }]);
      expect(error).toMatchObject({ code: -32602, message: 'Invalid limit; max 1000' });
    }
    expect(await rpc.getSignaturesForAddress(payer.address, { limit: 1000 }).send()).toHaveLength(1);
  });
});
