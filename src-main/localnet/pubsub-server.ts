/**
 * Solana PubSub over WebSocket, as a validator serves it on port 8900: slot, account, program, logs and
 * signature subscriptions with a validator's notification shapes. Notifications are driven by the
 * chain's slot and transaction events; everything is final at once on this single node.
 *
 * The chain emits those events synchronously inside its submit, after the transaction committed. So
 * everything a subscription could fail on (pubkeys, encodings, filters, data slices) is checked when it
 * is made, answered with a validator's -32602 error, and each notification runs on its own: one
 * subscriber's failure is logged and dropped, never thrown back into the chain or the sender.
 *
 * Who may connect (issue 33): the upgrade is refused for a foreign `Host` (421: a DNS-rebound page) and
 * for a browser page that is not served from this machine (403: WebSockets have no CORS, so `Origin`
 * is the only thing that tells a page on the internet from a dev app on localhost). A socket holds at
 * most MAX_SUBSCRIPTIONS_PER_SOCKET subscriptions and sends messages of at most MAX_MESSAGE_BYTES.
 */
import { getBase58Encoder, isAddress, type Address } from '@solana/kit';
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { isAllowedHost, misdirectedHostError } from '../api/host-check';
import {
  accountViewParam,
  commitmentParam,
  configParam,
  encodeAccount,
  FilterError,
  filtersParam,
  invalidType,
  matchesFilters,
  optionalBoolParam,
  unknownVariant,
  verifyFilters,
  type AccountFilter,
  type AccountLike,
  type AccountView,
} from './account-encoding';
import type { LocalChain, SlotEvent, TransactionRecord } from './local-chain';
import {
  RPC_INTERNAL_ERROR,
  RPC_INVALID_PARAMS,
  RPC_INVALID_REQUEST,
  RPC_METHOD_NOT_FOUND,
  RPC_PARSE_ERROR,
  RpcError,
  invalidParams,
} from './rpc-errors';
import { stringifyWithU64 } from './rpc-json';
import { memoisedMintDecimals, type MintDecimals } from './spl-token-views';

const SYSTEM_PROGRAM = '11111111111111111111111111111111' as Address;
const U64_MAX = 18_446_744_073_709_551_615n;

type Subscription =
  | { kind: 'slot' }
  /** `exists`: what was last notified (or seen at subscribe time): a closed account is notified once. */
  | { kind: 'account'; address: Address; view: AccountView; exists: boolean }
  | { kind: 'program'; program: Address; view: AccountView; filters: AccountFilter[] }
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

/** Subscriptions one socket may hold: kit opens at most 100 per socket, the keeper about 4 in all. */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 1_000;
/** Largest message a client may send (ws closes the socket with 1009 beyond it); a request is a few hundred bytes. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** The JSON-RPC error a subscribe beyond the cap gets (Agave answers its node-wide cap with -32603 too). */
export const subscriptionCapError = (cap: number) =>
  new RpcError(RPC_INTERNAL_ERROR, `Subscription refused: this socket already holds ${cap} subscriptions, the localnet's cap per socket; unsubscribe some or open another socket`);

const LOOPBACK_IPV4 = /^127(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * Whether a browser page at `origin` may open a socket: only pages served from this machine
 * (`localhost`, `*.localhost`, 127.0.0.0/8, [::1]: a dev app or wallet on localhost). No `Origin` is a
 * client that is not a browser (kit, web3.js, ws), which a web page cannot be. `null` (a sandboxed or
 * `file:` page) and every other origin, an IP literal's included, are refused.
 */
export function isAllowedOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  let hostname: string;
  try {
    hostname = new URL(origin).hostname.toLowerCase();
  } catch {
    return false;
  }
  return hostname === 'localhost' || hostname.endsWith('.localhost') || LOOPBACK_IPV4.test(hostname) || hostname === '[::1]';
}

/** The upgrade's refusal, or null when it may go on. */
function refusalOf(request: IncomingMessage): { status: 403 | 421; error: string } | null {
  const host = request.headers.host;
  if (!isAllowedHost(host)) return { status: 421, error: misdirectedHostError(host ?? '') };
  const origin = request.headers.origin;
  if (!isAllowedOrigin(origin)) {
    return { status: 403, error: `this WebSocket serves pages from this machine only (localhost, 127.0.0.1), not the page at ${JSON.stringify(origin)}: serve your app from localhost, or connect from a program (no Origin)` };
  }
  return null;
}

export interface PubSubServer {
  close(): Promise<void>;
  port: number;
}

export interface PubSubOptions {
  port: number;
  host?: string;
  /** Subscriptions one socket may hold (default MAX_SUBSCRIPTIONS_PER_SOCKET). */
  maxSubscriptionsPerSocket?: number;
  /** Where a dropped notification or failed request is reported (default: console.warn). */
  onError?: (error: unknown, where: string) => void;
}

// ---- Parameter validation, with the messages Agave's pubsub answers (configs: account-encoding.ts) ---

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

/**
 * What Agave's accountSubscribe sends for an account that no longer exists: AccountSharedData::default()
 * (the bank load returns none, filter_account_result unwraps to the default): 0 lamports, owned by the
 * System Program, no data, not executable, rent epoch 0.
 */
const CLOSED_ACCOUNT: AccountLike = {
  data: new Uint8Array(),
  executable: false,
  lamports: 0n,
  programAddress: SYSTEM_PROGRAM,
  rentEpoch: 0n,
};

/** The accounts one transaction's notifications read: each read once, however many subscriptions want it. */
interface TransactionReads {
  read: (address: Address) => AccountLike | null;
  decimalsOf: MintDecimals;
}

// ---- The server ---------------------------------------------------------------------------------------

export function startPubSub(chain: LocalChain, options: PubSubOptions): Promise<PubSubServer> {
  const subscriptions = new Map<number, { socket: WebSocket; subscription: Subscription }>();
  /** How many of `subscriptions` each socket holds (the cap is checked without a scan). */
  const heldBy = new Map<WebSocket, number>();
  const maxPerSocket = options.maxSubscriptionsPerSocket ?? MAX_SUBSCRIPTIONS_PER_SOCKET;
  const forget = (id: number) => {
    const entry = subscriptions.get(id);
    if (!entry) return;
    subscriptions.delete(id);
    heldBy.set(entry.socket, (heldBy.get(entry.socket) ?? 1) - 1);
  };
  let nextId = 0;
  const reportError =
    options.onError ?? ((error: unknown, where: string) => console.warn(`pubsub: ${where}:`, error));

  const send = (socket: WebSocket, message: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(stringifyWithU64(message));
  };
  const context = () => ({ slot: chain.slot() });

  /** The account as the chain holds it now; null once closed (a validator keeps no zero-lamport account). */
  const readAccount = (address: Address): AccountLike | null => {
    const account = chain.svm.getAccount(address); // a fresh copy: no need to copy its data again
    if (!account.exists || account.lamports === 0n) return null;
    return { data: account.data, executable: account.executable, lamports: account.lamports, programAddress: account.programAddress, rentEpoch: U64_MAX };
  };
  /** Reads for one transaction's notifications, memoised (every subscription on a written key asks). */
  const transactionReads = (): TransactionReads => {
    const accounts = new Map<Address, AccountLike | null>();
    const read = (address: Address) => {
      let account = accounts.get(address);
      if (account === undefined) accounts.set(address, (account = readAccount(address)));
      return account;
    };
    return { read, decimalsOf: memoisedMintDecimals(read) };
  };

  const parseSubscription = (kind: Subscription['kind'], params: unknown[]): Subscription => {
    const [first, second] = params;
    switch (kind) {
      case 'slot':
        return { kind };
      case 'account': {
        // Agave reads the config before it parses the pubkey.
        const view = accountViewParam(configParam(second, 'RpcAccountInfoConfig'), 'binary');
        const address = pubkeyParam(first, 'pubkey');
        return { kind, address, view, exists: readAccount(address) !== null };
      }
      case 'program': {
        // Agave reads the config and verifies its filters before it parses the pubkey.
        const config = configParam(second, 'RpcProgramAccountsConfig');
        const view = accountViewParam(config, 'binary');
        const parsedFilters = filtersParam(config.filters);
        optionalBoolParam(config.withContext);
        optionalBoolParam(config.sortResults);
        let filters: AccountFilter[];
        try {
          filters = verifyFilters(parsedFilters);
        } catch (error) {
          // Agave's program_subscribe answers verify_filters' error as its Display: "Invalid params: ...".
          if (error instanceof FilterError) throw invalidParams(`Invalid params: ${error.message}`);
          throw error;
        }
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
    reads: TransactionReads,
  ) => {
    const encodeOptions = { decimalsOf: reads.decimalsOf, base58Overflow: 'text' as const };
    switch (subscription.kind) {
      case 'account': {
        if (!written.has(subscription.address)) return;
        const account = reads.read(subscription.address);
        // Like a validator: a closed account is notified once, as the default account.
        if (!account && !subscription.exists) return;
        subscription.exists = account !== null;
        notify(id, socket, 'account', {
          context: context(),
          value: encodeAccount(account ?? CLOSED_ACCOUNT, subscription.view, encodeOptions),
        });
        return;
      }
      case 'program':
        // Only the accounts this transaction wrote can have changed: never list the whole program. A
        // closed account is not notified (a validator stores it as the default account, owned by System).
        for (const key of written) {
          const account = reads.read(key as Address);
          if (
            !account ||
            account.programAddress !== subscription.program ||
            !matchesFilters(account.data, subscription.filters)
          )
            continue;
          notify(id, socket, 'program', {
            context: context(),
            value: { pubkey: key, account: encodeAccount(account, subscription.view, encodeOptions) },
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
        forget(id); // a signature subscription ends with its notification
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
      const reads = transactionReads();
      for (const [id, { socket, subscription }] of [...subscriptions]) {
        guarded(id, subscription.kind, () => notifyTransaction(id, socket, subscription, record, written, reads));
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
      if ((heldBy.get(socket) ?? 0) >= maxPerSocket) return error(subscriptionCapError(maxPerSocket));
      let subscription: Subscription;
      try {
        subscription = parseSubscription(kind, params);
      } catch (e) {
        return error(e);
      }
      const subscriptionId = nextId++;
      subscriptions.set(subscriptionId, { socket, subscription });
      heldBy.set(socket, (heldBy.get(socket) ?? 0) + 1);
      send(socket, { jsonrpc: '2.0', result: subscriptionId, id });
      // Like a validator: a signature already processed is notified at once (no receivedSignature: it
      // was received long ago). Its status comes from history or, once history dropped it, from the
      // status cache (the chain's signatureStatus), as a validator's bank answers it.
      if (subscription.kind === 'signature') {
        const status = chain.signatureStatus(subscription.signature);
        if (status) {
          forget(subscriptionId);
          guarded(subscriptionId, 'signature', () =>
            notify(subscriptionId, socket, 'signature', { context: context(), value: { err: status.err } }),
          );
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
      forget(target);
      return send(socket, { jsonrpc: '2.0', result: true, id });
    }
    send(socket, { jsonrpc: '2.0', error: { code: RPC_METHOD_NOT_FOUND, message: 'Method not found' }, id });
  };

  return new Promise((resolve, reject) => {
    const wss = new WebSocketServer({
      port: options.port,
      host: options.host ?? '127.0.0.1',
      maxPayload: MAX_MESSAGE_BYTES,
      verifyClient: ({ req }, done) => {
        const refusal = refusalOf(req);
        if (!refusal) return done(true);
        const body = JSON.stringify({ error: refusal.error });
        done(false, refusal.status, body, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      },
    });
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
        heldBy.delete(socket);
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
