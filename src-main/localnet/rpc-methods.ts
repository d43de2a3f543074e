/**
 * The Solana JSON-RPC methods the localnet serves, with a validator's request and response shapes:
 * `{ context: { slot, apiVersion }, value }` where a validator wraps, u64 values as JSON integers,
 * account data as [string, encoding], errors with a validator's codes and messages.
 */
import { parseInstruction } from './parsed-instructions';
import { epochAndSlotIndex, slotsInEpoch } from './epoch-schedule';
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
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import {
  accountViewParam,
  checkSliceAndEncoding,
  configParam,
  encodeAccount,
  encodingParam,
  FilterError,
  filtersParam,
  matchesFilters,
  optionalBoolParam,
  verifyFilters,
  type AccountView,
} from './account-encoding';
import { ChainError, type DecodedTransaction, type LocalChain, type TransactionRecord, type TransactionStatus } from './local-chain';
import {
  RPC_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  RpcError,
  describeTransactionError,
  invalidParams,
} from './rpc-errors';
import {
  decodeMint,
  decodeTokenAccount,
  isTokenProgram,
  memoisedMintDecimals,
  mintDecimalsReader,
  NATIVE_MINT,
  uiTokenAmount,
} from './spl-token-views';
import { verifyTransactionSignatures } from './signature-verification';
import { messageFee } from './transaction-fees';

export const RPC_API_VERSION = '2.3.0';
/** Agave cost model: per signature and per writable account. */
const SIGNATURE_COST = 720n;
const WRITE_LOCK_COST = 300n;
/** Agave's MAX_GET_CONFIRMED_SIGNATURES_FOR_ADDRESS2_LIMIT. */
const MAX_SIGNATURES_LIMIT = 1000;

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

function statusOf(record: TransactionStatus) {
  return {
    slot: record.slot,
    confirmations: null,
    err: record.err,
    confirmationStatus: 'finalized',
    status: record.err === null ? { Ok: null } : { Err: record.err },
  };
}

/** Reads accounts of the chain (null when missing) and the decimals of mints through it. */
function chainReader(chain: LocalChain) {
  const read = (key: Address): StoredAccount | null => {
    const account = chain.svm.getAccount(key);
    return account.exists ? account : null;
  };
  return { read, decimalsOf: mintDecimalsReader(read) };
}

/** The `accounts` option of simulateTransaction, checked as Agave's rpc.rs does. */
function simulationAccountsRequest(value: unknown, decoded: DecodedTransaction) {
  if (value === undefined || value === null) return null;
  const config = configOf(value);
  const encoding = encodingParam(config.encoding, 'base64');
  if (encoding === 'binary' || encoding === 'base58') throw invalidParams('base58 encoding not supported');
  const addresses = Array.isArray(config.addresses) ? config.addresses : [];
  // The account keys of the transaction bound the request (no lookup tables are resolved here).
  const max = decoded.accountKeys.length;
  if (addresses.length > max) throw invalidParams(`Too many accounts provided; max ${max}`);
  const view: AccountView = { encoding, dataSlice: null };
  return { view, addresses: addresses.map((a) => addressParam(a)) };
}

/** Agave's UiInnerInstructions in `jsonParsed` encoding (also simulateTransaction's `innerInstructions`). */
const innerInstructionsParsed = (inner: TransactionRecord['innerInstructions'], keys: readonly string[]) =>
  inner.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((ix) => parseInstruction({ programId: keys[ix.programIdIndex]!, accounts: ix.accounts, data: ix.data, stackHeight: ix.stackHeight }, keys)),
  }));

/** Agave's UiInnerInstructions in `json` encoding. */
const innerInstructionsJson = (record: TransactionRecord) =>
  record.innerInstructions.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accounts,
      data: getBase58Decoder().decode(ix.data),
      stackHeight: ix.stackHeight,
    })),
  }));

export function createRpcMethods(chain: LocalChain): Record<string, RpcMethod> {
  const context = () => ({ slot: chain.slot(), apiVersion: RPC_API_VERSION });
  const withContext = (value: unknown) => ({ context: context(), value });
  const { read: readAccount, decimalsOf } = chainReader(chain);
  /** Encodes the accounts of one request: base58 over 128 bytes refused, each mint read once. */
  const encoderFor = (view: AccountView) => {
    const options = { decimalsOf: memoisedMintDecimals(readAccount), base58Overflow: 'refuse' as const };
    return (account: StoredAccount) => encodeAccount(account, view, options);
  };

  /** The transaction of a request, or -32602 with a validator's message when the bytes do not decode. */
  const decodeRequest = (wire: Uint8Array) => {
    try {
      return chain.decode(wire);
    } catch (error) {
      if (error instanceof ChainError && error.kind === 'InvalidTransaction') throw invalidParams(error.message);
      throw error;
    }
  };

  const simulate = (wire: Uint8Array, config: Config) => {
    const sigVerify = config.sigVerify === true;
    const replace = config.replaceRecentBlockhash === true;
    if (sigVerify && replace) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
    const decoded = decodeRequest(wire);
    // As a validator: signatures first (-32003), before the blockhash is looked at.
    let result: ReturnType<LocalChain['simulate']> | { err: 'BlockhashNotFound' | 'AlreadyProcessed' } | undefined;
    if (!replace && !chain.isBlockhashValid(decoded.blockhash)) {
      if (sigVerify) verifySignaturesOrThrow(decoded);
      result = { err: 'BlockhashNotFound' };
    } else if (!replace && chain.isProcessed(decoded)) {
      // A validator's simulation checks the status cache too (Bank::check_transactions).
      if (sigVerify) verifySignaturesOrThrow(decoded);
      result = { err: 'AlreadyProcessed' };
    } else {
      try {
        result = chain.simulate(wire, { sigVerify });
      } catch (error) {
        if (error instanceof ChainError && error.kind === 'SignatureFailure') {
          throw new RpcError(RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure');
        }
        throw error;
      }
    }
    const accountsRequest = simulationAccountsRequest(config.accounts, decoded);
    const encode = accountsRequest ? encoderFor(accountsRequest.view) : undefined;
    if (!('logs' in result)) return { ...NOT_SIMULATED, err: result.err, accounts: accountsRequest ? accountsRequest.addresses.map(() => null) : null };
    const ran = result;
    return {
      err: ran.err,
      logs: ran.logs,
      // Agave (rpc.rs simulate_transaction): when the simulation fails the accounts are
      // `Some(vec![None; addresses.len()])`, one null per requested address; else the accounts as the
      // simulation left them (accounts the transaction does not load are read as they are).
      accounts: accountsRequest
        ? ran.err !== null
          ? accountsRequest.addresses.map(() => null)
          : accountsRequest.addresses.map((key) => {
              const account = ran.postAccounts?.get(key) ?? readAccount(key);
              return account && encode ? encode(account) : null;
            })
        : null,
      unitsConsumed: ran.unitsConsumed,
      returnData: ran.returnData
        ? { programId: ran.returnData.programId, data: [getBase64Decoder().decode(ran.returnData.data), 'base64'] }
        : null,
      // Fix: a validator (2.x RpcSimulateTransactionResult) always writes these keys, null when not
      // asked for. LiteSVM does not report the loaded accounts data size: this is the data size of the
      // accounts the message names (programs' program-data accounts are not counted).
      loadedAccountsDataSize: decoded.accountKeys.reduce((total, key) => total + (readAccount(key)?.data.length ?? 0), 0),
      // As Agave: the CPIs in jsonParsed form when asked for (also for a failed simulation), else null.
      innerInstructions: config.innerInstructions === true ? innerInstructionsParsed(ran.innerInstructions, decoded.accountKeys) : null,
      replacementBlockhash: replace ? chain.latestBlockhash() : null,
    };
  };

  /** -32003 unless every signature verifies (Agave's verify_transaction). */
  const verifySignaturesOrThrow = (decoded: DecodedTransaction) => {
    if (!verifyTransactionSignatures(decoded.transaction)) {
      throw new RpcError(RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure');
    }
  };

  /** Agave's get_token_program_id_and_mint: which token program a filter names, and its mint if any. */
  const tokenFilter = (filter: unknown): { program: Address; mint?: Address } => {
    const f = configOf(filter);
    if (f.mint !== undefined) {
      const mint = addressParam(f.mint, 'mint');
      if (mint === NATIVE_MINT) return { program: TOKEN_PROGRAM_ADDRESS, mint };
      const account = readAccount(mint);
      if (!account) throw invalidParams('Invalid param: could not find mint');
      // Agave unpacks the data as a mint first, then checks its owner is a token program.
      if (!decodeMint({ programAddress: TOKEN_PROGRAM_ADDRESS, data: account.data })) {
        throw invalidParams('Invalid param: Token mint could not be unpacked');
      }
      if (!isTokenProgram(account.programAddress)) throw invalidParams('Invalid param: not a Token mint');
      return { program: account.programAddress, mint };
    }
    if (f.programId !== undefined) {
      const program = addressParam(f.programId, 'program id');
      if (!isTokenProgram(program)) throw invalidParams('Invalid param: unrecognized Token program id');
      return { program };
    }
    throw invalidParams('Invalid params: expected mint or programId');
  };

  /** Token accounts of `program` (and `mint`) whose owner or delegate is `holder`. */
  const tokenAccountsOf = (holder: Address, role: 'owner' | 'delegate', filter: unknown, rawConfig: unknown) => {
    const view = accountViewParam(configParam(rawConfig, 'RpcAccountInfoConfig'), 'binary');
    const { program, mint } = tokenFilter(filter);
    checkSliceAndEncoding(view);
    const encode = encoderFor(view);
    const value = chain.svm
      .getProgramAccounts(program)
      .filter((account) => {
        const token = decodeTokenAccount(account);
        if (!token || (mint !== undefined && token.mint !== mint)) return false;
        return role === 'owner' ? token.owner === holder : token.delegate.__option === 'Some' && token.delegate.value === holder;
      })
      .map((account) => ({ pubkey: account.address, account: encode(account) }));
    return withContext(value);
  };

  const transactionJson = (record: TransactionRecord, { transaction, writable }: DecodedTransaction, message: DecodedMessage, encoding: unknown) => {
    if (encoding === 'base64') return [getBase64Decoder().decode(record.wireTransaction), 'base64'];
    if (encoding === 'base58') return [getBase58Decoder().decode(record.wireTransaction), 'base58'];
    if (encoding === 'jsonParsed') {
      // Agave's UiParsedMessage: account keys with their roles, instructions parsed where Agave parses them.
      const keys = message.staticAccounts as readonly string[];
      const writableKeys = new Set<string>(writable);
      return {
        signatures: Object.values(transaction.signatures).map((s) => (s ? getBase58Decoder().decode(s) : null)),
        message: {
          accountKeys: keys.map((pubkey, index) => ({ pubkey, writable: writableKeys.has(pubkey), signer: index < message.header.numSignerAccounts, source: 'transaction' })),
          recentBlockhash: message.lifetimeToken,
          instructions: instructionsOf(message).map((ix) =>
            parseInstruction({ programId: keys[ix.programAddressIndex]!, accounts: ix.accountIndices ?? [], data: Uint8Array.from(ix.data ?? []), stackHeight: null }, keys),
          ),
          ...(message.version === 0 ? { addressTableLookups: [] } : {}),
        },
      };
    }
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
    // A plain semver: Solana's Rust clients parse `solana-core` with semver.
    getVersion: () => ({ 'solana-core': RPC_API_VERSION, 'feature-set': 0 }),
    getGenesisHash: () => chain.genesisHash,
    getSlot: () => chain.slot(),
    getBlockHeight: () => chain.blockHeight(),
    // Both from the EpochSchedule sysvar, as the Clock sysvar's epoch is (epoch-schedule.ts).
    getEpochInfo: () => {
      const slot = chain.slot();
      const schedule = chain.svm.getEpochSchedule();
      const { epoch, slotIndex } = epochAndSlotIndex(schedule, slot);
      return {
        absoluteSlot: slot,
        blockHeight: chain.blockHeight(),
        epoch,
        slotIndex,
        slotsInEpoch: slotsInEpoch(schedule, epoch),
        transactionCount: chain.processedTransactionCount(),
      };
    },
    getEpochSchedule: () => {
      const schedule = chain.svm.getEpochSchedule();
      return {
        slotsPerEpoch: schedule.slotsPerEpoch,
        leaderScheduleSlotOffset: schedule.leaderScheduleSlotOffset,
        warmup: schedule.warmup,
        firstNormalEpoch: schedule.firstNormalEpoch,
        firstNormalSlot: schedule.firstNormalSlot,
      };
    },
    getLatestBlockhash: () => withContext(chain.latestBlockhash()),
    isBlockhashValid: ([blockhash]) => {
      if (typeof blockhash !== 'string') throw invalidParams('Invalid param: blockhash must be a string');
      return withContext(chain.isBlockhashValid(blockhash));
    },
    getBalance: ([key]) => withContext(chain.svm.getBalance(addressParam(key)) ?? 0n),
    // As jsonrpc-core: the config deserializes before the pubkey is verified.
    getAccountInfo: ([key, rawConfig]) => {
      const view = accountViewParam(configParam(rawConfig, 'RpcAccountInfoConfig'), 'binary');
      const account = readAccount(addressParam(key));
      checkSliceAndEncoding(view);
      return withContext(account ? encoderFor(view)(account) : null);
    },
    getMultipleAccounts: ([keys, rawConfig]) => {
      // Agave's default here is base64 (binary for getAccountInfo).
      const view = accountViewParam(configParam(rawConfig, 'RpcAccountInfoConfig'), 'base64');
      if (!Array.isArray(keys)) throw invalidParams('Invalid params: expected an array of addresses');
      if (keys.length > 100) throw invalidParams('Too many inputs provided; max 100');
      const addresses = keys.map((key) => addressParam(key));
      checkSliceAndEncoding(view);
      const encode = encoderFor(view);
      return withContext(
        addresses.map((key) => {
          const account = readAccount(key);
          return account ? encode(account) : null;
        }),
      );
    },
    getProgramAccounts: ([program, rawConfig]) => {
      const config = configParam(rawConfig, 'RpcProgramAccountsConfig');
      const view = accountViewParam(config, 'binary');
      const parsedFilters = filtersParam(config.filters);
      const withContextFlag = optionalBoolParam(config.withContext);
      optionalBoolParam(config.sortResults);
      // Agave's order: config deserialized, then the pubkey, then verify_filters (its raw message, no prefix).
      const owner = addressParam(program, 'program id');
      let filters;
      try {
        filters = verifyFilters(parsedFilters);
      } catch (error) {
        if (error instanceof FilterError) throw invalidParams(error.message);
        throw error;
      }
      checkSliceAndEncoding(view);
      const encode = encoderFor(view);
      const value = chain.svm
        .getProgramAccounts(owner)
        .filter((account) => matchesFilters(account.data, filters))
        .map((account) => ({ pubkey: account.address, account: encode(account) }));
      return withContextFlag === true ? withContext(value) : value;
    },
    getTokenAccountBalance: ([key]) => {
      // Agave's get_token_account_balance: Token and Token-2022 accounts alike, amounts in the mint's decimals.
      const account = readAccount(addressParam(key));
      if (!account) throw invalidParams('Invalid param: could not find account');
      const token = decodeTokenAccount(account);
      if (!token) throw invalidParams('Invalid param: not a Token account');
      if (token.mint !== NATIVE_MINT) {
        const mint = readAccount(token.mint);
        if (!mint) throw invalidParams('Invalid param: could not find mint');
        if (!decodeMint({ programAddress: TOKEN_PROGRAM_ADDRESS, data: mint.data })) throw invalidParams('Invalid param: Token mint could not be unpacked');
      }
      return withContext(uiTokenAmount(token.amount, decimalsOf(token.mint)));
    },
    getTokenAccountsByOwner: ([owner, filter, rawConfig]) => tokenAccountsOf(addressParam(owner, 'owner'), 'owner', filter, rawConfig),
    getTokenAccountsByDelegate: ([delegate, filter, rawConfig]) =>
      tokenAccountsOf(addressParam(delegate, 'delegate'), 'delegate', filter, rawConfig),
    getMinimumBalanceForRentExemption: ([size]) => chain.svm.minimumBalanceForRentExemption(u64Param(size ?? 0, 'data length')),
    getFeeForMessage: ([message]) => {
      if (typeof message !== 'string') throw invalidParams('Invalid param: message must be base64');
      try {
        const decoded = getCompiledTransactionMessageDecoder().decode(getBase64Encoder().encode(message));
        if (!chain.isBlockhashValid(decoded.lifetimeToken)) return withContext(null);
        // What the payer would be charged: signatures, precompile signatures and the priority fee.
        return withContext(messageFee(decoded).total);
      } catch {
        throw invalidParams('Invalid param: failed to deserialize message');
      }
    },
    getRecentPrioritizationFees: ([addresses]) => {
      if (addresses !== undefined && !Array.isArray(addresses)) throw invalidParams('Invalid params: expected an array of addresses');
      if (Array.isArray(addresses)) {
        if (addresses.length > 128) throw invalidParams('Too many inputs provided; max 128');
        addresses.forEach((key) => addressParam(key));
      }
      // Per slot, oldest first: the block's lowest compute-unit price raised to the highest lowest price
      // paid to write any of `addresses` (Agave's get_prioritization_fees; see prioritization-fees.ts).
      return chain.recentPrioritizationFees(Array.isArray(addresses) ? (addresses as string[]) : []);
    },
    getSignatureStatuses: ([signatures]) => {
      if (!Array.isArray(signatures)) throw invalidParams('Invalid params: expected an array of signatures');
      if (signatures.length > 256) throw invalidParams('Too many inputs provided; max 256');
      return withContext(
        signatures.map((signature) => {
          const status = typeof signature === 'string' ? chain.signatureStatus(signature) : undefined;
          return status ? statusOf(status) : null;
        }),
      );
    },
    getSignaturesForAddress: ([key, rawConfig]) => {
      const config = configOf(rawConfig);
      const limit = config.limit === undefined || config.limit === null ? MAX_SIGNATURES_LIMIT : Number(config.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SIGNATURES_LIMIT) {
        throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_LIMIT}`);
      }
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
      // Every record has its wire form (airdrops too): decoded once for the version and the answer.
      const decoded = chain.decode(record.wireTransaction);
      const message = getCompiledTransactionMessageDecoder().decode(decoded.transaction.messageBytes);
      const version = message.version;
      if (version === 0 && config.maxSupportedTransactionVersion === undefined) {
        throw new RpcError(-32015, 'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0');
      }
      return {
        slot: record.slot,
        blockTime: record.blockTime,
        // Fix: a validator writes `version` only when the request set maxSupportedTransactionVersion.
        ...(config.maxSupportedTransactionVersion !== undefined ? { version } : {}),
        transaction: transactionJson(record, decoded, message, config.encoding),
        meta: {
          err: record.err,
          status: record.err === null ? { Ok: null } : { Err: record.err },
          fee: record.fee,
          preBalances: record.preBalances,
          postBalances: record.postBalances,
          innerInstructions: config.encoding === 'jsonParsed' ? innerInstructionsParsed(record.innerInstructions, record.accountKeys) : innerInstructionsJson(record),
          logMessages: record.logMessages,
          preTokenBalances: record.preTokenBalances,
          postTokenBalances: record.postTokenBalances,
          rewards: [],
          // jsonParsed lists loaded addresses among the account keys (source "lookupTable") instead.
          ...(config.encoding === 'jsonParsed' ? {} : { loadedAddresses: { writable: [], readonly: [] } }),
          computeUnitsConsumed: record.computeUnitsConsumed,
          // Fix: 2.3 validators also report the transaction's cost (`costUnits`). LiteSVM has no cost
          // model: this is the cost model's signature, write-lock and execution parts.
          costUnits: SIGNATURE_COST * BigInt(record.feeDetails.transactionSignatures) + WRITE_LOCK_COST * BigInt(record.writable.length) + record.computeUnitsConsumed,
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
      decodeRequest(wire);
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
        // Without preflight a validator answers the signature and drops the transaction later (sigverify,
        // an unknown blockhash, a duplicate): the sender learns it from its status, which never comes.
        if (config.skipPreflight === true && error.kind !== 'InvalidTransaction') return firstSignatureOf(wire);
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

/** The first signature of a transaction's wire bytes, base58 (its id), without executing it. */
const firstSignatureOf = (wire: Uint8Array) => getBase58Decoder().decode(wire.subarray(1, 65));

/** A compiled message as kit's decoder gives it (with its lifetime token). */
type DecodedMessage = ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>;

interface CompiledInstructionView {
  programAddressIndex: number;
  accountIndices?: readonly number[];
  data?: ReadonlyUint8Array;
}
/** The compiled instructions of a legacy or v0 message (the v1 shape keeps them elsewhere). */
const instructionsOf = (message: object): readonly CompiledInstructionView[] =>
  (message as { instructions?: readonly CompiledInstructionView[] }).instructions ?? [];
