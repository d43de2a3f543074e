/**
 * The embedded chain: LiteSVM (the real Agave runtime) plus what a validator adds around it and LiteSVM
 * does not: a slot clock, the Clock and SlotHashes sysvars moving every slot, a fresh blockhash per slot
 * valid for 150 blocks, signature verification, arrival-order execution, and a transaction history for
 * status and lookup. Single node: every processed transaction is also confirmed and finalized.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { SYSTEM_PROGRAM_ADDRESS, getTransferSolInstruction } from '@solana-program/system';
import { epochAndSlotIndex, leaderScheduleEpoch } from './epoch-schedule';
import {
  appendTransactionMessageInstruction,
  compileTransactionMessage,
  createNoopSigner,
  createTransactionMessage,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  lamports as lamportsOf,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type EncodedAccount,
  type Transaction,
} from '@solana/kit';
import { Clock, LiteSVM, type FailedTransactionMetadata, type TransactionMetadata } from 'litesvm';
import { EventEmitter } from 'node:events';
import { INSTRUCTION_ERROR_NAMES, TRANSACTION_ERROR_NAMES } from '../chain/runtime-error-names';
import { verifyTransactionSignatures } from './signature-verification';
import { isTokenProgram, memoisedMintDecimals, tokenBalanceOf, type MintDecimals, type TokenBalance } from './spl-token-views';
import { messageFee, type TransactionFee } from './transaction-fees';
import { addPrioritizationFee, isSimpleVoteTransaction, recentPrioritizationFeesOf, type SlotPrioritizationFees } from './prioritization-fees';
import { LAMPORTS_PER_SOL_BIGINT } from '../../src-shared/units';

/** Blockhashes stay valid for this many blocks, as on a validator. */
export const BLOCKHASH_VALIDITY_BLOCKS = 150n;
const MAX_SLOT_HASHES = 512;
const DEFAULT_SLOT_MS = 400;
const HISTORY_LIMIT = 50_000;
/** getRecentPrioritizationFees covers this many slots (a validator's prioritization fee cache). */
const PRIORITY_FEE_SLOTS = 150n;

/**
 * The signatures of one address, oldest first, from `head` on: eviction steps `head` forward instead of
 * shifting the array (O(n) for a busy address's 50 000 entries) and compacts once the dead prefix is
 * more than half, so it costs O(1) amortised and the list stays at most twice what history holds.
 */
interface AddressSignatures {
  signatures: string[];
  head: number;
}

/** What the pre-transaction snapshot keeps: balances, and which accounts the transaction could make token accounts. */
interface BalanceSnapshot {
  lamports: bigint[];
  tokens: TokenBalance[];
  /** Indexes whose token balance can differ afterwards: token-owned, absent or System-owned accounts. */
  tokenCandidates: Set<number>;
}

/** A transaction error as a validator's JSON-RPC reports it, e.g. {"InstructionError":[0,{"Custom":6014}]}. */
export type TransactionErrorJson = string | Record<string, unknown>;

export interface TransactionRecord {
  signature: string;
  slot: bigint;
  blockTime: number;
  err: TransactionErrorJson | null;
  /** What the fee payer was charged (signatures, precompile signatures, priority fee). */
  fee: bigint;
  feeDetails: TransactionFee;
  accountKeys: Address[];
  writable: Address[];
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  innerInstructions: InnerInstructions[];
  logMessages: string[];
  computeUnitsConsumed: bigint;
  returnData: { programId: Address; data: Uint8Array } | null;
  wireTransaction: Uint8Array;
}

/** The instructions invoked by top-level instruction `index` (CPIs), as getTransaction's meta lists them. */
export interface InnerInstructions {
  index: number;
  instructions: { programIdIndex: number; accounts: number[]; data: Uint8Array; stackHeight: number }[];
}

export interface ExecutionResult {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: bigint;
  returnData: { programId: Address; data: Uint8Array } | null;
  /** The CPIs each top-level instruction made (simulateTransaction's `innerInstructions`). */
  innerInstructions: InnerInstructions[];
  /** Fix: the accounts of the transaction as the simulation left them (LiteSVM reports them), for simulateTransaction's `accounts`. */
  postAccounts?: Map<Address, EncodedAccount>;
}

export interface DecodedTransaction {
  transaction: Transaction;
  accountKeys: Address[];
  writable: Address[];
  blockhash: string;
  /** Indexes of the account keys that top-level instructions invoke (program ids). */
  invoked: Set<number>;
  fee: TransactionFee;
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

/** What the status cache keeps of a processed transaction. */
export interface TransactionStatus {
  slot: bigint;
  err: TransactionErrorJson | null;
}

export interface LocalChainOptions {
  /** Slot length in ms (default 400). */
  slotMs?: number;
  /** When true the clock only moves with advanceSlots() (tests). */
  manualSlots?: boolean;
  /** Transactions kept for getTransaction and getSignaturesForAddress (default 50 000). */
  historyLimit?: number;
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

/** What the faucet starts with: 500 million SOL, more than any test asks for. */
const FAUCET_LAMPORTS = 500_000_000n * LAMPORTS_PER_SOL_BIGINT;

function createFaucetKey(): { address: Address; privateKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { address: toAddress(publicKey.export({ format: 'der', type: 'spki' }).subarray(-32)), privateKey };
}

/**
 * A message's identity in the status cache. Agave keys it by blake3 over the message bytes; sha256 over
 * the same bytes tells the same messages apart, and the hash never leaves the localnet.
 */
const messageHashOf = (transaction: Transaction) => createHash('sha256').update(transaction.messageBytes as unknown as Uint8Array).digest('hex');


/** Inner instructions as LiteSVM reports them (one list per top-level instruction), empty lists left out as a validator does. */
function innerInstructionsOf(meta: TransactionMetadata): InnerInstructions[] {
  return meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const instruction = inner.instruction();
        return { programIdIndex: instruction.programIdIndex(), accounts: Array.from(instruction.accounts()), data: instruction.data(), stackHeight: inner.stackHeight() };
      }),
    }))
    .filter((entry) => entry.instructions.length > 0);
}

export class LocalChain extends EventEmitter<LocalChainEvents> {
  readonly svm: LiteSVM;
  /**
   * Like a validator's ledger, each localnet is a new cluster: its own genesis hash, so tools (and the
   * keeper) can tell a restarted localnet from the one they knew.
   */
  readonly genesisHash = getBase58Decoder().decode(crypto.getRandomValues(new Uint8Array(32)));
  readonly slotMs: number;
  readonly genesisSlot: bigint;
  /** The faucet key `airdrop` transfers from (a test validator's faucet keypair). */
  private readonly faucet = createFaucetKey();
  private readonly historyLimit: number;
  private timer: NodeJS.Timeout | undefined;
  private readonly blockhashes = new Map<string, bigint>(); // blockhash -> last valid block height
  /**
   * A validator's status cache: the signatures processed per blockhash (with slot and error), kept
   * while the blockhash is valid. Duplicates are refused from here, not from `history`, whose cap could
   * drop a signature that can still land (50 000 at 1 000 tx/s is 50 s; a blockhash lives ~60 s).
   */
  private readonly statusCache = new Map<string, Map<string, TransactionStatus>>();
  /**
   * The message hashes processed per blockhash: Agave refuses a duplicate by its message hash (so a copy
   * of a processed message under other signature bytes is refused too), and keeps signatures for status
   * queries. Kept and dropped with `statusCache`.
   */
  private readonly processedMessages = new Map<string, Set<string>>();
  private readonly history = new Map<string, TransactionRecord>();
  private readonly byAddress = new Map<string, AddressSignatures>(); // address -> signatures in history, oldest first
  private transactionCount = 0n;
  /** Each recent slot's lowest compute-unit prices, of the block and per writable account (getRecentPrioritizationFees). */
  private readonly slotPriorityFees = new Map<bigint, SlotPrioritizationFees>();

  constructor(options: LocalChainOptions = {}) {
    super();
    this.slotMs = options.slotMs ?? DEFAULT_SLOT_MS;
    this.historyLimit = options.historyLimit ?? HISTORY_LIMIT;
    // Signatures and blockhashes are checked here, with a validator's rules (any of the last 150
    // blockhashes), instead of LiteSVM's "latest blockhash only".
    this.svm = new LiteSVM().withSigverify(false).withBlockhashCheck(false).withTransactionHistory(0n);
    this.genesisSlot = this.svm.getClock().slot;
    this.setClockAt(this.genesisSlot, BigInt(Math.floor(Date.now() / 1000)), true);
    this.svm.setAccount({ address: this.faucet.address, lamports: lamportsOf(FAUCET_LAMPORTS), data: new Uint8Array(), programAddress: SYSTEM_PROGRAM_ADDRESS, executable: false, space: 0n });
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
      // Wall-clock time, as a validator's clock follows it (set-up may produce slots faster than real time).
      this.setClockAt(next, BigInt(Math.floor(Date.now() / 1000)));
      const hashes = [{ slot: finished, hash }, ...this.svm.getSlotHashes().filter((entry) => entry.slot < finished)];
      this.svm.setSlotHashes(hashes.slice(0, MAX_SLOT_HASHES));
      this.svm.expireBlockhash();
      this.rememberBlockhash();
      this.slotPriorityFees.delete(next - PRIORITY_FEE_SLOTS);
      this.emit('slot', { slot: next, parent: finished, root: next });
    }
  }

  /** The Clock sysvar at `slot`: its epoch and leader schedule epoch from the EpochSchedule sysvar; a new epoch starts its timestamp. */
  private setClockAt(slot: bigint, unixTimestamp: bigint, first = false): void {
    const clock = this.svm.getClock();
    const schedule = this.svm.getEpochSchedule();
    const { epoch } = epochAndSlotIndex(schedule, slot);
    const epochStartTimestamp = first || epoch !== clock.epoch ? unixTimestamp : clock.epochStartTimestamp;
    this.svm.setClock(new Clock(slot, epochStartTimestamp, epoch, leaderScheduleEpoch(schedule, slot), unixTimestamp));
  }

  private rememberBlockhash(): void {
    const height = this.blockHeight();
    this.blockhashes.set(this.svm.latestBlockhash(), height + BLOCKHASH_VALIDITY_BLOCKS);
    for (const [blockhash, lastValid] of this.blockhashes) {
      // A transaction on an expired blockhash is refused before the status cache is asked.
      if (lastValid < height) {
        this.statusCache.delete(blockhash);
        this.processedMessages.delete(blockhash);
      }
      if (lastValid + BLOCKHASH_VALIDITY_BLOCKS < height) this.blockhashes.delete(blockhash);
    }
  }

  /** The last transaction decoded: a send decodes the same bytes for preflight, simulation and submit. */
  private lastDecoded: { wire: Uint8Array; decoded: DecodedTransaction } | undefined;

  /** Decodes a wire transaction; throws ChainError('InvalidTransaction') on garbage. */
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
      const instructions = (message as { instructions?: readonly { programAddressIndex: number }[] }).instructions ?? [];
      return {
        transaction,
        accountKeys: [...keys],
        writable,
        blockhash: message.lifetimeToken,
        invoked: new Set(instructions.map((ix) => ix.programAddressIndex)),
        fee: messageFee(message),
      };
    } catch (error) {
      // The message a validator gives for bytes bincode cannot read (Agave rpc.rs decode_and_deserialize).
      throw new ChainError('InvalidTransaction', `failed to deserialize solana_transaction::versioned::VersionedTransaction: ${(error as Error).message}`);
    }
  }

  /** True when the status cache holds this transaction's message (it would be refused as AlreadyProcessed). */
  isProcessed(decoded: DecodedTransaction): boolean {
    return this.processedMessages.get(decoded.blockhash)?.has(messageHashOf(decoded.transaction)) ?? false;
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
      innerInstructions: innerInstructionsOf(meta),
      postAccounts: 'err' in result ? undefined : new Map(result.postAccounts().map((account) => [account.address, account])),
    };
  }

  private returnDataOf(meta: TransactionMetadata): ExecutionResult['returnData'] {
    const returnData = meta.returnData();
    const data = returnData.data();
    return data.length > 0 ? { programId: toAddress(returnData.programId()), data } : null;
  }

  /**
   * Lamports and SPL Token balances of a transaction's accounts before it runs. Program accounts
   * (invoked keys) and sysvars are only asked for their balance: a validator skips programs for token
   * balances, and neither can be a token account (their data can be large to copy).
   */
  private balancesBefore(accountKeys: Address[], invoked: Set<number>, decimalsOf: MintDecimals): BalanceSnapshot {
    const lamports: bigint[] = [];
    const tokens: TokenBalance[] = [];
    const tokenCandidates = new Set<number>();
    accountKeys.forEach((key, index) => {
      if (invoked.has(index) || key.startsWith('Sysvar')) {
        lamports.push(this.svm.getBalance(key) ?? 0n);
        return;
      }
      const account = this.svm.getAccount(key);
      lamports.push(account.exists ? account.lamports : 0n);
      // Only a token program's account holds tokens; a new one is created from nothing (System-owned or absent).
      if (!account.exists || account.programAddress === SYSTEM_PROGRAM_ADDRESS) tokenCandidates.add(index);
      else if (isTokenProgram(account.programAddress)) {
        tokenCandidates.add(index);
        const balance = tokenBalanceOf(index, account, decimalsOf);
        if (balance) tokens.push(balance);
      }
    });
    return { lamports, tokens, tokenCandidates };
  }

  /**
   * The balances after the transaction: token balances re-read only for the candidates it wrote (a
   * read-only account, or any account of a failed transaction, keeps the balance it had; an account
   * another program owns does not become a token account in practice), other lamports read without
   * copying account data.
   */
  private balancesAfter(accountKeys: Address[], writable: Set<Address>, before: BalanceSnapshot, succeeded: boolean, decimalsOf: MintDecimals) {
    const lamports: bigint[] = [];
    const kept = new Map(before.tokens.map((balance) => [balance.accountIndex, balance]));
    const tokens: TokenBalance[] = [];
    accountKeys.forEach((key, index) => {
      if (!succeeded || !before.tokenCandidates.has(index) || !writable.has(key)) {
        lamports.push(this.svm.getBalance(key) ?? 0n);
        const balance = kept.get(index);
        if (balance) tokens.push(balance);
        return;
      }
      const account = this.svm.getAccount(key);
      lamports.push(account.exists ? account.lamports : 0n);
      const balance = account.exists ? tokenBalanceOf(index, account, decimalsOf) : null;
      if (balance) tokens.push(balance);
    });
    return { lamports, tokens };
  }

  /**
   * Executes a transaction now (arrival order), records it and returns its signature. Refuses before
   * execution what a validator refuses before a block, in a validator's order: bad signatures
   * (sigverify), then an unknown or expired blockhash, then a signature already processed.
   */
  submit(wire: Uint8Array, options: { signaturesVerified?: boolean } = {}): TransactionRecord {
    const { transaction, accountKeys, writable, blockhash, invoked, fee } = this.decode(wire);
    const signature = getBase58Decoder().decode(Object.values(transaction.signatures)[0] ?? new Uint8Array(64));
    // A preflight that just verified the same bytes need not do it twice.
    if (!options.signaturesVerified && !verifyTransactionSignatures(transaction)) {
      throw new ChainError('SignatureFailure', 'Transaction signature verification failure');
    }
    if (!this.isBlockhashValid(blockhash)) throw new ChainError('BlockhashNotFound', 'Blockhash not found');
    const messageHash = messageHashOf(transaction);
    if (this.processedMessages.get(blockhash)?.has(messageHash)) throw new ChainError('AlreadyProcessed', 'This transaction has already been processed');

    // One decimals reader for both snapshots: each mint is read once per transaction.
    const decimalsOf = memoisedMintDecimals((key) => {
      const account = this.svm.getAccount(key);
      return account.exists ? account : null;
    });
    const before = this.balancesBefore(accountKeys, invoked, decimalsOf);
    const result = this.svm.sendTransaction(transaction);
    const meta = 'err' in result ? result.meta() : result;
    const after = this.balancesAfter(accountKeys, new Set(writable), before, !('err' in result), decimalsOf);
    // A failed transaction leaves nothing but the fee payer's fee, and LiteSVM charges none when the
    // payer cannot pay it (a validator would drop that transaction): the payer's loss is the fee.
    const charged = 'err' in result ? before.lamports[0]! - after.lamports[0]! : fee.total;
    const record: TransactionRecord = {
      signature,
      slot: this.slot(),
      blockTime: Math.floor(Date.now() / 1000),
      err: 'err' in result ? errorJson(result) : null,
      fee: charged > 0n ? charged : 0n,
      feeDetails: fee,
      accountKeys,
      writable,
      preBalances: before.lamports,
      postBalances: after.lamports,
      preTokenBalances: before.tokens,
      postTokenBalances: after.tokens,
      innerInstructions: innerInstructionsOf(meta),
      logMessages: meta.logs(),
      computeUnitsConsumed: meta.computeUnitsConsumed(),
      returnData: this.returnDataOf(meta),
      wireTransaction: wire,
    };
    const processed = this.statusCache.get(blockhash) ?? new Map<string, TransactionStatus>();
    processed.set(signature, { slot: record.slot, err: record.err });
    this.statusCache.set(blockhash, processed);
    const messages = this.processedMessages.get(blockhash) ?? new Set<string>();
    messages.add(messageHash);
    this.processedMessages.set(blockhash, messages);
    this.recordPrioritizationFee(record, [...invoked].map((index) => accountKeys[index]!));
    this.remember(record);
    this.emit('transaction', record);
    return record;
  }

  private remember(record: TransactionRecord): void {
    this.transactionCount += 1n;
    this.history.set(record.signature, record);
    for (const key of new Set(record.accountKeys)) {
      let list = this.byAddress.get(key);
      if (!list) this.byAddress.set(key, (list = { signatures: [], head: 0 }));
      list.signatures.push(record.signature);
    }
    if (this.history.size > this.historyLimit) {
      const oldest = this.history.values().next().value;
      if (oldest) this.forget(oldest);
    }
  }

  /** Drops the oldest record from history and from the address index, so both stay bounded. */
  private forget(record: TransactionRecord): void {
    this.history.delete(record.signature);
    for (const key of new Set(record.accountKeys)) {
      const list = this.byAddress.get(key);
      if (!list) continue;
      // History is evicted oldest first, so the record is at the head of each of its lists; anything
      // else history no longer holds is stepped over too.
      const { signatures } = list;
      while (list.head < signatures.length && !this.history.has(signatures[list.head]!)) list.head += 1;
      if (list.head === signatures.length) this.byAddress.delete(key);
      else if (list.head * 2 > signatures.length) {
        signatures.splice(0, list.head);
        list.head = 0;
      }
    }
  }

  /** Sizes of what the chain keeps per transaction (all bounded: history by its limit, the rest by blockhash expiry). */
  retained(): { history: number; indexedAddresses: number; indexedSignatures: number; statusCacheSignatures: number } {
    let statusCacheSignatures = 0;
    for (const signatures of this.statusCache.values()) statusCacheSignatures += signatures.size;
    let indexedSignatures = 0;
    for (const list of this.byAddress.values()) indexedSignatures += list.signatures.length;
    return { history: this.history.size, indexedAddresses: this.byAddress.size, indexedSignatures, statusCacheSignatures };
  }

  processedTransactionCount(): bigint {
    return this.transactionCount;
  }

  /**
   * Books a landed transaction in its slot's prioritization fees as Agave's PrioritizationFeeCache::update
   * does (runtime/src/prioritization_fee_cache.rs): vote transactions are left out (not prioritized), and so
   * is one asking for a compute-unit limit of 0; the rest lower the block's minimum and the minimum of each
   * account they write.
   */
  private recordPrioritizationFee(record: TransactionRecord, invoked: readonly Address[]): void {
    const { feeDetails } = record;
    if (feeDetails.computeUnitLimit === 0n || isSimpleVoteTransaction(feeDetails.transactionSignatures, invoked)) return;
    addPrioritizationFee(this.slotPriorityFees, record.slot, feeDetails.computeUnitPrice, record.writable);
    // Only the last 150 slots are ever asked for: older ones go.
    for (const slot of this.slotPriorityFees.keys()) {
      if (slot > record.slot - PRIORITY_FEE_SLOTS) break;
      this.slotPriorityFees.delete(slot);
    }
  }

  /**
   * getRecentPrioritizationFees over the last 150 slots, oldest first: see recentPrioritizationFeesOf. Every
   * slot is listed (0 for one without a transaction), as a busy cluster's every slot is.
   */
  recentPrioritizationFees(accounts: readonly string[] = []): { slot: bigint; prioritizationFee: bigint }[] {
    const slot = this.slot();
    const first = slot - PRIORITY_FEE_SLOTS + 1n > this.genesisSlot ? slot - PRIORITY_FEE_SLOTS + 1n : this.genesisSlot;
    return recentPrioritizationFeesOf(this.slotPriorityFees, first, slot, accounts);
  }

  /** Sends `lamports` from the built-in faucet, recorded like any transaction. */
  /**
   * An airdrop as a test validator's faucet makes it: a real, legacy System transfer from the faucet key,
   * signed and executed like any transaction, so getTransaction, statuses and subscriptions see it whole.
   * Identical requests under one blockhash are one transaction (the same signature), as with Agave's faucet.
   */
  airdrop(address: Address, lamports: bigint): TransactionRecord {
    const { blockhash, lastValidBlockHeight } = this.latestBlockhash();
    const message = compileTransactionMessage(
      pipe(
        createTransactionMessage({ version: 'legacy' }),
        (m) => setTransactionMessageFeePayer(this.faucet.address, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash as Blockhash, lastValidBlockHeight }, m),
        (m) => appendTransactionMessageInstruction(getTransferSolInstruction({ source: createNoopSigner(this.faucet.address), destination: address, amount: lamports }), m),
      ),
    );
    const messageBytes = Uint8Array.from(getCompiledTransactionMessageEncoder().encode(message));
    // Signed here, synchronously (callers fund keys inline): node's ed25519 is the same signature kit makes.
    const signature = sign(null, messageBytes, this.faucet.privateKey);
    const wire = new Uint8Array(1 + 64 + messageBytes.length);
    wire[0] = 1;
    wire.set(signature, 1);
    wire.set(messageBytes, 65);
    const known = this.history.get(getBase58Decoder().decode(signature));
    if (known) return known;
    return this.submit(wire, { signaturesVerified: true });
  }

  getTransaction(signature: string): TransactionRecord | undefined {
    return this.history.get(signature);
  }

  /** The status of a processed transaction: from history, else (evicted from it) from the status cache, as a validator answers. */
  signatureStatus(signature: string): TransactionStatus | undefined {
    const record = this.history.get(signature);
    if (record) return { slot: record.slot, err: record.err };
    for (const processed of this.statusCache.values()) {
      const status = processed.get(signature);
      if (status) return status;
    }
    return undefined;
  }

  /** Signatures that touched `address`, newest first. */
  signaturesFor(address: string): TransactionRecord[] {
    const list = this.byAddress.get(address);
    const records: TransactionRecord[] = [];
    if (!list) return records;
    for (let i = list.signatures.length - 1; i >= list.head; i--) {
      const record = this.history.get(list.signatures[i]!);
      if (record) records.push(record);
    }
    return records;
  }
}
