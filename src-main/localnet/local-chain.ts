/**
 * The embedded chain: LiteSVM (the real Agave runtime) plus what a validator adds around it and LiteSVM
 * does not: a slot clock, the Clock and SlotHashes sysvars moving every slot, a fresh blockhash per slot
 * valid for 150 blocks, signature verification, arrival-order execution, and a transaction history for
 * status and lookup. Single node: every processed transaction is also confirmed and finalized.
 */
import {
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Address,
  type EncodedAccount,
  type Transaction,
} from '@solana/kit';
import { Clock, LiteSVM, type FailedTransactionMetadata, type TransactionMetadata } from 'litesvm';
import { EventEmitter } from 'node:events';
import { INSTRUCTION_ERROR_NAMES, TRANSACTION_ERROR_NAMES } from '../chain/runtime-error-names';
import { verifyTransactionSignatures } from './signature-verification';

/** Blockhashes stay valid for this many blocks, as on a validator. */
export const BLOCKHASH_VALIDITY_BLOCKS = 150n;
const MAX_SLOT_HASHES = 512;
const DEFAULT_SLOT_MS = 400;
const HISTORY_LIMIT = 50_000;
/** LiteSVM's (and mainnet's) base fee. */
export const LAMPORTS_PER_SIGNATURE = 5_000n;

/** A transaction error as a validator's JSON-RPC reports it, e.g. {"InstructionError":[0,{"Custom":6014}]}. */
export type TransactionErrorJson = string | Record<string, unknown>;

export interface TransactionRecord {
  signature: string;
  slot: bigint;
  blockTime: number;
  err: TransactionErrorJson | null;
  fee: bigint;
  accountKeys: Address[];
  writable: Address[];
  preBalances: bigint[];
  postBalances: bigint[];
  logMessages: string[];
  computeUnitsConsumed: bigint;
  returnData: { programId: Address; data: Uint8Array } | null;
  wireTransaction: Uint8Array;
}

export interface ExecutionResult {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: bigint;
  returnData: { programId: Address; data: Uint8Array } | null;
  /** Fix: the accounts of the transaction as the simulation left them (LiteSVM reports them), for simulateTransaction's `accounts`. */
  postAccounts?: Map<Address, EncodedAccount>;
}

export interface DecodedTransaction {
  transaction: Transaction;
  accountKeys: Address[];
  writable: Address[];
  blockhash: string;
}

export class ChainError extends Error {
  constructor(
    readonly kind: 'BlockhashNotFound' | 'AlreadyProcessed' | 'SignatureFailure' | 'InvalidTransaction',
    message: string,
  ) {
    super(message);
  }
}

export interface SlotEvent {
  slot: bigint;
  parent: bigint;
  root: bigint;
}

export interface LocalChainEvents {
  slot: [SlotEvent];
  transaction: [TransactionRecord];
}

export interface LocalChainOptions {
  /** Slot length in ms (default 400). */
  slotMs?: number;
  /** When true the clock only moves with advanceSlots() (tests). */
  manualSlots?: boolean;
}

function errorJson(result: FailedTransactionMetadata): TransactionErrorJson {
  const err = result.err();
  if (typeof err === 'number') return TRANSACTION_ERROR_NAMES[err] ?? `TransactionError(${err})`;
  if ('err' in err) {
    const inner = err.err();
    if (typeof inner === 'number') return { InstructionError: [err.index, INSTRUCTION_ERROR_NAMES[inner] ?? 'GenericError'] };
    if ('code' in inner) return { InstructionError: [err.index, { Custom: inner.code }] };
    return { InstructionError: [err.index, { BorshIoError: '' }] };
  }
  if ('accountIndex' in err) {
    const name = err.toString().split(/[ ({]/)[0] ?? 'InsufficientFundsForRent';
    return { [name]: { account_index: err.accountIndex } };
  }
  return { DuplicateInstruction: (err as { index: number }).index };
}

const toAddress = (bytes: Uint8Array) => getBase58Decoder().decode(bytes) as Address;

export class LocalChain extends EventEmitter<LocalChainEvents> {
  readonly svm: LiteSVM;
  readonly slotMs: number;
  readonly genesisSlot: bigint;
  private timer: NodeJS.Timeout | undefined;
  private readonly blockhashes = new Map<string, bigint>(); // blockhash -> last valid block height
  private readonly history = new Map<string, TransactionRecord>();
  private readonly byAddress = new Map<string, string[]>(); // address -> signatures, oldest first
  private transactionCount = 0n;

  constructor(options: LocalChainOptions = {}) {
    super();
    this.slotMs = options.slotMs ?? DEFAULT_SLOT_MS;
    // Signatures and blockhashes are checked here, with a validator's rules (any of the last 150
    // blockhashes), instead of LiteSVM's "latest blockhash only".
    this.svm = new LiteSVM().withSigverify(false).withBlockhashCheck(false).withTransactionHistory(0n);
    this.genesisSlot = this.svm.getClock().slot;
    this.rememberBlockhash();
    if (!options.manualSlots) this.start();
  }

  /** The current slot. */
  slot(): bigint {
    return this.svm.getClock().slot;
  }

  /** Blocks produced since genesis (no slot is ever skipped here). */
  blockHeight(): bigint {
    return this.slot() - this.genesisSlot;
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint } {
    const blockhash = this.svm.latestBlockhash();
    // Fix: genesis (LiteSvmRunner.send) expires LiteSVM's blockhash per transaction behind this class's
    // back, so until the first slot the latest hash was handed out yet refused (BlockhashNotFound).
    if (!this.blockhashes.has(blockhash)) this.rememberBlockhash();
    return { blockhash, lastValidBlockHeight: this.blockhashes.get(blockhash) ?? this.blockHeight() + BLOCKHASH_VALIDITY_BLOCKS };
  }

  isBlockhashValid(blockhash: string): boolean {
    const lastValid = this.blockhashes.get(blockhash);
    return lastValid !== undefined && lastValid >= this.blockHeight();
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.advanceSlots(1), this.slotMs);
    this.timer.unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Produces `count` slots: clock, SlotHashes entry for each finished slot, a new blockhash each. */
  advanceSlots(count = 1): void {
    for (let i = 0; i < count; i++) {
      const finished = this.slot();
      const hash = this.svm.latestBlockhash();
      const next = finished + 1n;
      const clock = this.svm.getClock();
      // Wall-clock time, as a validator's clock follows it (set-up may produce slots faster than real time).
      const unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
      this.svm.setClock(new Clock(next, clock.epochStartTimestamp, clock.epoch, clock.leaderScheduleEpoch, unixTimestamp));
      const hashes = [{ slot: finished, hash }, ...this.svm.getSlotHashes().filter((entry) => entry.slot < finished)];
      this.svm.setSlotHashes(hashes.slice(0, MAX_SLOT_HASHES));
      this.svm.expireBlockhash();
      this.rememberBlockhash();
      this.emit('slot', { slot: next, parent: finished, root: next });
    }
  }

  private rememberBlockhash(): void {
    const height = this.blockHeight();
    this.blockhashes.set(this.svm.latestBlockhash(), height + BLOCKHASH_VALIDITY_BLOCKS);
    for (const [blockhash, lastValid] of this.blockhashes) {
      if (lastValid + BLOCKHASH_VALIDITY_BLOCKS < height) this.blockhashes.delete(blockhash);
    }
  }

  /** Decodes a wire transaction; throws ChainError('InvalidTransaction') on garbage. */
  /** The last transaction decoded: a send decodes the same bytes for preflight, simulation and submit. */
  private lastDecoded: { wire: Uint8Array; decoded: DecodedTransaction } | undefined;

  decode(wire: Uint8Array): DecodedTransaction {
    if (this.lastDecoded?.wire === wire) return this.lastDecoded.decoded;
    const decoded = this.decodeFresh(wire);
    this.lastDecoded = { wire, decoded };
    return decoded;
  }

  private decodeFresh(wire: Uint8Array): DecodedTransaction {
    try {
      const transaction = getTransactionDecoder().decode(wire);
      const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
      const keys = message.staticAccounts;
      const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
      const writable = keys.filter((_, i) =>
        i < numSignerAccounts ? i < numSignerAccounts - numReadonlySignerAccounts : i < keys.length - numReadonlyNonSignerAccounts,
      );
      return { transaction, accountKeys: [...keys], writable, blockhash: message.lifetimeToken };
    } catch (error) {
      throw new ChainError('InvalidTransaction', `failed to deserialize transaction: ${(error as Error).message}`);
    }
  }

  /** Runs a transaction without committing it. */
  simulate(wire: Uint8Array, options: { sigVerify?: boolean } = {}): ExecutionResult {
    const { transaction } = this.decode(wire);
    if (options.sigVerify && !verifyTransactionSignatures(transaction)) {
      throw new ChainError('SignatureFailure', 'Transaction signature verification failure');
    }
    const result = this.svm.simulateTransaction(transaction);
    const meta = 'err' in result ? result.meta() : result.meta();
    return {
      err: 'err' in result ? errorJson(result) : null,
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
      returnData: this.returnDataOf(meta),
      postAccounts: 'err' in result ? undefined : new Map(result.postAccounts().map((account) => [account.address, account])),
    };
  }

  private returnDataOf(meta: TransactionMetadata): ExecutionResult['returnData'] {
    const returnData = meta.returnData();
    const data = returnData.data();
    return data.length > 0 ? { programId: toAddress(returnData.programId()), data } : null;
  }

  /**
   * Executes a transaction now (arrival order), records it and returns its signature. Refuses before
   * execution what a validator refuses before a block: bad signatures, unknown or expired blockhash,
   * a signature already processed.
   */
  submit(wire: Uint8Array, options: { signaturesVerified?: boolean } = {}): TransactionRecord {
    const { transaction, accountKeys, writable, blockhash } = this.decode(wire);
    const signature = getBase58Decoder().decode(Object.values(transaction.signatures)[0] ?? new Uint8Array(64));
    if (this.history.has(signature)) throw new ChainError('AlreadyProcessed', 'This transaction has already been processed');
    // A preflight that just verified the same bytes need not do it twice.
    if (!options.signaturesVerified && !verifyTransactionSignatures(transaction)) {
      throw new ChainError('SignatureFailure', 'Transaction signature verification failure');
    }
    if (!this.isBlockhashValid(blockhash)) throw new ChainError('BlockhashNotFound', 'Blockhash not found');

    const preBalances = accountKeys.map((key) => this.svm.getBalance(key) ?? 0n);
    const result = this.svm.sendTransaction(transaction);
    const meta = 'err' in result ? result.meta() : result;
    const postBalances = accountKeys.map((key) => this.svm.getBalance(key) ?? 0n);
    const fee = LAMPORTS_PER_SIGNATURE * BigInt(Object.keys(transaction.signatures).length);
    const record: TransactionRecord = {
      signature,
      slot: this.slot(),
      blockTime: Math.floor(Date.now() / 1000),
      err: 'err' in result ? errorJson(result) : null,
      fee,
      accountKeys,
      writable,
      preBalances,
      postBalances,
      logMessages: meta.logs(),
      computeUnitsConsumed: meta.computeUnitsConsumed(),
      returnData: this.returnDataOf(meta),
      wireTransaction: wire,
    };
    this.remember(record);
    this.emit('transaction', record);
    return record;
  }

  private remember(record: TransactionRecord): void {
    this.transactionCount += 1n;
    this.history.set(record.signature, record);
    for (const key of new Set(record.accountKeys)) {
      const list = this.byAddress.get(key) ?? [];
      list.push(record.signature);
      this.byAddress.set(key, list);
    }
    if (this.history.size > HISTORY_LIMIT) {
      const oldest = this.history.keys().next().value;
      if (oldest) this.history.delete(oldest);
    }
  }

  processedTransactionCount(): bigint {
    return this.transactionCount;
  }

  /** Sends `lamports` from the built-in faucet, recorded like any transaction. */
  airdrop(address: Address, lamports: bigint): TransactionRecord {
    const before = this.svm.getBalance(address) ?? 0n;
    const result = this.svm.airdrop(address, lamports as never);
    if (!result || 'err' in result) throw new ChainError('InvalidTransaction', `airdrop failed: ${result ? result.toString() : 'no result'}`);
    const record: TransactionRecord = {
      signature: getBase58Decoder().decode(result.signature()),
      slot: this.slot(),
      blockTime: Math.floor(Date.now() / 1000),
      err: null,
      fee: LAMPORTS_PER_SIGNATURE,
      accountKeys: [address],
      writable: [address],
      preBalances: [before],
      postBalances: [this.svm.getBalance(address) ?? 0n],
      logMessages: result.logs(),
      computeUnitsConsumed: result.computeUnitsConsumed(),
      returnData: null,
      wireTransaction: new Uint8Array(),
    };
    this.remember(record);
    this.emit('transaction', record);
    return record;
  }

  getTransaction(signature: string): TransactionRecord | undefined {
    return this.history.get(signature);
  }

  /** Signatures that touched `address`, newest first. */
  signaturesFor(address: string): TransactionRecord[] {
    return (this.byAddress.get(address) ?? [])
      .map((signature) => this.history.get(signature))
      .filter((record): record is TransactionRecord => record !== undefined)
      .reverse();
  }
}
