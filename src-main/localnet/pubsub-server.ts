/**
 * Solana PubSub over WebSocket, as a validator serves it on port 8900: slot, account, program, logs and
 * signature subscriptions with a validator's notification shapes. Notifications are driven by the
 * chain's slot and transaction events; everything is final at once on this single node.
 *
 * The chain emits those events synchronously inside its submit, after the transaction committed. So
 * everything a subscription could fail on (pubkeys, encodings, filters, data slices) is checked when it
 * is made, answered with a validator's -32602 error, and each notification runs on its own: one
 * subscriber's failure is logged and dropped, never thrown back into the chain or the sender.
 */
import { getBase58Decoder, getBase58Encoder, isAddress, type Address } from '@solana/kit';
import { Buffer } from 'node:buffer';
import { zstdCompressSync } from 'node:zlib';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LocalChain, SlotEvent, TransactionRecord } from './local-chain';
import {
  RPC_INVALID_PARAMS,
  RPC_INVALID_REQUEST,
  RPC_METHOD_NOT_FOUND,
  RPC_PARSE_ERROR,
  RpcError,
  invalidParams,
} from './rpc-errors';
import { stringifyWithU64 } from './rpc-json';

const SYSTEM_PROGRAM = '11111111111111111111111111111111' as Address;
const U64_MAX = 18_446_744_073_709_551_615n;
/** Agave's limits for getProgramAccounts/programSubscribe filters (solana-rpc-client-api). */
const MAX_FILTERS = 4;
const MAX_MEMCMP_BYTES = 128;
const MAX_MEMCMP_BASE58_CHARS = 175;
const MAX_MEMCMP_BASE64_CHARS = 172;
/** SPL Token account layout: 165 bytes, state at 108 (0 = uninitialized); Token-2022 marks extended accounts with 2 at 165. */
const TOKEN_ACCOUNT_LEN = 165;
const TOKEN_ACCOUNT_STATE_OFFSET = 108;
const TOKEN_2022_ACCOUNT_TYPE_ACCOUNT = 2;

const ENCODINGS = ['binary', 'base58', 'base64', 'jsonParsed', 'base64+zstd'] as const;
type AccountEncoding = (typeof ENCODINGS)[number];
const COMMITMENTS = ['processed', 'confirmed', 'finalized'];

interface AccountView {
  encoding: AccountEncoding;
  dataSlice: { offset: number; length: number } | null;
}

type Filter =
  { dataSize: bigint } | { memcmp: { offset: number; bytes: Uint8Array } } | { tokenAccountState: true };

type Subscription =
  | { kind: 'slot' }
  /** `exists`: what was last notified (or seen at subscribe time): a closed account is notified once. */
  | { kind: 'account'; address: Address; view: AccountView; exists: boolean }
  | { kind: 'program'; program: Address; view: AccountView; filters: Filter[] }
  | { kind: 'logs'; mentions: Address | null }
  | { kind: 'signature'; signature: string; receivedNotification: boolean };

const SUBSCRIBE: Record<string, Subscription['kind']> = {
  slotSubscribe: 'slot',
  accountSubscribe: 'account',
  programSubscribe: 'program',
  logsSubscribe: 'logs',
  signatureSubscribe: 'signature',
};
const NOTIFICATION: Record<Subscription['kind'], string> = {
  slot: 'slotNotification',
  account: 'accountNotification',
  program: 'programNotification',
  logs: 'logsNotification',
  signature: 'signatureNotification',
};

export interface PubSubServer {
  close(): Promise<void>;
  port: number;
}

export interface PubSubOptions {
  port: number;
  host?: string;
  /** Where a dropped notification or failed request is reported (default: console.warn). */
  onError?: (error: unknown, where: string) => void;
}

// ---- Parameter validation, with the messages Agave's pubsub answers -------------------------------

/** What serde calls a JSON value in its "invalid type" errors. */
function jsonKind(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'sequence';
  if (typeof value === 'object') return 'map';
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  if (typeof value === 'boolean') return `boolean \`${value}\``;
  if (typeof value === 'number')
    return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  return String(value);
}

/** jsonrpc-core's answer when the params do not deserialize: "Invalid params: <serde error>." */
const badParams = (serdeMessage: string) => invalidParams(`Invalid params: ${serdeMessage}.`);
const invalidType = (value: unknown, expected: string) =>
  badParams(`invalid type: ${jsonKind(value)}, expected ${expected}`);
const unknownVariant = (value: string, variants: readonly string[]) =>
  badParams(`unknown variant \`${value}\`, expected one of ${variants.map((v) => `\`${v}\``).join(', ')}`);

/** An optional config object: absent or null is the default; anything else must be a JSON object. */
function configParam(value: unknown, struct: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidType(value, `struct ${struct}`);
  return value as Record<string, unknown>;
}

function usizeParam(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw invalidType(value, 'usize');
  return value;
}

function u64Param(value: unknown): bigint {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalidType(value, 'u64');
  return BigInt(value);
}

function commitmentParam(value: unknown): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string') throw invalidType(value, 'a commitment level');
  if (!COMMITMENTS.includes(value)) throw unknownVariant(value, COMMITMENTS);
}

/** RpcAccountInfoConfig: encoding (default "binary", as Agave's account/program subscriptions), dataSlice, commitment. */
function accountViewParam(config: Record<string, unknown>): AccountView {
  const { encoding, dataSlice } = config;
  commitmentParam(config.commitment);
  let parsedEncoding: AccountEncoding = 'binary';
  if (encoding !== undefined && encoding !== null) {
    if (typeof encoding !== 'string') throw invalidType(encoding, 'an account encoding');
    if (!(ENCODINGS as readonly string[]).includes(encoding)) throw unknownVariant(encoding, ENCODINGS);
    parsedEncoding = encoding as AccountEncoding;
  }
  let slice: AccountView['dataSlice'] = null;
  if (dataSlice !== undefined && dataSlice !== null) {
    const s = configParam(dataSlice, 'UiDataSliceConfig');
    if (s.offset === undefined) throw badParams('missing field `offset`');
    if (s.length === undefined) throw badParams('missing field `length`');
    slice = { offset: usizeParam(s.offset), length: usizeParam(s.length) };
  }
  return { encoding: parsedEncoding, dataSlice: slice };
}

/** The Debug text of bs58's decode error, which Agave puts in its message. */
function base58Bytes(text: string): Uint8Array {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const index = [...text].findIndex((c) => !alphabet.includes(c));
  if (index >= 0) {
    throw invalidParams(
      `Invalid params: Invalid param: Base58DecodeError(InvalidCharacter { character: '${[...text][index]}', index: ${index} })`,
    );
  }
  return Uint8Array.from(getBase58Encoder().encode(text));
}

function base64Bytes(text: string): Uint8Array {
  const bad = [...text].findIndex((c) => !/[A-Za-z0-9+/=]/.test(c));
  if (bad >= 0)
    throw invalidParams(
      `Invalid params: Invalid param: Base64DecodeError(InvalidByte(${bad}, ${text.charCodeAt(bad)}))`,
    );
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw invalidParams('Invalid params: Invalid param: Base64DecodeError(InvalidPadding)');
  }
  return Uint8Array.from(Buffer.from(text, 'base64'));
}

const dataTooLarge = () => invalidParams('Invalid params: Invalid param: DataTooLarge');

/** One RpcFilterType (dataSize | memcmp | tokenAccountState), deserialized then verified as Agave's verify_filters does. */
function filterParam(raw: unknown): Filter {
  const variants = ['dataSize', 'memcmp', 'tokenAccountState'];
  if (raw === 'tokenAccountState') return { tokenAccountState: true };
  if (typeof raw === 'string') throw unknownVariant(raw, variants);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw invalidType(raw, 'enum RpcFilterType');
  const keys = Object.keys(raw);
  if (keys.length !== 1) throw invalidType(raw, 'map with a single key');
  const [name] = keys as [string];
  const value = (raw as Record<string, unknown>)[name];
  switch (name) {
    case 'dataSize':
      return { dataSize: u64Param(value) };
    case 'tokenAccountState':
      if (value !== null) throw invalidType(value, 'unit variant');
      return { tokenAccountState: true };
    case 'memcmp': {
      const memcmp = configParam(value, 'Memcmp');
      if (memcmp.offset === undefined) throw badParams('missing field `offset`');
      if (memcmp.bytes === undefined) throw badParams('missing field `bytes`');
      const offset = usizeParam(memcmp.offset);
      const encoding = memcmp.encoding ?? null;
      if (
        encoding !== null &&
        (typeof encoding !== 'string' || !['base58', 'base64', 'bytes'].includes(encoding))
      ) {
        throw typeof encoding === 'string'
          ? unknownVariant(encoding, ['base58', 'base64', 'bytes'])
          : invalidType(encoding, 'a memcmp encoding');
      }
      let bytes: Uint8Array;
      if (typeof memcmp.bytes === 'string' && encoding !== 'bytes') {
        const limit = encoding === 'base64' ? MAX_MEMCMP_BASE64_CHARS : MAX_MEMCMP_BASE58_CHARS;
        if (memcmp.bytes.length > limit) throw dataTooLarge();
        bytes = encoding === 'base64' ? base64Bytes(memcmp.bytes) : base58Bytes(memcmp.bytes);
      } else if (Array.isArray(memcmp.bytes) && (encoding === null || encoding === 'bytes')) {
        if (!memcmp.bytes.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255))
          throw invalidType(memcmp.bytes, 'u8');
        bytes = Uint8Array.from(memcmp.bytes as number[]);
      } else {
        throw badParams('data did not match any variant of untagged enum DataType');
      }
      if (bytes.length > MAX_MEMCMP_BYTES) throw dataTooLarge();
      return { memcmp: { offset, bytes } };
    }
    default:
      throw unknownVariant(name, variants);
  }
}

function filtersParam(raw: unknown): Filter[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidType(raw, 'a sequence');
  const filters = raw.map(filterParam);
  if (filters.length > MAX_FILTERS)
    throw invalidParams(`Invalid params: Too many filters provided; max ${MAX_FILTERS}`);
  return filters;
}

/** Pubkey/Signature parse failures: Agave's `param::<T>(.., thing)`. */
const invalidThing = (thing: string) => invalidParams(`Invalid Request: Invalid ${thing} provided`);

function pubkeyParam(value: unknown, thing: string): Address {
  if (typeof value !== 'string') throw invalidType(value, 'a string');
  if (!isAddress(value)) throw invalidThing(thing);
  return value;
}

function signatureParam(value: unknown): string {
  if (typeof value !== 'string') throw invalidType(value, 'a string');
  let bytes: Uint8Array | undefined;
  try {
    if (value.length <= 88) bytes = Uint8Array.from(getBase58Encoder().encode(value));
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== 64) throw invalidThing('signature');
  return value;
}

// ---- Account encoding, as Agave's encode_ui_account ------------------------------------------------

/** Agave's MAX_BASE58_BYTES: larger data is not encoded in base58, in subscriptions either. */
const MAX_BASE58_BYTES = 128;

/**
 * Base58 as Agave's `UiAccount::encode_bs58` does it: data over 128 bytes is replaced by this fixed text
 * (a subscription does not fail for it, unlike getAccountInfo, which refuses the request).
 */
function base58(bytes: Uint8Array): string {
  return bytes.length <= MAX_BASE58_BYTES
    ? getBase58Decoder().decode(bytes)
    : 'error: data too large for bs58 encoding';
}

interface RawAccount {
  data: Uint8Array;
  executable: boolean;
  lamports: bigint;
  owner: Address;
  rentEpoch: bigint;
}

/**
 * What Agave's accountSubscribe sends for an account that no longer exists: AccountSharedData::default()
 * (the bank load returns none, filter_account_result unwraps to the default): 0 lamports, owned by the
 * System Program, no data, not executable, rent epoch 0.
 */
const CLOSED_ACCOUNT: RawAccount = {
  data: new Uint8Array(),
  executable: false,
  lamports: 0n,
  owner: SYSTEM_PROGRAM,
  rentEpoch: 0n,
};

function encodeData(data: Uint8Array, view: AccountView): unknown {
  const slice = view.dataSlice
    ? data.subarray(view.dataSlice.offset, view.dataSlice.offset + view.dataSlice.length)
    : data;
  switch (view.encoding) {
    case 'binary':
      return base58(slice); // legacy: the bare string
    case 'base58':
      return [base58(slice), 'base58'];
    case 'base64+zstd':
      return [zstdCompressSync(slice).toString('base64'), 'base64+zstd'];
    case 'base64':
    case 'jsonParsed': // a validator falls back to base64 for data it cannot parse; we parse none
      return [Buffer.from(slice).toString('base64'), 'base64'];
  }
}

const encodeAccount = (account: RawAccount, view: AccountView) => ({
  lamports: account.lamports,
  data: encodeData(account.data, view),
  owner: account.owner,
  executable: account.executable,
  rentEpoch: account.rentEpoch,
  space: BigInt(account.data.length),
});

/** Token (or Token-2022) account data that is initialized: Agave's filter_allows for tokenAccountState. */
function isInitializedTokenAccount(data: Uint8Array): boolean {
  const initialized = data.length >= TOKEN_ACCOUNT_LEN && data[TOKEN_ACCOUNT_STATE_OFFSET] !== 0;
  return (
    initialized &&
    (data.length === TOKEN_ACCOUNT_LEN || data[TOKEN_ACCOUNT_LEN] === TOKEN_2022_ACCOUNT_TYPE_ACCOUNT)
  );
}

function matches(data: Uint8Array, filters: Filter[]): boolean {
  return filters.every((filter) => {
    if ('dataSize' in filter) return BigInt(data.length) === filter.dataSize;
    if ('memcmp' in filter) {
      const { offset, bytes } = filter.memcmp;
      if (offset + bytes.length > data.length) return false;
      return bytes.every((byte, i) => data[offset + i] === byte);
    }
    return isInitializedTokenAccount(data);
  });
}

// ---- The server ---------------------------------------------------------------------------------------

export function startPubSub(chain: LocalChain, options: PubSubOptions): Promise<PubSubServer> {
  const subscriptions = new Map<number, { socket: WebSocket; subscription: Subscription }>();
  let nextId = 0;
  const reportError =
    options.onError ?? ((error: unknown, where: string) => console.warn(`pubsub: ${where}:`, error));

  const send = (socket: WebSocket, message: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(stringifyWithU64(message));
  };
  const context = () => ({ slot: chain.slot() });

  /** The account as the chain holds it now; null once closed (a validator keeps no zero-lamport account). */
  const readAccount = (address: Address): RawAccount | null => {
    const account = chain.svm.getAccount(address);
    if (!account.exists || account.lamports === 0n) return null;
    return {
      data: Uint8Array.from(account.data),
      executable: account.executable,
      lamports: account.lamports,
      owner: account.programAddress,
      rentEpoch: U64_MAX,
    };
  };

  const parseSubscription = (kind: Subscription['kind'], params: unknown[]): Subscription => {
    const [first, second] = params;
    switch (kind) {
      case 'slot':
        return { kind };
      case 'account': {
        // Agave reads the config before it parses the pubkey.
        const view = accountViewParam(configParam(second, 'RpcAccountInfoConfig'));
        const address = pubkeyParam(first, 'pubkey');
        return { kind, address, view, exists: readAccount(address) !== null };
      }
      case 'program': {
        // Agave reads the config and verifies its filters before it parses the pubkey.
        const config = configParam(second, 'RpcProgramAccountsConfig');
        const view = accountViewParam(config);
        const filters = filtersParam(config.filters);
        const program = pubkeyParam(first, 'pubkey');
        return { kind, program, view, filters };
      }
      case 'logs': {
        commitmentParam(configParam(second, 'RpcTransactionLogsConfig').commitment);
        if (first === 'all' || first === 'allWithVotes') return { kind, mentions: null };
        if (typeof first === 'string') throw unknownVariant(first, ['all', 'allWithVotes', 'mentions']);
        const mentions = configParam(first, 'RpcTransactionLogsFilter').mentions;
        if (!Array.isArray(mentions)) throw invalidType(mentions ?? null, 'a sequence');
        if (mentions.length !== 1) throw invalidParams('Invalid Request: Only 1 address supported');
        return { kind, mentions: pubkeyParam(mentions[0], 'mentions') };
      }
      case 'signature': {
        const signature = signatureParam(first);
        const config = configParam(second, 'RpcSignatureSubscribeConfig');
        commitmentParam(config.commitment);
        const received = config.enableReceivedNotification ?? false;
        if (typeof received !== 'boolean') throw invalidType(received, 'a boolean');
        return { kind, signature, receivedNotification: received };
      }
    }
  };

  /** Sends one subscription's notification(s); a failure stays with that subscription. */
  const guarded = (id: number, kind: Subscription['kind'], work: () => void) => {
    try {
      work();
    } catch (error) {
      reportError(error, `dropped a ${kind} notification for subscription ${id}`);
    }
  };
  const notify = (id: number, socket: WebSocket, kind: Subscription['kind'], result: unknown) =>
    send(socket, { jsonrpc: '2.0', method: NOTIFICATION[kind], params: { result, subscription: id } });

  const onSlot = (event: SlotEvent) => {
    for (const [id, { socket, subscription }] of subscriptions) {
      if (subscription.kind === 'slot') guarded(id, 'slot', () => notify(id, socket, 'slot', event));
    }
  };

  const notifyTransaction = (
    id: number,
    socket: WebSocket,
    subscription: Subscription,
    record: TransactionRecord,
    written: Set<string>,
  ) => {
    switch (subscription.kind) {
      case 'account': {
        if (!written.has(subscription.address)) return;
        const account = readAccount(subscription.address);
        // Like a validator: a closed account is notified once, as the default account.
        if (!account && !subscription.exists) return;
        subscription.exists = account !== null;
        notify(id, socket, 'account', {
          context: context(),
          value: encodeAccount(account ?? CLOSED_ACCOUNT, subscription.view),
        });
        return;
      }
      case 'program':
        // Only the accounts this transaction wrote can have changed: never list the whole program. A
        // closed account is not notified (a validator stores it as the default account, owned by System).
        for (const key of written) {
          const account = readAccount(key as Address);
          if (
            !account ||
            account.owner !== subscription.program ||
            !matches(account.data, subscription.filters)
          )
            continue;
          notify(id, socket, 'program', {
            context: context(),
            value: { pubkey: key, account: encodeAccount(account, subscription.view) },
          });
        }
        return;
      case 'logs':
        if (subscription.mentions === null || record.accountKeys.includes(subscription.mentions)) {
          notify(id, socket, 'logs', {
            context: context(),
            value: { signature: record.signature, err: record.err, logs: record.logMessages },
          });
        }
        return;
      case 'signature':
        if (subscription.signature !== record.signature) return;
        subscriptions.delete(id); // a signature subscription ends with its notification
        if (subscription.receivedNotification)
          notify(id, socket, 'signature', { context: context(), value: 'receivedSignature' });
        notify(id, socket, 'signature', { context: context(), value: { err: record.err } });
        return;
      default:
        return;
    }
  };

  // Runs inside the chain's submit, after the commit: must never throw (the sender would get an error
  // for a transaction that landed, and the chain's later listeners would be skipped).
  const onTransaction = (record: TransactionRecord) => {
    try {
      // A failed transaction stores only its fee payer (the fee); a successful one every writable account.
      const written = new Set<string>(record.err === null ? record.writable : record.accountKeys.slice(0, 1));
      for (const [id, { socket, subscription }] of [...subscriptions]) {
        guarded(id, subscription.kind, () => notifyTransaction(id, socket, subscription, record, written));
      }
    } catch (error) {
      reportError(error, 'dropped the notifications of a transaction');
    }
  };

  const onMessage = (socket: WebSocket, raw: string) => {
    let request: { id?: unknown; method?: unknown; params?: unknown; jsonrpc?: unknown };
    try {
      request = JSON.parse(raw) as typeof request;
    } catch {
      return send(socket, {
        jsonrpc: '2.0',
        error: { code: RPC_PARSE_ERROR, message: 'Parse error' },
        id: null,
      });
    }
    if (request === null || typeof request !== 'object' || Array.isArray(request)) {
      return send(socket, {
        jsonrpc: '2.0',
        error: { code: RPC_INVALID_REQUEST, message: 'Invalid request' },
        id: null,
      });
    }
    const id = request.id ?? null;
    if (typeof request.method !== 'string') {
      return send(socket, {
        jsonrpc: '2.0',
        error: { code: RPC_INVALID_REQUEST, message: 'Invalid request' },
        id,
      });
    }
    const params = Array.isArray(request.params) ? request.params : [];
    const error = (e: unknown) => {
      const { code, message } =
        e instanceof RpcError
          ? e
          : { code: RPC_INVALID_PARAMS, message: `Invalid params: ${(e as Error).message}` };
      send(socket, { jsonrpc: '2.0', error: { code, message }, id });
    };
    const kind = Object.hasOwn(SUBSCRIBE, request.method) ? SUBSCRIBE[request.method] : undefined;
    if (kind) {
      let subscription: Subscription;
      try {
        subscription = parseSubscription(kind, params);
      } catch (e) {
        return error(e);
      }
      const subscriptionId = nextId++;
      subscriptions.set(subscriptionId, { socket, subscription });
      send(socket, { jsonrpc: '2.0', result: subscriptionId, id });
      // Like a validator: a signature already processed is notified at once.
      if (subscription.kind === 'signature') {
        const record = chain.getTransaction(subscription.signature);
        if (record) {
          const processed = { ...subscription, receivedNotification: false }; // it was received long ago
          guarded(subscriptionId, 'signature', () =>
            notifyTransaction(subscriptionId, socket, processed, record, new Set()),
          );
          subscriptions.delete(subscriptionId);
        }
      }
      return;
    }
    const unsubscribeOf = request.method.endsWith('Unsubscribe')
      ? request.method.replace(/Unsubscribe$/, 'Subscribe')
      : '';
    if (Object.hasOwn(SUBSCRIBE, unsubscribeOf)) {
      const [target] = params;
      if (typeof target !== 'number' || !Number.isSafeInteger(target) || target < 0)
        return error(invalidType(target ?? null, 'u64'));
      // Subscriptions belong to their connection, as on a validator: another socket's id is unknown here.
      const entry = subscriptions.get(target);
      if (entry?.socket !== socket) return error(invalidParams('Invalid subscription id.'));
      subscriptions.delete(target);
      return send(socket, { jsonrpc: '2.0', result: true, id });
    }
    send(socket, { jsonrpc: '2.0', error: { code: RPC_METHOD_NOT_FOUND, message: 'Method not found' }, id });
  };

  return new Promise((resolve, reject) => {
    const wss = new WebSocketServer({ port: options.port, host: options.host ?? '127.0.0.1' });
    wss.once('error', reject);
    wss.on('connection', (socket) => {
      socket.on('message', (data) => {
        try {
          onMessage(socket, data.toString());
        } catch (error) {
          reportError(error, 'failed to answer a request');
        }
      });
      // A malformed frame makes ws emit 'error' on this socket (then close it): unheard, it would be
      // an uncaught exception that takes the whole localnet down.
      socket.on('error', (error) => reportError(error, 'closed a client connection'));
      socket.on('close', () => {
        for (const [id, entry] of subscriptions) if (entry.socket === socket) subscriptions.delete(id);
      });
    });
    chain.on('slot', onSlot);
    chain.on('transaction', onTransaction);
    wss.once('listening', () => {
      const address = wss.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : options.port,
        close: () =>
          new Promise((done) => {
            chain.off('slot', onSlot);
            chain.off('transaction', onTransaction);
            for (const client of wss.clients) client.terminate();
            wss.close(() => done());
          }),
      });
    });
  });
}
