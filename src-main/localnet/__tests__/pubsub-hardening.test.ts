/**
 * The PubSub server against hostile or sloppy subscribers, on the wire as a validator answers: bad
 * params refused at subscribe time with -32602, unsubscribe results, subscriptions a transaction
 * cannot be broken by, the default ("binary") account encoding, and a closed account notified as the
 * default account. Slots move only when a test says so.
 */
import {
  address,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase64Encoder,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import { getCreateAccountInstruction, getTransferSolInstruction } from '@solana-program/system';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getInitializeAccount3Instruction,
  getTokenDecoder,
  getTransferInstruction,
} from '@solana-program/token';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import { startLocalnet, type Localnet } from '../localnet';
import {
  fundedSigner,
  sendWire,
  signInstructions,
  signTransfer,
  usdcAccountOf,
  type LocalRpc,
} from './localnet-test-helpers';

const SYSTEM_PROGRAM = '11111111111111111111111111111111';

interface Message {
  id?: number;
  result?: unknown;
  error?: { code: number; message: string };
  method?: string;
  params?: { subscription: number; result: { context: { slot: number }; value: unknown } };
}

/** A raw JSON-RPC client on one WebSocket: requests by id, and every notification it was sent. */
class Wire {
  readonly messages: Message[] = [];
  private nextId = 1;
  private readonly waiting = new Map<number, (message: Message) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Message;
      this.messages.push(message);
      if (message.id !== undefined) this.waiting.get(message.id)?.(message);
    });
  }

  static async open(url: string): Promise<Wire> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new Wire(socket);
  }

  request(method: string, params?: unknown[]): Promise<Message> {
    const id = this.nextId++;
    const answered = new Promise<Message>((resolve) => this.waiting.set(id, resolve));
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }));
    return answered;
  }

  async subscribe(method: string, params?: unknown[]): Promise<number> {
    const answer = await this.request(method, params);
    if (typeof answer.result !== 'number')
      throw new Error(`${method} refused: ${JSON.stringify(answer.error)}`);
    return answer.result;
  }

  /** Notifications are written before the sender's HTTP answer; a ping round-trip then proves they arrived. */
  async flush(): Promise<void> {
    await new Promise<void>((resolve) => this.socket.once('pong', () => resolve()).ping());
  }

  notifications(subscription: number): Message['params'][] {
    return this.messages
      .filter((m) => m.method !== undefined && m.params?.subscription === subscription)
      .map((m) => m.params);
  }

  close(): void {
    this.socket.close();
  }
}

let localnet: Localnet;
let rpc: LocalRpc;
let app: KeyPairSigner;
let wire: Wire;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, manualSlots: true });
  rpc = createSolanaRpc(localnet.rpcUrl);
  app = await keypairFromBytes(localnet.manifest.devKeys.app.keypair);
  wire = await Wire.open(localnet.wsUrl);
});
afterAll(async () => {
  wire?.close();
  await localnet?.stop();
});

const accountBytes = async (key: Address) => {
  const { value } = await rpc.getAccountInfo(key, { encoding: 'base64' }).send();
  return Uint8Array.from(getBase64Encoder().encode(value!.data[0]));
};

describe('subscribe-time validation', () => {
  const somebody = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
  const invalidParams = (message: string) => ({ code: -32602, message });

  it.each([
    [
      'an unknown account encoding',
      'accountSubscribe',
      [somebody, { encoding: 'hex' }],
      'Invalid params: unknown variant `hex`, expected one of `binary`, `base58`, `base64`, `jsonParsed`, `base64+zstd`.',
    ],
    [
      'an unknown program encoding',
      'programSubscribe',
      [SYSTEM_PROGRAM, { encoding: 'base32' }],
      'Invalid params: unknown variant `base32`, expected one of `binary`, `base58`, `base64`, `jsonParsed`, `base64+zstd`.',
    ],
    [
      'a negative dataSlice offset',
      'accountSubscribe',
      [somebody, { dataSlice: { offset: -1, length: 4 } }],
      'Invalid params: invalid type: integer `-1`, expected usize.',
    ],
    [
      'an unknown commitment',
      'accountSubscribe',
      [somebody, { commitment: 'eventually' }],
      'Invalid params: unknown variant `eventually`, expected one of `processed`, `confirmed`, `finalized`.',
    ],
    [
      'memcmp bytes that are not base58',
      'programSubscribe',
      [SYSTEM_PROGRAM, { filters: [{ memcmp: { offset: 0, bytes: 'abc0' } }] }],
      "Invalid params: Invalid param: Base58DecodeError(InvalidCharacter { character: '0', index: 3 })",
    ],
    [
      'memcmp bytes longer than 128',
      'programSubscribe',
      [
        SYSTEM_PROGRAM,
        {
          filters: [
            { memcmp: { offset: 0, bytes: Buffer.alloc(129, 1).toString('base64'), encoding: 'base64' } },
          ],
        },
      ],
      'Invalid params: Invalid param: DataTooLarge',
    ],
    [
      'memcmp without an offset',
      'programSubscribe',
      [SYSTEM_PROGRAM, { filters: [{ memcmp: { bytes: '1' } }] }],
      'Invalid params: missing field `offset`.',
    ],
    [
      'a negative dataSize',
      'programSubscribe',
      [SYSTEM_PROGRAM, { filters: [{ dataSize: -8 }] }],
      'Invalid params: invalid type: integer `-8`, expected u64.',
    ],
    [
      'an unknown filter',
      'programSubscribe',
      [SYSTEM_PROGRAM, { filters: [{ owner: somebody }] }],
      'Invalid params: unknown variant `owner`, expected one of `dataSize`, `memcmp`, `tokenAccountState`.',
    ],
    [
      'five filters',
      'programSubscribe',
      [SYSTEM_PROGRAM, { filters: Array.from({ length: 5 }, () => ({ dataSize: 0 })) }],
      'Invalid params: Too many filters provided; max 4',
    ],
    [
      'an account pubkey that is not one',
      'accountSubscribe',
      ['not-a-key'],
      'Invalid Request: Invalid pubkey provided',
    ],
    [
      'a program pubkey that is not one',
      'programSubscribe',
      ['0000'],
      'Invalid Request: Invalid pubkey provided',
    ],
    [
      'a mentions address that is not one',
      'logsSubscribe',
      [{ mentions: ['nope'] }],
      'Invalid Request: Invalid mentions provided',
    ],
    [
      'two mentions',
      'logsSubscribe',
      [{ mentions: [somebody, SYSTEM_PROGRAM] }],
      'Invalid Request: Only 1 address supported',
    ],
    [
      'an unknown logs filter',
      'logsSubscribe',
      ['everything'],
      'Invalid params: unknown variant `everything`, expected one of `all`, `allWithVotes`, `mentions`.',
    ],
    [
      'a signature that is not one',
      'signatureSubscribe',
      [somebody],
      'Invalid Request: Invalid signature provided',
    ],
  ])('refuses %s with -32602', async (_what, method, params, message) => {
    const answer = await wire.request(method, params);
    expect(answer.error).toEqual(invalidParams(message));
    expect(answer.result).toBeUndefined();
  });

  it('accepts the encodings and filters a validator accepts', async () => {
    const accepted = [
      [
        'accountSubscribe',
        [somebody, { encoding: 'base64+zstd', dataSlice: { offset: 0, length: 8 }, commitment: 'confirmed' }],
      ],
      ['accountSubscribe', [somebody, { encoding: 'jsonParsed' }]],
      [
        'programSubscribe',
        [
          SYSTEM_PROGRAM,
          {
            encoding: 'base58',
            filters: [{ dataSize: 0 }, { memcmp: { offset: 0, bytes: [1, 2], encoding: 'bytes' } }],
          },
        ],
      ],
      ['programSubscribe', [TOKEN_PROGRAM_ADDRESS, { filters: ['tokenAccountState'] }]],
      ['logsSubscribe', ['allWithVotes', { commitment: 'processed' }]],
    ] as const;
    for (const [method, params] of accepted) {
      const subscription = await wire.subscribe(method, [...params]);
      expect((await wire.request(method.replace('Subscribe', 'Unsubscribe'), [subscription])).result).toBe(
        true,
      );
    }
  });
});

describe('unsubscribe', () => {
  it('answers true for each kind, stops its notifications, and refuses an id it no longer knows', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const transfer = await signTransfer(rpc, payer, recipient, 3_000_000n);
    const ids = {
      accountUnsubscribe: await wire.subscribe('accountSubscribe', [recipient, { encoding: 'base64' }]),
      programUnsubscribe: await wire.subscribe('programSubscribe', [
        SYSTEM_PROGRAM,
        { encoding: 'base64', filters: [{ dataSize: 0 }] },
      ]),
      logsUnsubscribe: await wire.subscribe('logsSubscribe', [{ mentions: [recipient] }]),
      signatureUnsubscribe: await wire.subscribe('signatureSubscribe', [transfer.signature]),
    };
    for (const [method, id] of Object.entries(ids)) {
      expect(await wire.request(method, [id])).toMatchObject({ result: true });
      // Gone now: a second unsubscribe is refused as a validator refuses it.
      expect((await wire.request(method, [id])).error).toEqual({
        code: -32602,
        message: 'Invalid subscription id.',
      });
    }
    expect((await wire.request('accountUnsubscribe', [987_654_321])).error).toEqual({
      code: -32602,
      message: 'Invalid subscription id.',
    });

    // The transaction every one of them would have seen: none of them hears of it.
    expect(await sendWire(rpc, transfer.wire)).toBe(transfer.signature);
    await wire.flush();
    for (const id of Object.values(ids)) expect(wire.notifications(id)).toEqual([]);
  });

  it("refuses another connection's subscription id", async () => {
    const other = await Wire.open(localnet.wsUrl);
    const id = await other.subscribe('logsSubscribe', ['all']);
    expect((await wire.request('logsUnsubscribe', [id])).error).toEqual({
      code: -32602,
      message: 'Invalid subscription id.',
    });
    expect((await other.request('logsUnsubscribe', [id])).result).toBe(true);
    other.close();
  });
});

describe('notifications a transaction cannot be broken by', () => {
  it('confirms a USDC transfer for its sender while subscriptions want base58, zstd and sliced 165-byte accounts', async () => {
    const appUsdc = await usdcAccountOf(localnet.manifest, app.address);
    const ownedByApp = [{ memcmp: { offset: 32, bytes: app.address } }]; // a token account's owner field
    // Each of these used to throw out of the chain's transaction event: base58 over 128 bytes,
    // an encoding it did not know (base64+zstd).
    const base58 = await wire.subscribe('programSubscribe', [
      TOKEN_PROGRAM_ADDRESS,
      { encoding: 'base58', filters: ownedByApp },
    ]);
    const zstd = await wire.subscribe('programSubscribe', [
      TOKEN_PROGRAM_ADDRESS,
      { encoding: 'base64+zstd', filters: ownedByApp },
    ]);
    const sliced = await wire.subscribe('programSubscribe', [
      TOKEN_PROGRAM_ADDRESS,
      { encoding: 'base64', dataSlice: { offset: 500, length: 8 }, filters: ownedByApp },
    ]);
    const byDefault = await wire.subscribe('accountSubscribe', [appUsdc]);

    const recipient = (await generateKeyPairSigner()).address;
    const mint = address(localnet.manifest.usdcMint);
    const [recipientUsdc] = await findAssociatedTokenPda({
      mint,
      owner: recipient,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const { wire: transaction, signature } = await signInstructions(rpc, app, [
      await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: app, owner: recipient, mint }),
      getTransferInstruction({ source: appUsdc, destination: recipientUsdc, authority: app, amount: 7_000n }),
    ]);
    expect(await sendWire(rpc, transaction)).toBe(signature);
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    expect(status).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    expect((await rpc.getTokenAccountBalance(recipientUsdc).send()).value.amount).toBe('7000');

    await wire.flush();
    const bytes = await accountBytes(appUsdc);
    const only = (id: number) => {
      const notifications = wire.notifications(id);
      expect(notifications).toHaveLength(1); // the recipient's new account is not the app's: filtered out
      return notifications[0]!.result.value as {
        pubkey?: string;
        account?: { data: [string, string]; space: number };
      };
    };
    const base58Value = only(base58);
    expect(base58Value.pubkey).toBe(appUsdc);
    expect(base58Value.account!.data[1]).toBe('base58');
    // A 165-byte account is over Agave's 128-byte base58 limit: the validator sends this text instead.
    expect(base58Value.account!.data[0]).toBe('error: data too large for bs58 encoding');
    const zstdData = only(zstd).account!.data;
    expect(zstdData[1]).toBe('base64+zstd');
    expect(Uint8Array.from(zstdDecompressSync(Buffer.from(zstdData[0], 'base64')))).toEqual(bytes);
    expect(only(sliced).account).toMatchObject({ data: ['', 'base64'], space: 165 });
    // accountSubscribe without an encoding: a validator's default, "binary", a bare base58 string.
    const [defaultNotification] = wire.notifications(byDefault);
    const defaultData = (defaultNotification!.result.value as { data: unknown }).data;
    expect(defaultData).toBe('error: data too large for bs58 encoding');
    expect(getTokenDecoder().decode(bytes).owner).toBe(app.address);
  });

  it('still answers the sender and notifies the others when a subscriber vanished mid-way', async () => {
    const gone = await Wire.open(localnet.wsUrl);
    const payer = await fundedSigner(rpc, 1n);
    await gone.subscribe('accountSubscribe', [payer.address, { encoding: 'base58' }]);
    await gone.subscribe('logsSubscribe', ['all']);
    gone.close();
    const watching = await wire.subscribe('accountSubscribe', [payer.address, { encoding: 'base64' }]);
    const { wire: transaction, signature } = await signTransfer(
      rpc,
      payer,
      (await generateKeyPairSigner()).address,
      1_000_000n,
    );
    expect(await sendWire(rpc, transaction)).toBe(signature);
    await wire.flush();
    expect(wire.notifications(watching)).toHaveLength(1);
  });
});

describe('jsonParsed', () => {
  it('parses an SPL Token account for accountSubscribe and programSubscribe, as getAccountInfo does', async () => {
    const appUsdc = await usdcAccountOf(localnet.manifest, app.address);
    const mint = address(localnet.manifest.usdcMint);
    const account = await wire.subscribe('accountSubscribe', [appUsdc, { encoding: 'jsonParsed' }]);
    // A slice does not apply to parsed token data (Agave parses the whole account).
    const program = await wire.subscribe('programSubscribe', [
      TOKEN_PROGRAM_ADDRESS,
      { encoding: 'jsonParsed', dataSlice: { offset: 0, length: 4 }, filters: [{ memcmp: { offset: 32, bytes: app.address } }] },
    ]);
    const recipient = (await generateKeyPairSigner()).address;
    const [recipientUsdc] = await findAssociatedTokenPda({ mint, owner: recipient, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const { wire: transaction } = await signInstructions(rpc, app, [
      await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: app, owner: recipient, mint }),
      getTransferInstruction({ source: appUsdc, destination: recipientUsdc, authority: app, amount: 2_500n }),
    ]);
    await sendWire(rpc, transaction);
    await wire.flush();

    const { value: viaRpc } = await rpc.getAccountInfo(appUsdc, { encoding: 'jsonParsed' }).send();
    const expected = JSON.parse(JSON.stringify(viaRpc!.data, (_key, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) as unknown;
    const [accountNote] = wire.notifications(account);
    const accountData = (accountNote!.result.value as { data: { program: string; parsed: { type: string } } }).data;
    expect(accountData).toEqual(expected);
    expect(accountData).toMatchObject({ program: 'spl-token', parsed: { type: 'account', info: { owner: app.address, mint } } });
    const programNotes = wire.notifications(program);
    expect(programNotes).toHaveLength(1);
    expect((programNotes[0]!.result.value as { pubkey: string; account: { data: unknown } }).account.data).toEqual(expected);
  });
});

describe('a closed account', () => {
  it('is notified to accountSubscribe as the default account, and not to programSubscribe', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const tokenAccount = await generateKeyPairSigner();
    const base64 = await wire.subscribe('accountSubscribe', [tokenAccount.address, { encoding: 'base64' }]);
    const binary = await wire.subscribe('accountSubscribe', [tokenAccount.address]);
    const program = await wire.subscribe('programSubscribe', [
      TOKEN_PROGRAM_ADDRESS,
      { encoding: 'base64', filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: payer.address } }] },
    ]);

    const rent = await rpc.getMinimumBalanceForRentExemption(165n).send();
    const created = await signInstructions(rpc, payer, [
      getCreateAccountInstruction({
        payer,
        newAccount: tokenAccount,
        lamports: rent,
        space: 165n,
        programAddress: TOKEN_PROGRAM_ADDRESS,
      }),
      getInitializeAccount3Instruction({
        account: tokenAccount.address,
        mint: address(localnet.manifest.usdcMint),
        owner: payer.address,
      }),
    ]);
    await sendWire(rpc, created.wire);
    await wire.flush();
    expect(wire.notifications(base64)[0]!.result.value).toMatchObject({
      lamports: Number(rent),
      owner: TOKEN_PROGRAM_ADDRESS,
      space: 165,
    });
    expect(wire.notifications(program)).toHaveLength(1);

    const closed = await signInstructions(rpc, payer, [
      getCloseAccountInstruction({ account: tokenAccount.address, destination: payer.address, owner: payer }),
    ]);
    expect(await sendWire(rpc, closed.wire)).toBe(closed.signature);
    expect((await rpc.getAccountInfo(tokenAccount.address).send()).value).toBeNull();
    await wire.flush();

    // Agave's filter_account_result: an account the bank no longer has is AccountSharedData::default().
    const closedAccount = { lamports: 0, owner: SYSTEM_PROGRAM, executable: false, rentEpoch: 0, space: 0 };
    const base64Notes = wire.notifications(base64);
    expect(base64Notes).toHaveLength(2);
    expect(base64Notes[1]!.result.value).toEqual({ ...closedAccount, data: ['', 'base64'] });
    expect(base64Notes[1]!.result.context.slot).toBe(Number(await rpc.getSlot().send()));
    expect(wire.notifications(binary)[1]!.result.value).toEqual({ ...closedAccount, data: '' });
    // programSubscribe: the closed account no longer belongs to the program, so nothing more.
    expect(wire.notifications(program)).toHaveLength(1);

    // Closed once, notified once: a later write that leaves it closed says nothing new.
    const poke = await signInstructions(rpc, payer, [
      getTransferSolInstruction({ source: payer, destination: tokenAccount.address, amount: 0n }),
    ]);
    await sendWire(rpc, poke.wire);
    await wire.flush();
    expect(wire.notifications(base64)).toHaveLength(2);
  });
});

describe('a hostile client', () => {
  it('is disconnected for a malformed frame while the server keeps serving everyone else', async () => {
    const { hostname, port } = new URL(localnet.wsUrl);
    const raw = connect(Number(port), hostname);
    await once(raw, 'connect');
    raw.write(
      `GET / HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    expect(String(((await once(raw, 'data')) as [Buffer])[0])).toMatch(/^HTTP\/1\.1 101 /);
    const closed = once(raw, 'close');
    raw.write(Buffer.from([0x83, 0x80, 0, 0, 0, 0])); // FIN + opcode 3 (reserved), masked, empty
    await closed;
    // Unhandled, the server socket's 'error' would have been an uncaught exception in this process.
    const payer = await fundedSigner(rpc, 1n);
    const id = await wire.subscribe('accountSubscribe', [payer.address, { encoding: 'base64' }]);
    const transfer = await signTransfer(rpc, payer, (await generateKeyPairSigner()).address, 1_000_000n);
    expect(await sendWire(rpc, transfer.wire)).toBe(transfer.signature);
    await wire.flush();
    expect(wire.notifications(id)).toHaveLength(1);
  });
});

describe('signatures', () => {
  it('notifies an already processed signature at once, to that subscriber only', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const transfer = await signTransfer(rpc, payer, recipient, 4_000_000n);
    await sendWire(rpc, transfer.wire);
    const logs = await wire.subscribe('logsSubscribe', [{ mentions: [recipient] }]);
    const id = await wire.subscribe('signatureSubscribe', [transfer.signature, { commitment: 'confirmed' }]);
    await wire.flush();
    expect(wire.notifications(id).map((n) => n!.result.value)).toEqual([{ err: null }]);
    expect(wire.notifications(logs)).toEqual([]); // an old transaction is not news to the others
    // It ended with its notification, as a validator's does.
    expect((await wire.request('signatureUnsubscribe', [id])).error).toEqual({
      code: -32602,
      message: 'Invalid subscription id.',
    });
  });
});
