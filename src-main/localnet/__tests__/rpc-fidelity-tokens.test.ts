/**
 * Validator fidelity around SPL Token and simulation, as a wallet or app pointed at the localnet sees
 * it: `jsonParsed` token accounts and mints, getTokenAccountsByOwner/ByDelegate filters and their
 * errors, getTransaction's inner instructions and token balances, and simulateTransaction's `accounts`.
 * kit's RPC client (and raw JSON-RPC for exact error texts) against the in-process localnet.
 */
import {
  address,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase64Encoder,
  none,
  some,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getApproveInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  AccountState,
  getFreezeAccountInstruction,
  getMintEncoder,
  getThawAccountInstruction,
  getTokenEncoder,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import { zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import { startLocalnet, type Localnet } from '../localnet';
import { TOKEN_2022_PROGRAM_ADDRESS } from '../spl-token-views';
import { fundedSigner, rawRpc, sendWire, signInstructions, usdcAccountOf, type LocalRpc } from './localnet-test-helpers';

const ASSOCIATED_TOKEN_PROGRAM = address('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');

let localnet: Localnet;
let rpc: LocalRpc;
let app: KeyPairSigner;
let mintAuthority: KeyPairSigner;
let mint: Address;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, manualSlots: true });
  rpc = createSolanaRpc(localnet.rpcUrl);
  app = await keypairFromBytes(localnet.manifest.devKeys.app.keypair);
  mintAuthority = await keypairFromBytes(Uint8Array.from(localnet.manifest.mintAuthority));
  mint = address(localnet.manifest.usdcMint);
});
afterAll(async () => {
  await localnet?.stop();
});

const call = <T = unknown>(method: string, params: unknown[] = []) => rawRpc<T>(localnet.rpcUrl, method, params);
const ataOf = async (owner: Address) => (await findAssociatedTokenPda({ mint, owner, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];

/** A new wallet with a USDC account holding `amount` base units sent by the app key; returns the landed signature too. */
async function walletWithUsdc(amount: bigint) {
  const owner = await fundedSigner(rpc, 1n);
  const ata = await ataOf(owner.address);
  const { wire, signature } = await signInstructions(rpc, app, [
    getCreateAssociatedTokenIdempotentInstruction({ payer: app, ata, owner: owner.address, mint }),
    getTransferCheckedInstruction({ source: await usdcAccountOf(localnet.manifest, app.address), mint, destination: ata, authority: app, amount, decimals: 6 }),
  ]);
  await sendWire(rpc, wire);
  return { owner, ata, signature };
}

describe('jsonParsed SPL Token accounts and mints', () => {
  it('parses a token account and the mint in getAccountInfo and getMultipleAccounts; a wallet falls back to base64', async () => {
    const { owner, ata } = await walletWithUsdc(1_500_000n);
    const { value: account } = await rpc.getAccountInfo(ata, { encoding: 'jsonParsed' }).send();
    expect(account?.data).toEqual({
      program: 'spl-token',
      parsed: {
        type: 'account',
        info: {
          isNative: false,
          mint,
          owner: owner.address,
          state: 'initialized',
          tokenAmount: { amount: '1500000', decimals: 6, uiAmount: 1.5, uiAmountString: '1.5' },
        },
      },
      space: 165n,
    });

    const { value: accounts } = await rpc.getMultipleAccounts([mint, owner.address], { encoding: 'jsonParsed' }).send();
    const mintData = accounts[0]!.data as { program: string; parsed: { type: string; info: Record<string, unknown> }; space: bigint };
    expect(mintData.program).toBe('spl-token');
    expect(mintData.space).toBe(82n);
    expect(mintData.parsed.type).toBe('mint');
    expect(mintData.parsed.info).toMatchObject({ decimals: 6, isInitialized: true, mintAuthority: mintAuthority.address, freezeAuthority: mintAuthority.address });
    expect(typeof mintData.parsed.info.supply).toBe('string');
    expect(accounts[1]!.data).toEqual(['', 'base64']);

    // A validator refuses to slice parsed data (InvalidRequest).
    const { error } = await call('getAccountInfo', [ata, { encoding: 'jsonParsed', dataSlice: { offset: 0, length: 8 } }]);
    expect(error).toEqual({ code: -32600, message: 'Sliced account data can only be encoded using binary (base 58) or base64 encoding.' });
  });

  it('shows a delegate, a frozen state, and finds the account by delegate', async () => {
    const { owner, ata } = await walletWithUsdc(2_000_000n);
    const delegate = (await generateKeyPairSigner()).address;
    await sendWire(rpc, (await signInstructions(rpc, owner, [getApproveInstruction({ source: ata, delegate, owner, amount: 250_000n })])).wire);
    await sendWire(rpc, (await signInstructions(rpc, mintAuthority, [getFreezeAccountInstruction({ account: ata, mint, owner: mintAuthority })])).wire);

    const { value } = await rpc.getTokenAccountsByDelegate(delegate, { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: 'jsonParsed' }).send();
    expect(value.map((entry) => entry.pubkey)).toEqual([ata]);
    expect(value[0]!.account.data.parsed.info).toMatchObject({
      state: 'frozen',
      delegate,
      delegatedAmount: { amount: '250000', decimals: 6, uiAmount: 0.25, uiAmountString: '0.25' },
      tokenAmount: { amount: '2000000', uiAmountString: '2' },
    });
    await sendWire(rpc, (await signInstructions(rpc, mintAuthority, [getThawAccountInstruction({ account: ata, mint, owner: mintAuthority })])).wire);
  });

  it('parses token accounts from getTokenAccountsByOwner and getProgramAccounts', async () => {
    const { owner, ata } = await walletWithUsdc(3_000_000n);
    const { value: byOwner } = await rpc.getTokenAccountsByOwner(owner.address, { mint }, { encoding: 'jsonParsed' }).send();
    expect(byOwner).toHaveLength(1);
    expect(byOwner[0]!.pubkey).toBe(ata);
    expect(byOwner[0]!.account.data.parsed.info.tokenAmount.uiAmountString).toBe('3');

    const programAccounts = await rpc
      .getProgramAccounts(TOKEN_PROGRAM_ADDRESS, { encoding: 'jsonParsed', filters: [{ dataSize: 165n }, { memcmp: { offset: 32n, bytes: owner.address as never, encoding: 'base58' } }] })
      .send();
    expect(programAccounts.map((entry) => entry.pubkey)).toEqual([ata]);
    expect((programAccounts[0]!.account.data as { parsed: { type: string } }).parsed.type).toBe('account');
  });
});

describe('getTokenAccountsByOwner filters', () => {
  it('refuses a non-token program, an unknown mint and an account that is not a mint, as a validator', async () => {
    const owner = app.address;
    const unknownMint = (await generateKeyPairSigner()).address;
    // A copy of the USDC mint's bytes owned by another program: it unpacks as a mint but is not a Token mint.
    const usdc = localnet.chain.svm.getAccount(mint);
    const impostor = (await generateKeyPairSigner()).address;
    if (!usdc.exists) throw new Error('no USDC mint');
    localnet.chain.svm.setAccount({ ...usdc, address: impostor, programAddress: address(localnet.manifest.programs.wager) });
    const cases: [unknown, string][] = [
      [{ programId: '11111111111111111111111111111111' }, 'Invalid param: unrecognized Token program id'],
      [{ mint: unknownMint }, 'Invalid param: could not find mint'],
      [{ mint: impostor }, 'Invalid param: not a Token mint'],
      [{ mint: localnet.manifest.programs.wager }, 'Invalid param: Token mint could not be unpacked'],
      [{ mint: await usdcAccountOf(localnet.manifest, app.address) }, 'Invalid param: Token mint could not be unpacked'],
    ];
    for (const [filter, message] of cases) {
      const { error } = await call('getTokenAccountsByOwner', [owner, filter, { encoding: 'base64' }]);
      expect(error, JSON.stringify(filter)).toEqual({ code: -32602, message });
    }
  });
});

describe('getTransaction token balances and inner instructions', () => {
  it('lists the CPIs of each instruction and the token balances before and after', async () => {
    const { owner, ata, signature } = await walletWithUsdc(4_000_000n);
    const tx = (await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send())!;
    const keys = tx.transaction.message.accountKeys;
    const appUsdc = await usdcAccountOf(localnet.manifest, app.address);
    const appIndex = keys.indexOf(appUsdc);
    const ataIndex = keys.indexOf(ata);

    // The ATA program's create calls the system and token programs (stack height 2); the transfer makes no CPI.
    expect(tx.meta!.innerInstructions).toHaveLength(1);
    const inner = tx.meta!.innerInstructions![0]!;
    expect(inner.index).toBe(0);
    expect(inner.instructions.length).toBeGreaterThan(0);
    for (const ix of inner.instructions) expect(ix.stackHeight).toBe(2);
    const invoked = inner.instructions.map((ix) => keys[ix.programIdIndex]);
    expect(invoked).toContain(TOKEN_PROGRAM_ADDRESS);
    expect(invoked).toContain('11111111111111111111111111111111');
    expect(keys).toContain(ASSOCIATED_TOKEN_PROGRAM);

    const pre = tx.meta!.preTokenBalances!;
    const post = tx.meta!.postTokenBalances!;
    // The new account did not exist before the transaction.
    expect(pre.map((b) => b.accountIndex)).toEqual([appIndex]);
    expect(post.map((b) => b.accountIndex).sort()).toEqual([appIndex, ataIndex].sort());
    const before = pre[0]!;
    const after = post.find((b) => b.accountIndex === appIndex)!;
    expect(before).toMatchObject({ mint, owner: app.address, programId: TOKEN_PROGRAM_ADDRESS });
    expect(BigInt(before.uiTokenAmount.amount) - BigInt(after.uiTokenAmount.amount)).toBe(4_000_000n);
    expect(post.find((b) => b.accountIndex === ataIndex)).toEqual({
      accountIndex: ataIndex,
      mint,
      owner: owner.address,
      programId: TOKEN_PROGRAM_ADDRESS,
      uiTokenAmount: { amount: '4000000', decimals: 6, uiAmount: 4, uiAmountString: '4' },
    });
  });
});

describe('token balances of a failed transaction', () => {
  it('records the same pre and post token balances (a failed transaction changes no token account)', async () => {
    const { owner, ata } = await walletWithUsdc(100_000n);
    const destination = await usdcAccountOf(localnet.manifest, app.address);
    const { wire, signature } = await signInstructions(rpc, owner, [
      getTransferCheckedInstruction({ source: ata, mint, destination, authority: owner, amount: 200_000n, decimals: 6 }),
    ]);
    await sendWire(rpc, wire, true);
    const tx = (await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send())!;
    expect(tx.meta!.err).not.toBeNull();
    const keys = tx.transaction.message.accountKeys;
    expect(tx.meta!.preTokenBalances!.map((b) => keys[b.accountIndex]).sort()).toEqual([ata, destination].sort());
    expect(tx.meta!.postTokenBalances).toEqual(tx.meta!.preTokenBalances);
    expect(tx.meta!.postTokenBalances!.find((b) => keys[b.accountIndex] === ata)!.uiTokenAmount.amount).toBe('100000');
  });
});

describe('simulateTransaction accounts', () => {
  it('returns one null per address when the simulation fails', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const { wire } = await signInstructions(rpc, payer, [getTransferSolInstruction({ source: payer, destination: recipient, amount: 2_000_000_000n })]);
    const { value } = await rpc.simulateTransaction(wire, { encoding: 'base64', accounts: { addresses: [payer.address, recipient], encoding: 'base64' } }).send();
    expect(value.err).not.toBeNull();
    expect(value.accounts).toEqual([null, null]);
  });

  it('refuses base58 account encodings and more addresses than the transaction has keys', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const { wire } = await signInstructions(rpc, payer, [getTransferSolInstruction({ source: payer, destination: app.address, amount: 1n })]);
    for (const encoding of ['base58', 'binary']) {
      const { error } = await call('simulateTransaction', [wire, { encoding: 'base64', accounts: { addresses: [payer.address], encoding } }]);
      expect(error).toEqual({ code: -32602, message: 'base58 encoding not supported' });
    }
    const four = [payer.address, app.address, '11111111111111111111111111111111', mint];
    const { error } = await call('simulateTransaction', [wire, { encoding: 'base64', accounts: { addresses: four, encoding: 'base64' } }]);
    expect(error).toEqual({ code: -32602, message: 'Too many accounts provided; max 3' });
  });

  it('parses a token account the simulation changed when asked for jsonParsed', async () => {
    const { owner, ata } = await walletWithUsdc(1_000_000n);
    const destination = await usdcAccountOf(localnet.manifest, app.address);
    const { wire } = await signInstructions(rpc, owner, [getTransferCheckedInstruction({ source: ata, mint, destination, authority: owner, amount: 400_000n, decimals: 6 })]);
    const { value } = await rpc.simulateTransaction(wire, { encoding: 'base64', accounts: { addresses: [ata], encoding: 'jsonParsed' } }).send();
    expect(value.err).toBeNull();
    const parsed = value.accounts![0]!.data as unknown as { parsed: { info: { tokenAmount: { amount: string } } } };
    expect(parsed.parsed.info.tokenAmount.amount).toBe('600000');
  });
});

describe('getProgramAccounts filters, verified as Agave verifies them', () => {
  it('refuses a fifth filter and memcmp bytes over 128, with the messages of verify_filters', async () => {
    const five = Array.from({ length: 5 }, () => ({ dataSize: 165 }));
    const tooMany = await call('getProgramAccounts', [TOKEN_PROGRAM_ADDRESS, { encoding: 'base64', filters: five }]);
    expect(tooMany.error).toEqual({ code: -32602, message: 'Too many filters provided; max 4' });
    const long = Buffer.alloc(129, 1).toString('base64');
    const tooLong = await call('getProgramAccounts', [TOKEN_PROGRAM_ADDRESS, { encoding: 'base64', filters: [{ memcmp: { offset: 0, bytes: long, encoding: 'base64' } }] }]);
    expect(tooLong.error).toEqual({ code: -32602, message: 'Invalid param: DataTooLarge' });
    const notBase58 = await call('getProgramAccounts', [TOKEN_PROGRAM_ADDRESS, { filters: [{ memcmp: { offset: 0, bytes: 'abc0' } }] }]);
    expect(notBase58.error).toEqual({ code: -32602, message: "Invalid param: Base58DecodeError(InvalidCharacter { character: '0', index: 3 })" });
    const unknown = await call('getProgramAccounts', [TOKEN_PROGRAM_ADDRESS, { filters: [{ owner: app.address }] }]);
    expect(unknown.error).toEqual({
      code: -32602,
      message: 'Invalid params: unknown variant `owner`, expected one of `dataSize`, `memcmp`, `tokenAccountState`.',
    });
  });

  it('applies tokenAccountState with a memcmp on the owner, and refuses base58 data over 128 bytes', async () => {
    const { owner, ata } = await walletWithUsdc(500_000n);
    const filters = ['tokenAccountState', { memcmp: { offset: 32, bytes: owner.address } }];
    const found = await call<{ pubkey: string }[]>('getProgramAccounts', [TOKEN_PROGRAM_ADDRESS, { encoding: 'base64', filters }]);
    expect(found.result!.map((entry) => entry.pubkey)).toEqual([ata]);
    // A 165-byte account in base58: a request is refused (a subscription gets a text instead).
    const base58 = await call('getProgramAccounts', [TOKEN_PROGRAM_ADDRESS, { encoding: 'base58', filters }]);
    expect(base58.error).toEqual({ code: -32600, message: 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.' });
  });
});

describe('base64+zstd', () => {
  it('answers getAccountInfo, getMultipleAccounts and simulateTransaction accounts compressed, as a validator', async () => {
    const { owner, ata } = await walletWithUsdc(700_000n);
    const { value: plain } = await rpc.getAccountInfo(ata, { encoding: 'base64' }).send();
    const bytes = Uint8Array.from(getBase64Encoder().encode(plain!.data[0]));
    const decompressed = (data: unknown) => {
      const [text, encoding] = data as [string, string];
      expect(encoding).toBe('base64+zstd');
      return Uint8Array.from(zstdDecompressSync(Buffer.from(text, 'base64')));
    };
    const info = await call<{ value: { data: unknown } }>('getAccountInfo', [ata, { encoding: 'base64+zstd' }]);
    expect(decompressed(info.result!.value.data)).toEqual(bytes);
    const sliced = await call<{ value: { data: unknown }[] }>('getMultipleAccounts', [[ata], { encoding: 'base64+zstd', dataSlice: { offset: 64, length: 8 } }]);
    expect(decompressed(sliced.result!.value[0]!.data)).toEqual(bytes.subarray(64, 72));

    const { wire } = await signInstructions(rpc, owner, [getTransferSolInstruction({ source: owner, destination: app.address, amount: 1n })]);
    const simulated = await call<{ value: { err: unknown; accounts: { data: unknown }[] } }>('simulateTransaction', [
      wire,
      { encoding: 'base64', accounts: { addresses: [ata], encoding: 'base64+zstd' } },
    ]);
    expect(simulated.result!.value.err).toBeNull();
    expect(decompressed(simulated.result!.value.accounts[0]!.data)).toEqual(bytes);
  });

  it('getMultipleAccounts defaults to base64 and getAccountInfo to binary, as Agave', async () => {
    const { value } = (await call<{ value: { data: unknown }[] }>('getMultipleAccounts', [[app.address]])).result!;
    expect(value[0]!.data).toEqual(['', 'base64']);
    const single = (await call<{ value: { data: unknown } }>('getAccountInfo', [app.address])).result!;
    expect(single.value.data).toBe('');
  });
});

describe('getTokenAccountBalance', () => {
  it('answers a Token-2022 account in its mint decimals, and refuses what is not a token account as Agave does', async () => {
    const mint2022 = (await generateKeyPairSigner()).address;
    const account2022 = (await generateKeyPairSigner()).address;
    const holder = (await generateKeyPairSigner()).address;
    const rent = 10_000_000n;
    localnet.chain.svm.setAccount({
      address: mint2022,
      programAddress: TOKEN_2022_PROGRAM_ADDRESS,
      executable: false,
      lamports: rent as never,
      space: 82n,
      data: Uint8Array.from(getMintEncoder().encode({ mintAuthority: some(holder), supply: 1_234_500n, decimals: 4, isInitialized: true, freezeAuthority: none() })),
    });
    localnet.chain.svm.setAccount({
      address: account2022,
      programAddress: TOKEN_2022_PROGRAM_ADDRESS,
      executable: false,
      lamports: rent as never,
      space: 165n,
      data: Uint8Array.from(
        getTokenEncoder().encode({
          mint: mint2022,
          owner: holder,
          amount: 1_234_500n,
          delegate: none(),
          state: AccountState.Initialized,
          isNative: none(),
          delegatedAmount: 0n,
          closeAuthority: none(),
        }),
      ),
    });
    const { value } = await rpc.getTokenAccountBalance(account2022).send();
    expect(value).toEqual({ amount: '1234500', decimals: 4, uiAmount: 123.45, uiAmountString: '123.45' });
    // The same account is listed by getTokenAccountsByOwner under Token-2022.
    const { value: listed } = await rpc.getTokenAccountsByOwner(holder, { programId: TOKEN_2022_PROGRAM_ADDRESS }, { encoding: 'base64' }).send();
    expect(listed.map((entry) => entry.pubkey)).toEqual([account2022]);

    expect((await call('getTokenAccountBalance', [app.address])).error).toEqual({ code: -32602, message: 'Invalid param: not a Token account' });
    expect((await call('getTokenAccountBalance', [(await generateKeyPairSigner()).address])).error).toEqual({
      code: -32602,
      message: 'Invalid param: could not find account',
    });
  });
});
