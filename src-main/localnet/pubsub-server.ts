/**
 * Solana PubSub over WebSocket, as a validator serves it on port 8900: slot, account, program, logs and
 * signature subscriptions with a validator's notification shapes. Notifications are driven by the
 * chain's slot and transaction events; everything is final at once on this single node.
 */
import { isAddress, type Address } from '@solana/kit';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LocalChain, SlotEvent, TransactionRecord } from './local-chain';
import { RPC_INVALID_PARAMS, RPC_INVALID_REQUEST, RPC_METHOD_NOT_FOUND, RPC_PARSE_ERROR } from './rpc-errors';
import { stringifyWithU64 } from './rpc-json';
import { createRpcMethods, programAccountEntry } from './rpc-methods';

type Subscription =
  | { kind: 'slot' }
  | { kind: 'account'; address: Address; config: Record<string, unknown> }
  | { kind: 'program'; program: Address; config: Record<string, unknown> }
  | { kind: 'logs'; mentions: Address | null }
  | { kind: 'signature'; signature: string };

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

export function startPubSub(chain: LocalChain, options: { port: number; host?: string }): Promise<PubSubServer> {
  const methods = createRpcMethods(chain);
  const subscriptions = new Map<number, { socket: WebSocket; subscription: Subscription }>();
  let nextId = 0;

  const send = (socket: WebSocket, message: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(stringifyWithU64(message));
  };
  const notify = (id: number, socket: WebSocket, kind: Subscription['kind'], result: unknown) =>
    send(socket, { jsonrpc: '2.0', method: NOTIFICATION[kind], params: { result, subscription: id } });
  const context = () => ({ slot: chain.slot() });

  const parseSubscription = (kind: Subscription['kind'], params: unknown[]): Subscription => {
    const [first, second] = params;
    const config = (second && typeof second === 'object' ? second : {}) as Record<string, unknown>;
    switch (kind) {
      case 'slot':
        return { kind };
      case 'account':
        if (typeof first !== 'string' || !isAddress(first)) throw new Error('Invalid Request: Invalid pubkey provided');
        return { kind, address: first, config };
      case 'program':
        if (typeof first !== 'string' || !isAddress(first)) throw new Error('Invalid Request: Invalid pubkey provided');
        return { kind, program: first, config };
      case 'logs': {
        if (first === 'all' || first === 'allWithVotes') return { kind, mentions: null };
        const mentions = (first as { mentions?: unknown[] } | undefined)?.mentions;
        if (!Array.isArray(mentions) || mentions.length !== 1 || typeof mentions[0] !== 'string' || !isAddress(mentions[0])) {
          throw new Error('Invalid Request: Only 1 address supported');
        }
        return { kind, mentions: mentions[0] };
      }
      case 'signature':
        if (typeof first !== 'string') throw new Error('Invalid Request: Invalid signature provided');
        return { kind, signature: first };
    }
  };

  const onSlot = (event: SlotEvent) => {
    for (const [id, { socket, subscription }] of subscriptions) if (subscription.kind === 'slot') notify(id, socket, 'slot', event);
  };

  const onTransaction = (record: TransactionRecord) => {
    const written = new Set<string>(record.writable);
    for (const [id, { socket, subscription }] of [...subscriptions]) {
      switch (subscription.kind) {
        case 'account':
          if (written.has(subscription.address)) {
            const info = methods.getAccountInfo!([subscription.address, { encoding: 'base64', ...subscription.config }]) as { value: unknown };
            notify(id, socket, 'account', { context: context(), value: info.value });
          }
          break;
        case 'program': {
          // Only the accounts this transaction wrote can have changed: never list the whole program.
          const config = { encoding: 'base64', ...subscription.config };
          for (const key of written) {
            const entry = programAccountEntry(chain, key as Address, subscription.program, config);
            if (entry) notify(id, socket, 'program', { context: context(), value: entry });
          }
          break;
        }
        case 'logs':
          if (subscription.mentions === null || record.accountKeys.includes(subscription.mentions)) {
            notify(id, socket, 'logs', { context: context(), value: { signature: record.signature, err: record.err, logs: record.logMessages } });
          }
          break;
        case 'signature':
          if (subscription.signature === record.signature) {
            notify(id, socket, 'signature', { context: context(), value: { err: record.err } });
            subscriptions.delete(id); // a signature subscription ends with its notification
          }
          break;
        default:
          break;
      }
    }
  };

  const onMessage = (socket: WebSocket, raw: string) => {
    let request: { id?: unknown; method?: unknown; params?: unknown; jsonrpc?: unknown };
    try {
      request = JSON.parse(raw) as typeof request;
    } catch {
      return send(socket, { jsonrpc: '2.0', error: { code: RPC_PARSE_ERROR, message: 'Parse error' }, id: null });
    }
    const id = request.id ?? null;
    if (typeof request.method !== 'string') {
      return send(socket, { jsonrpc: '2.0', error: { code: RPC_INVALID_REQUEST, message: 'Invalid request' }, id });
    }
    const params = Array.isArray(request.params) ? request.params : [];
    const kind = SUBSCRIBE[request.method];
    if (kind) {
      try {
        const subscription = parseSubscription(kind, params);
        const subscriptionId = nextId++;
        subscriptions.set(subscriptionId, { socket, subscription });
        send(socket, { jsonrpc: '2.0', result: subscriptionId, id });
        // Like a validator: a signature already processed is notified at once.
        if (subscription.kind === 'signature') {
          const record = chain.getTransaction(subscription.signature);
          if (record) onTransaction(record);
        }
      } catch (error) {
        send(socket, { jsonrpc: '2.0', error: { code: RPC_INVALID_PARAMS, message: (error as Error).message }, id });
      }
      return;
    }
    if (request.method.endsWith('Unsubscribe') && SUBSCRIBE[request.method.replace('Unsubscribe', 'Subscribe')]) {
      const target = Number(params[0]);
      const owned = subscriptions.get(target)?.socket === socket;
      if (owned) subscriptions.delete(target);
      if (!owned) return send(socket, { jsonrpc: '2.0', error: { code: RPC_INVALID_PARAMS, message: 'Invalid subscription id.' }, id });
      return send(socket, { jsonrpc: '2.0', result: true, id });
    }
    send(socket, { jsonrpc: '2.0', error: { code: RPC_METHOD_NOT_FOUND, message: 'Method not found' }, id });
  };

  return new Promise((resolve, reject) => {
    const wss = new WebSocketServer({ port: options.port, host: options.host ?? '127.0.0.1' });
    wss.once('error', reject);
    wss.on('connection', (socket) => {
      socket.on('message', (data) => onMessage(socket, data.toString()));
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

