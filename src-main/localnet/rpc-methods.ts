/**
 * The Solana JSON-RPC methods the localnet serves, with a validator's request and response shapes:
 * `{ context: { slot, apiVersion }, value }` where a validator wraps, u64 values as JSON integers,
 * account data as [string, encoding], errors with a validator's codes and messages.
 */
import {
  address,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  isAddress,
  type Address,
  type ReadonlyUint8Array,
} from '@solana/kit';
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { ChainError, LAMPORTS_PER_SIGNATURE, type LocalChain, type TransactionRecord } from './local-chain';
import {
  RPC_INVALID_REQUEST,
  RPC_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  RpcError,
  invalidParams,
} from './rpc-errors';

export const RPC_API_VERSION = '2.3.0';
/** Agave cost model: per signature and per writable account. */
const SIGNATURE_COST = 720n;
const WRITE_LOCK_COST = 300n;
/** Signatures of a recorded transaction (its fee is 5 000 lamports per signature). */
const signatureCount = (record: TransactionRecord) => Number(record.fee / LAMPORTS_PER_SIGNATURE);
const MAX_BASE58_ACCOUNT_BYTES = 128;

type Params = unknown[];
type Config = Record<string, unknown>;
export type RpcMethod = (params: Params) => unknown;

/** A simulation result for a transaction refused before it ran (all of a validator's keys). */
const NOT_SIMULATED = {
  err: null as unknown,
  logs: [] as string[],
  accounts: null,
  unitsConsumed: 0n,
  loadedAccountsDataSize: 0,
  returnData: null,
  innerInstructions: null,
  replacementBlockhash: null,
};

const configOf = (value: unknown): Config => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Config) : {});

function addressParam(value: unknown, what = 'address'): Address {
  if (typeof value !== 'string' || !isAddress(value)) throw invalidParams(`Invalid param: Invalid ${what}`);
  return address(value);
}

function u64Param(value: unknown, what: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return BigInt(value);
  throw invalidParams(`Invalid param: ${what} must be a non-negative integer`);
}

function decodeWire(value: unknown, encoding: unknown): Uint8Array {
  if (typeof value !== 'string') throw invalidParams('Invalid params: transaction must be an encoded string');
  try {
    if (encoding === 'base64') return Uint8Array.from(getBase64Encoder().encode(value));
    if (encoding === undefined || encoding === 'base58') return Uint8Array.from(getBase58Encoder().encode(value));
  } catch {
    throw invalidParams(`Invalid param: invalid ${encoding ?? 'base58'} encoding`);
  }
  throw invalidParams(`Invalid param: unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`);
}

interface StoredAccount {
  data: ReadonlyUint8Array;
  executable: boolean;
  lamports: bigint;
  programAddress: Address;
  space: bigint;
}

/** An account as getAccountInfo shows it, in the requested encoding and data slice. */
function encodeAccount(account: StoredAccount, config: Config) {
  const slice = configOf(config.dataSlice);
  let data = Uint8Array.from(account.data);
  if (config.dataSlice !== undefined) {
    const offset = Number(slice.offset ?? 0);
    data = data.subarray(offset, offset + Number(slice.length ?? 0));
  }
  const encoding = config.encoding ?? 'binary';
  let encoded: unknown;
  if (encoding === 'base64' || encoding === 'jsonParsed') {
    // jsonParsed: a validator falls back to base64 for data it cannot parse; we parse none.
    encoded = [getBase64Decoder().decode(data), 'base64'];
  } else if (encoding === 'base58' || encoding === 'binary') {
    if (data.length > MAX_BASE58_ACCOUNT_BYTES) {
      // Fix: a validator answers this with -32600 (InvalidRequest, Agave's encode_account), not -32602.
      throw new RpcError(RPC_INVALID_REQUEST, `Encoded binary (base 58) data should be less than ${MAX_BASE58_ACCOUNT_BYTES} bytes, please use Base64 encoding.`);
    }
    const base58 = getBase58Decoder().decode(data);
    encoded = encoding === 'binary' ? base58 : [base58, 'base58'];
  } else {
    throw invalidParams(`Invalid param: unsupported encoding: ${String(encoding)}`);
  }
  return {
    data: encoded,
    executable: account.executable,
    lamports: account.lamports,
    owner: account.programAddress,
    rentEpoch: 18_446_744_073_709_551_615n,
    space: BigInt(account.data.length),
  };
}

function matchesFilters(data: ReadonlyUint8Array, filters: unknown): boolean {
  if (filters === undefined) return true;
  if (!Array.isArray(filters)) throw invalidParams('Invalid param: filters must be an array');
  for (const filter of filters) {
    const f = configOf(filter);
    if (f.dataSize !== undefined) {
      if (BigInt(data.length) !== u64Param(f.dataSize, 'dataSize')) return false;
    } else if (f.memcmp !== undefined) {
      const memcmp = configOf(f.memcmp);
      const offset = Number(u64Param(memcmp.offset, 'memcmp offset'));
      if (typeof memcmp.bytes !== 'string') throw invalidParams('Invalid param: memcmp bytes must be a string');
      let bytes: ReadonlyUint8Array;
      try {
        bytes = memcmp.encoding === 'base64' ? getBase64Encoder().encode(memcmp.bytes) : getBase58Encoder().encode(memcmp.bytes);
      } catch {
        throw invalidParams('Invalid param: memcmp bytes are not valid for their encoding');
      }
      if (offset + bytes.length > data.length) return false;
      for (let i = 0; i < bytes.length; i++) if (data[offset + i] !== bytes[i]) return false;
    } else {
      throw invalidParams('Invalid param: unsupported filter');
    }
  }
  return true;
}

function statusOf(record: TransactionRecord) {
  return {
    slot: record.slot,
    confirmations: null,
    err: record.err,
    confirmationStatus: 'finalized',
    status: record.err === null ? { Ok: null } : { Err: record.err },
  };
}

/** Renders a validator's "Transaction simulation failed: ..." text for an error. */
function describeTransactionError(err: unknown): string {
  if (typeof err === 'string') {
    const known: Record<string, string> = {
      BlockhashNotFound: 'Blockhash not found',
      AlreadyProcessed: 'This transaction has already been processed',
      InsufficientFundsForFee: 'Attempt to debit an account but found no record of a prior credit.',
      AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
    };
    return known[err] ?? err;
  }
  const instructionError = (err as { InstructionError?: [number, unknown] }).InstructionError;
  if (instructionError) {
    const [index, inner] = instructionError;
    const custom = (inner as { Custom?: number }).Custom;
    const reason = custom !== undefined ? `custom program error: 0x${custom.toString(16)}` : String(inner);
    return `Error processing Instruction ${index}: ${reason}`;
  }
  return JSON.stringify(err);
}

/**
 * `{ pubkey, account }` as getProgramAccounts lists it, when the account at `key` belongs to `program`
 * and passes `config.filters`; else null. PubSub uses it for just the accounts a transaction wrote.
 */
export function programAccountEntry(chain: LocalChain, key: Address, program: Address, rawConfig: unknown) {
  const account = chain.svm.getAccount(key);
  const config = configOf(rawConfig);
  if (!account.exists || account.programAddress !== program || !matchesFilters(account.data, config.filters)) return null;
  return { pubkey: key, account: encodeAccount(account, config) };
}

export function createRpcMethods(chain: LocalChain): Record<string, RpcMethod> {
  const context = () => ({ slot: chain.slot(), apiVersion: RPC_API_VERSION });
  const withContext = (value: unknown) => ({ context: context(), value });
  const readAccount = (key: Address): StoredAccount | null => {
    const account = chain.svm.getAccount(key);
    return account.exists ? account : null;
  };
  const genesisHash = getBase58Decoder().decode(new Uint8Array(32).fill(7));

  const simulate = (wire: Uint8Array, config: Config) => {
    const sigVerify = config.sigVerify === true;
    if (sigVerify && config.replaceRecentBlockhash === true) {
      throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
    }
    const { blockhash, accountKeys } = chain.decode(wire);
    if (config.replaceRecentBlockhash !== true && !chain.isBlockhashValid(blockhash)) {
      return { ...NOT_SIMULATED, err: 'BlockhashNotFound' };
    }
    let result;
    try {
      result = chain.simulate(wire, { sigVerify });
    } catch (error) {
      if (error instanceof ChainError && error.kind === 'SignatureFailure') {
        throw new RpcError(RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure');
      }
      throw error;
    }
    const accountsConfig = configOf(config.accounts);
    const addresses = Array.isArray(accountsConfig.addresses) ? accountsConfig.addresses : null;
    return {
      err: result.err,
      logs: result.logs,
      // Fix: a validator returns the accounts as the simulation left them (this returned their state
      // before it); accounts the transaction does not load are read as they are.
      accounts: addresses
        ? addresses.map((a) => {
            const key = addressParam(a);
            const account = result.postAccounts?.get(key) ?? readAccount(key);
            return account ? encodeAccount(account, { encoding: accountsConfig.encoding ?? 'base64' }) : null;
          })
        : null,
      unitsConsumed: result.unitsConsumed,
      returnData: result.returnData
        ? { programId: result.returnData.programId, data: [getBase64Decoder().decode(result.returnData.data), 'base64'] }
        : null,
      // Fix: a validator (2.x RpcSimulateTransactionResult) always writes these keys, null when not
      // asked for. LiteSVM does not report the loaded accounts data size: this is the data size of the
      // accounts the message names (programs' program-data accounts are not counted).
      loadedAccountsDataSize: accountKeys.reduce((total, key) => total + (readAccount(key)?.data.length ?? 0), 0),
      innerInstructions: null,
      replacementBlockhash: config.replaceRecentBlockhash === true ? chain.latestBlockhash() : null,
    };
  };

  const tokenAccountBalance = (data: ReadonlyUint8Array) => {
    const token = getTokenDecoder().decode(data);
    const mint = readAccount(token.mint);
    const decimals = mint ? getMintDecoder().decode(mint.data).decimals : 0;
    const uiAmountString = formatUnits(token.amount, decimals);
    return { amount: token.amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
  };

  const transactionJson = (record: TransactionRecord, encoding: unknown) => {
    if (record.wireTransaction.length === 0) return null; // faucet airdrops have no wire form here
    if (encoding === 'base64') return [getBase64Decoder().decode(record.wireTransaction), 'base64'];
    if (encoding === 'base58') return [getBase58Decoder().decode(record.wireTransaction), 'base58'];
    const { transaction } = chain.decode(record.wireTransaction);
    const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    return {
      signatures: Object.values(transaction.signatures).map((s) => (s ? getBase58Decoder().decode(s) : null)),
      message: {
        accountKeys: message.staticAccounts,
        // Fix: a validator names the header fields like this; kit's compiled header names them
        // numSignerAccounts / numReadonlySignerAccounts / numReadonlyNonSignerAccounts.
        header: {
          numRequiredSignatures: message.header.numSignerAccounts,
          numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
          numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
        },
        recentBlockhash: message.lifetimeToken,
        instructions: instructionsOf(message).map((ix) => ({
          programIdIndex: ix.programAddressIndex,
          accounts: ix.accountIndices ?? [],
          data: getBase58Decoder().decode(Uint8Array.from(ix.data ?? [])),
          stackHeight: null,
        })),
        ...(message.version === 0 ? { addressTableLookups: [] } : {}),
      },
    };
  };

  const methods: Record<string, RpcMethod> = {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': `${RPC_API_VERSION} (wager-keeper localnet, LiteSVM)`, 'feature-set': 0 }),
    getGenesisHash: () => genesisHash,
    getSlot: () => chain.slot(),
    getBlockHeight: () => chain.blockHeight(),
    getEpochInfo: () => {
      const clock = chain.svm.getClock();
      const schedule = chain.svm.getEpochSchedule();
      const slotsInEpoch = schedule.slotsPerEpoch;
      return {
        absoluteSlot: clock.slot,
        blockHeight: chain.blockHeight(),
        epoch: clock.epoch,
        slotIndex: clock.slot % slotsInEpoch,
        slotsInEpoch,
        transactionCount: chain.processedTransactionCount(),
      };
    },
    getLatestBlockhash: () => withContext(chain.latestBlockhash()),
    isBlockhashValid: ([blockhash]) => {
      if (typeof blockhash !== 'string') throw invalidParams('Invalid param: blockhash must be a string');
      return withContext(chain.isBlockhashValid(blockhash));
    },
    getBalance: ([key]) => withContext(chain.svm.getBalance(addressParam(key)) ?? 0n),
    getAccountInfo: ([key, config]) => {
      const account = readAccount(addressParam(key));
      return withContext(account ? encodeAccount(account, configOf(config)) : null);
    },
    getMultipleAccounts: ([keys, config]) => {
      if (!Array.isArray(keys)) throw invalidParams('Invalid params: expected an array of addresses');
      if (keys.length > 100) throw invalidParams('Too many inputs provided; max 100');
      return withContext(
        keys.map((key) => {
          const account = readAccount(addressParam(key));
          return account ? encodeAccount(account, configOf(config)) : null;
        }),
      );
    },
    getProgramAccounts: ([program, rawConfig]) => {
      const config = configOf(rawConfig);
      const owner = addressParam(program, 'program id');
      const value = chain.svm
        .getProgramAccounts(owner)
        .filter((account) => matchesFilters(account.data, config.filters))
        .map((account) => ({ pubkey: account.address, account: encodeAccount(account, config) }));
      return config.withContext === true ? withContext(value) : value;
    },
    getTokenAccountBalance: ([key]) => {
      const account = readAccount(addressParam(key));
      if (!account || account.programAddress !== TOKEN_PROGRAM_ADDRESS || account.data.length !== 165) {
        throw invalidParams('Invalid param: not a Token account');
      }
      return withContext(tokenAccountBalance(account.data));
    },
    getTokenAccountsByOwner: ([owner, filter, rawConfig]) => {
      const ownerAddress = addressParam(owner, 'owner');
      const f = configOf(filter);
      const mint = f.mint !== undefined ? addressParam(f.mint, 'mint') : undefined;
      if (mint === undefined && f.programId === undefined) throw invalidParams('Invalid params: expected mint or programId');
      if (f.programId !== undefined && addressParam(f.programId, 'program id') !== TOKEN_PROGRAM_ADDRESS) {
        return withContext([]);
      }
      const config = configOf(rawConfig);
      const value = chain.svm
        .getProgramAccounts(TOKEN_PROGRAM_ADDRESS)
        .filter((account) => account.data.length === 165)
        .filter((account) => {
          const token = getTokenDecoder().decode(account.data);
          return token.owner === ownerAddress && (mint === undefined || token.mint === mint);
        })
        .map((account) => ({ pubkey: account.address, account: encodeAccount(account, config) }));
      return withContext(value);
    },
    getMinimumBalanceForRentExemption: ([size]) => chain.svm.minimumBalanceForRentExemption(u64Param(size ?? 0, 'data length')),
    getFeeForMessage: ([message]) => {
      if (typeof message !== 'string') throw invalidParams('Invalid param: message must be base64');
      try {
        const decoded = getCompiledTransactionMessageDecoder().decode(getBase64Encoder().encode(message));
        if (!chain.isBlockhashValid(decoded.lifetimeToken)) return withContext(null);
        return withContext(LAMPORTS_PER_SIGNATURE * BigInt(decoded.header.numSignerAccounts));
      } catch {
        throw invalidParams('Invalid param: failed to deserialize message');
      }
    },
    getRecentPrioritizationFees: () => {
      const slot = chain.slot();
      return Array.from({ length: 10 }, (_, i) => ({ slot: slot - BigInt(i), prioritizationFee: 0n })).filter((e) => e.slot >= 0n);
    },
    getSignatureStatuses: ([signatures]) => {
      if (!Array.isArray(signatures)) throw invalidParams('Invalid params: expected an array of signatures');
      if (signatures.length > 256) throw invalidParams('Too many inputs provided; max 256');
      return withContext(
        signatures.map((signature) => {
          const record = typeof signature === 'string' ? chain.getTransaction(signature) : undefined;
          return record ? statusOf(record) : null;
        }),
      );
    },
    getSignaturesForAddress: ([key, rawConfig]) => {
      const config = configOf(rawConfig);
      const limit = Math.min(Number(config.limit ?? 1000), 1000);
      let records = chain.signaturesFor(addressParam(key));
      if (typeof config.before === 'string') {
        const index = records.findIndex((r) => r.signature === config.before);
        records = index === -1 ? [] : records.slice(index + 1);
      }
      if (typeof config.until === 'string') {
        const index = records.findIndex((r) => r.signature === config.until);
        if (index !== -1) records = records.slice(0, index);
      }
      return records.slice(0, limit).map((record) => ({
        signature: record.signature,
        slot: record.slot,
        err: record.err,
        memo: null,
        blockTime: record.blockTime,
        confirmationStatus: 'finalized',
      }));
    },
    getTransaction: ([signature, rawConfig]) => {
      if (typeof signature !== 'string') throw invalidParams('Invalid param: signature must be a string');
      const config = typeof rawConfig === 'string' ? { encoding: rawConfig } : configOf(rawConfig);
      const record = chain.getTransaction(signature);
      if (!record) return null;
      const { transaction } = record.wireTransaction.length ? chain.decode(record.wireTransaction) : { transaction: null };
      const version = transaction ? getCompiledTransactionMessageDecoder().decode(transaction.messageBytes).version : 'legacy';
      if (version === 0 && config.maxSupportedTransactionVersion === undefined) {
        throw new RpcError(-32015, 'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0');
      }
      return {
        slot: record.slot,
        blockTime: record.blockTime,
        // Fix: a validator writes `version` only when the request set maxSupportedTransactionVersion.
        ...(config.maxSupportedTransactionVersion !== undefined ? { version } : {}),
        transaction: transactionJson(record, config.encoding),
        meta: {
          err: record.err,
          status: record.err === null ? { Ok: null } : { Err: record.err },
          fee: record.fee,
          preBalances: record.preBalances,
          postBalances: record.postBalances,
          innerInstructions: [],
          logMessages: record.logMessages,
          preTokenBalances: [],
          postTokenBalances: [],
          rewards: [],
          loadedAddresses: { writable: [], readonly: [] },
          computeUnitsConsumed: record.computeUnitsConsumed,
          // Fix: 2.3 validators also report the transaction's cost (`costUnits`). LiteSVM has no cost
          // model: this is the cost model's signature, write-lock and execution parts.
          costUnits: SIGNATURE_COST * BigInt(signatureCount(record)) + WRITE_LOCK_COST * BigInt(record.writable.length) + record.computeUnitsConsumed,
          ...(record.returnData
            ? { returnData: { programId: record.returnData.programId, data: [getBase64Decoder().decode(record.returnData.data), 'base64'] } }
            : {}),
        },
      };
    },
    requestAirdrop: ([key, amount]) => chain.airdrop(addressParam(key), u64Param(amount, 'lamports')).signature,
    simulateTransaction: ([encoded, rawConfig]) => {
      const config = configOf(rawConfig);
      return withContext(simulate(decodeWire(encoded, config.encoding), config));
    },
    sendTransaction: ([encoded, rawConfig]) => {
      const config = configOf(rawConfig);
      const wire = decodeWire(encoded, config.encoding);
      if (config.skipPreflight !== true) {
        const preflight = simulate(wire, { sigVerify: true });
        if (preflight.err !== null) {
          throw new RpcError(RPC_SEND_TRANSACTION_PREFLIGHT_FAILURE, `Transaction simulation failed: ${describeTransactionError(preflight.err)}`, preflight);
        }
      }
      try {
        return chain.submit(wire, { signaturesVerified: config.skipPreflight !== true }).signature;
      } catch (error) {
        if (!(error instanceof ChainError)) throw error;
        if (error.kind === 'SignatureFailure') throw new RpcError(RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, error.message);
        if (error.kind === 'InvalidTransaction') throw invalidParams(error.message);
        throw new RpcError(RPC_SEND_TRANSACTION_PREFLIGHT_FAILURE, `Transaction simulation failed: ${error.message}`, {
          ...NOT_SIMULATED, err: error.kind,
        });
      }
    },
  };
  return methods;
}

interface CompiledInstructionView {
  programAddressIndex: number;
  accountIndices?: readonly number[];
  data?: ReadonlyUint8Array;
}
/** The compiled instructions of a legacy or v0 message (the v1 shape keeps them elsewhere). */
const instructionsOf = (message: object): readonly CompiledInstructionView[] =>
  (message as { instructions?: readonly CompiledInstructionView[] }).instructions ?? [];

/** A base-unit amount as a decimal string with `decimals` places, trailing zeros trimmed. */
export function formatUnits(amount: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const whole = amount / scale;
  const fraction = (amount % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}
