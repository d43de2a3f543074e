/**
 * The local oracle's fulfilment node: watches the chain for pending randomness requests and fulfils each
 * one `delaySlots` after it appeared, with the Ed25519 precompile instruction, as an ORAO node would.
 * It can be stalled and resumed at run time to produce oracle outages (and so expiries).
 */
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Blockhash,
  type KeyPairSigner,
} from '@solana/kit';
import { getFulfillRandomnessInstructions, getRandomnessV2Decoder } from '../protocol/oracle';
import type { LocalChain, TransactionRecord } from './local-chain';

export interface OracleFulfillerOptions {
  oracleProgram: Address;
  authority: KeyPairSigner;
  /** Slots between a request and its fulfilment (default 1). */
  delaySlots?: number;
  stalled?: boolean;
  /** Told about each fulfilment that failed (the request stays pending and is retried next slot). */
  onError?: (request: Address, error: Error) => void;
}

export interface OracleFulfiller {
  stall(): void;
  resume(): void;
  isStalled(): boolean;
  pendingCount(): number;
  stop(): void;
}

export function startOracleFulfiller(chain: LocalChain, options: OracleFulfillerOptions): OracleFulfiller {
  const delay = BigInt(options.delaySlots ?? 1);
  const pending = new Map<Address, { seed: Uint8Array; seenAt: bigint }>();
  let stalled = options.stalled ?? false;

  const readPending = (address: Address) => {
    const account = chain.svm.getAccount(address);
    if (!account.exists || account.programAddress !== options.oracleProgram) return null;
    try {
      const state = getRandomnessV2Decoder().decode(account.data).request;
      return state.__kind === 'Pending' ? Uint8Array.from(state.seed) : null;
    } catch {
      return null; // the network configuration, or not a request
    }
  };

  const onTransaction = (record: TransactionRecord) => {
    if (record.err !== null || !record.accountKeys.includes(options.oracleProgram)) return;
    for (const address of record.writable) {
      const seed = pending.has(address) ? null : readPending(address);
      if (seed) pending.set(address, { seed, seenAt: chain.slot() });
    }
  };

  const fulfil = async (request: Address, seed: Uint8Array) => {
    const instructions = await getFulfillRandomnessInstructions({ authority: options.authority, request, seed, oracleProgram: options.oracleProgram });
    const { blockhash, lastValidBlockHeight } = chain.latestBlockhash();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(options.authority, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash as Blockhash, lastValidBlockHeight }, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const signed = await signTransactionMessageWithSigners(message);
    const record = chain.submit(Uint8Array.from(getTransactionEncoder().encode(signed)));
    if (record.err !== null) throw new Error(`fulfil failed: ${JSON.stringify(record.err)}`);
  };

  const onSlot = () => {
    if (stalled) return;
    const now = chain.slot();
    for (const [request, { seed, seenAt }] of pending) {
      if (now < seenAt + delay) continue;
      pending.delete(request);
      fulfil(request, seed).catch((error: Error) => {
        if (readPending(request)) pending.set(request, { seed, seenAt }); // retry next slot
        options.onError?.(request, error);
      });
    }
  };

  chain.on('transaction', onTransaction);
  chain.on('slot', onSlot);
  return {
    stall: () => void (stalled = true),
    resume: () => void (stalled = false),
    isStalled: () => stalled,
    pendingCount: () => pending.size,
    stop: () => {
      chain.off('transaction', onTransaction);
      chain.off('slot', onSlot);
    },
  };
}
