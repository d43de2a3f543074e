/**
 * What the localnet tests share: raw JSON-RPC calls (no client normalisation), building and signing
 * transactions against a blockhash read over RPC, and opening a wager the way `wager-keeper open` does.
 */
import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Blockhash,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { getOpenWagerForApp } from '../../protocol/wager';
import type { LocalnetManifest } from '../localnet';

export interface JsonRpcResponse<T = unknown> {
  jsonrpc: string;
  id: unknown;
  result?: T;
  error?: { code: number; message: string; data?: unknown };
}

/** One JSON-RPC call with fetch, answered as the server wrote it (numbers stay JSON numbers). */
export async function rawRpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<JsonRpcResponse<T>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as JsonRpcResponse<T>;
}

export type LocalRpc = Rpc<SolanaRpcApi>;

/** Signs `instructions` (v0 message) with a blockhash fetched over RPC, or the one given. */
export async function signInstructions(
  rpc: LocalRpc,
  feePayer: KeyPairSigner,
  instructions: readonly Instruction[],
  lifetime?: { blockhash: Blockhash; lastValidBlockHeight: bigint },
) {
  const blockhash = lifetime ?? (await rpc.getLatestBlockhash().send()).value;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return { signed, wire: getBase64EncodedWireTransaction(signed), signature: getSignatureFromTransaction(signed) };
}

/** A signed SOL transfer, not yet sent. */
export function signTransfer(rpc: LocalRpc, from: KeyPairSigner, to: Address, amount: bigint, lifetime?: { blockhash: Blockhash; lastValidBlockHeight: bigint }) {
  return signInstructions(rpc, from, [getTransferSolInstruction({ source: from, destination: to, amount })], lifetime);
}

/** Sends a signed base64 transaction and returns its signature. */
export async function sendWire(rpc: LocalRpc, wire: ReturnType<typeof getBase64EncodedWireTransaction>, skipPreflight = false): Promise<Signature> {
  return rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight }).send();
}

/** A fresh key funded over requestAirdrop. */
export async function fundedSigner(rpc: LocalRpc, sol = 2n): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  await rpc.requestAirdrop(signer.address, lamports(sol * 1_000_000_000n)).send();
  return signer;
}

export const usdcAccountOf = async (manifest: LocalnetManifest, owner: Address) =>
  (await findAssociatedTokenPda({ mint: address(manifest.usdcMint), owner, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];

let nonceCounter = 0n;

/**
 * Opens a wager over RPC exactly as `wager-keeper open` does: the dev app key is integrator, payer and
 * stake owner; the beneficiary is its own USDC account.
 */
export async function openWagerOverRpc(
  rpc: LocalRpc,
  manifest: LocalnetManifest,
  app: KeyPairSigner,
  options: { paytable?: string; stake?: bigint } = {},
): Promise<{ wager: Address; signature: Signature; nonce: bigint }> {
  const paytable = manifest.paytables.find((p) => p.name === (options.paytable ?? 'coin-flip'));
  if (!paytable) throw new Error(`no paytable ${options.paytable}`);
  const stakeSource = await usdcAccountOf(manifest, app.address);
  const nonce = BigInt(Date.now()) * 1000n + nonceCounter++;
  const { instruction, wager } = await getOpenWagerForApp({
    payer: app,
    stakeOwner: app,
    integratorAuthority: app,
    paytable: address(paytable.address),
    stakeSource,
    beneficiary: stakeSource,
    oracleNetworkState: address(manifest.oracle.networkState),
    stake: options.stake ?? 1_000_000n,
    nonce,
  });
  const { wire } = await signInstructions(rpc, app, [instruction]);
  const signature = await sendWire(rpc, wire);
  return { wager, signature, nonce };
}

/** Resolves with the first `count` values of a subscription, or rejects after `ms`. */
export async function take<T>(iterable: AsyncIterable<T>, count: number, ms = 5_000): Promise<T[]> {
  const values: T[] = [];
  const iterator = iterable[Symbol.asyncIterator]();
  const deadline = Date.now() + ms;
  while (values.length < count) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`timed out after ${values.length} of ${count} notifications`);
    let timer: NodeJS.Timeout | undefined;
    const next = await Promise.race([
      iterator.next(),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left))),
    ]);
    clearTimeout(timer);
    if (next === 'timeout') throw new Error(`timed out after ${values.length} of ${count} notifications`);
    if (next.done) throw new Error(`subscription ended after ${values.length} of ${count} notifications`);
    values.push(next.value);
  }
  return values;
}

/** Polls `read` until it returns something other than undefined, or throws after `ms`. */
export async function eventually<T>(read: () => Promise<T | undefined>, ms = 5_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
