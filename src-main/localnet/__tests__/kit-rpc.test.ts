/**
 * @solana/kit's own, unmodified clients against the localnet: every JSON-RPC method it serves and every
 * subscription, as an app or a keeper built on kit would use them. Slots move only when a test says so.
 */
import {
  address,
  compileTransactionMessage,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Encoder,
  getTransactionDecoder,
  getCompiledTransactionMessageEncoder,
  getBase64Decoder,
  getU64Decoder,
  isSolanaError,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  appendTransactionMessageInstructions,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__INVALID_REQUEST,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  type Base64EncodedWireTransaction,
  type Blockhash,
  type KeyPairSigner,
  type RpcSubscriptions,
  type Signature,
  type SolanaRpcSubscriptionsApi,
  type TransactionMessageBytesBase64,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  TOKEN_PROGRAM_ADDRESS,
  getGetAccountDataSizeInstruction,
  getMintDecoder,
  getTokenDecoder,
} from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PAYTABLE_DISCRIMINATOR, WAGER_DISCRIMINATOR, getPaytableDecoder, getWagerDecoder } from '../../protocol/wager';
import { decodePaytableName } from '../../protocol/wager/paytable-name';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import { DEV_APP_USDC } from '../genesis';
import { startLocalnet, type Localnet } from '../localnet';
import { advanceLocalSlots } from '../localnet-admin-client';
import {
  eventually,
  fundedSigner,
  openWagerOverRpc,
  sendWire,
  signInstructions,
  signTransfer,
  take,
  usdcAccountOf,
  type LocalRpc,
} from './localnet-test-helpers';

const TOKEN_2022 = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
const SOL = 1_000_000_000n;

let localnet: Localnet;
let rpc: LocalRpc;
let subscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>;
let app: KeyPairSigner;
const advance = (slots: number) => advanceLocalSlots(localnet.rpcUrl, slots);

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, manualSlots: true });
  rpc = createSolanaRpc(localnet.rpcUrl);
  subscriptions = createSolanaRpcSubscriptions(localnet.wsUrl);
  app = await keypairFromBytes(localnet.manifest.devKeys.app.keypair);
});
afterAll(async () => {
  await localnet?.stop();
});

/** A transaction whose system transfer fails on chain: 2 SOL from a payer holding 1 SOL. */
async function overdraft() {
  const payer = await fundedSigner(rpc, 1n);
  const { wire, signature } = await signTransfer(rpc, payer, (await generateKeyPairSigner()).address, 2n * SOL);
  return { payer, wire, signature };
}

/** The same wire transaction with its first signature corrupted. */
function corruptSignature(wire: Base64EncodedWireTransaction): Base64EncodedWireTransaction {
  const bytes = Uint8Array.from(getBase64Encoder().encode(wire));
  bytes[1] = bytes[1]! ^ 0xff; // byte 0 is the signature count; the first signature starts at 1
  return getBase64Decoder().decode(bytes) as Base64EncodedWireTransaction;
}

async function rpcError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the RPC call to fail');
}

describe('cluster state', () => {
  // First in this file: no slot has been produced since genesis.
  it('accepts a transfer signed on the blockhash it hands out before the first slot', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const { wire, signature } = await signTransfer(rpc, payer, recipient, 1_000_000n);
    expect(await sendWire(rpc, wire)).toBe(signature);
    expect((await rpc.getBalance(recipient).send()).value).toBe(1_000_000n);
  });

  it('answers getHealth "ok", names its solana-core version and keeps one genesis hash', async () => {
    expect(await rpc.getHealth().send()).toBe('ok');
    const version = await rpc.getVersion().send();
    expect(version['solana-core']).toMatch(/^2\.\d+\.\d+$/); // plain semver: Rust clients parse it
    expect(typeof version['feature-set']).toBe('number');
    const genesis = await rpc.getGenesisHash().send();
    expect(getBase58Encoder().encode(genesis)).toHaveLength(32);
    await advance(1);
    expect(await rpc.getGenesisHash().send()).toBe(genesis);
    // The manifest names the same cluster, with its CAIP-2 id (x402, wallets).
    expect(localnet.manifest.genesisHash).toBe(genesis);
    expect(localnet.manifest.network).toBe(`solana:${genesis.slice(0, 32)}`);
  });

  it('moves getSlot, getBlockHeight and getEpochInfo together, one per produced slot', async () => {
    const slot = await rpc.getSlot().send();
    const height = await rpc.getBlockHeight().send();
    const epoch = await rpc.getEpochInfo().send();
    expect(epoch.absoluteSlot).toBe(slot);
    expect(epoch.blockHeight).toBe(height);
    expect(epoch.slotIndex).toBe((slot - 524_256n) % epoch.slotsInEpoch);
    expect(typeof epoch.transactionCount).toBe('bigint');

    expect(await advance(3)).toBe(Number(slot + 3n));
    expect(await rpc.getSlot().send()).toBe(slot + 3n);
    expect(await rpc.getBlockHeight().send()).toBe(height + 3n);
    expect((await rpc.getEpochInfo().send()).absoluteSlot).toBe(slot + 3n);
  });

  it('tells one story of epochs: getEpochInfo and getEpochSchedule agree with the Clock and EpochSchedule sysvars (Agave\'s warmup arithmetic)', async () => {
    const { fetchSysvarClock, fetchSysvarEpochSchedule } = await import('@solana/sysvars');
    const [info, schedule, clock, sysvarSchedule] = await Promise.all([
      rpc.getEpochInfo().send(),
      (rpc as unknown as { getEpochSchedule(): { send(): Promise<Record<string, unknown>> } }).getEpochSchedule().send(),
      fetchSysvarClock(rpc),
      fetchSysvarEpochSchedule(rpc),
    ]);
    expect(schedule).toEqual({ ...sysvarSchedule });
    expect(info.epoch).toBe(clock.epoch);
    expect(clock.leaderScheduleEpoch).toBe(clock.epoch + 1n);
    // Agave's numbers for the default schedule: 432 000 slots after 14 warmup epochs starting at slot 524 256.
    expect(sysvarSchedule).toMatchObject({ slotsPerEpoch: 432_000n, warmup: true, firstNormalEpoch: 14n, firstNormalSlot: 524_256n });
    const normal = info.absoluteSlot - 524_256n;
    expect(info.epoch).toBe(14n + normal / 432_000n);
    expect(info.slotIndex).toBe(normal % 432_000n);
    expect(info.slotsInEpoch).toBe(432_000n);
  });

  it('keeps a fresh blockhash valid for 150 blocks and refuses it after 151', async () => {
    const { value: latest } = await rpc.getLatestBlockhash().send();
    const height = await rpc.getBlockHeight().send();
    expect(latest.lastValidBlockHeight).toBe(height + 150n);
    expect((await rpc.isBlockhashValid(latest.blockhash).send()).value).toBe(true);

    await advance(150);
    expect((await rpc.isBlockhashValid(latest.blockhash).send()).value).toBe(true);
    expect((await rpc.getBlockHeight().send())).toBe(latest.lastValidBlockHeight);
    await advance(1);
    const after = await rpc.isBlockhashValid(latest.blockhash).send();
    expect(after.value).toBe(false);
    expect(after.context.slot).toBe(await rpc.getSlot().send());
    // A blockhash this chain never produced is not valid either.
    const unknown = getBase58Decoder().decode(new Uint8Array(32).fill(3)) as Blockhash;
    expect((await rpc.isBlockhashValid(unknown).send()).value).toBe(false);
  });
});

describe('accounts', () => {
  it('shows a funded key with getBalance and getAccountInfo; a missing account is null', async () => {
    const signer = await fundedSigner(rpc, 3n);
    expect((await rpc.getBalance(signer.address).send()).value).toBe(3n * SOL);
    const { value } = await rpc.getAccountInfo(signer.address, { encoding: 'base64' }).send();
    expect(value).toMatchObject({ lamports: 3n * SOL, owner: '11111111111111111111111111111111', executable: false, space: 0n, data: ['', 'base64'] });
    const nobody = (await generateKeyPairSigner()).address;
    expect((await rpc.getAccountInfo(nobody, { encoding: 'base64' }).send()).value).toBeNull();
    expect((await rpc.getBalance(nobody).send()).value).toBe(0n);
  });

  it('returns account data in base64 and base58, and refuses base58 above 128 bytes with the validator\'s error', async () => {
    const mint = address(localnet.manifest.usdcMint);
    const base64 = (await rpc.getAccountInfo(mint, { encoding: 'base64' }).send()).value!;
    const base58 = (await rpc.getAccountInfo(mint, { encoding: 'base58' }).send()).value!;
    const bytes = getBase64Encoder().encode(base64.data[0]);
    expect(bytes).toHaveLength(82);
    expect(base58.data).toEqual([getBase58Decoder().decode(bytes), 'base58']);
    expect(getMintDecoder().decode(bytes)).toMatchObject({ decimals: 6 });
    expect(base64.owner).toBe(TOKEN_PROGRAM_ADDRESS);

    // A paytable is 312 bytes: a validator refuses base58 for it with -32600 (InvalidRequest) ...
    const paytable = address(localnet.manifest.paytables[0]!.address);
    const error = await rpcError(rpc.getAccountInfo(paytable, { encoding: 'base58' }).send());
    expect(isSolanaError(error, SOLANA_ERROR__JSON_RPC__INVALID_REQUEST)).toBe(true);
    expect((error as { context: { __serverMessage: string } }).context.__serverMessage).toBe(
      'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.',
    );
    // ... but serves a slice of it that fits.
    const slice = (await rpc.getAccountInfo(paytable, { encoding: 'base58', dataSlice: { offset: 0, length: 8 } }).send()).value!;
    expect(getBase58Encoder().encode(slice.data[0])).toEqual(PAYTABLE_DISCRIMINATOR);
    expect(slice.space).toBe(312n);
  });

  it('answers getMultipleAccounts in request order with null for a missing account', async () => {
    const nobody = (await generateKeyPairSigner()).address;
    const mint = address(localnet.manifest.usdcMint);
    const { value } = await rpc.getMultipleAccounts([app.address, nobody, mint], { encoding: 'base64' }).send();
    expect(value).toHaveLength(3);
    expect(value[0]?.owner).toBe('11111111111111111111111111111111');
    expect(value[1]).toBeNull();
    expect(value[2]?.owner).toBe(TOKEN_PROGRAM_ADDRESS);
  });

  it('filters getProgramAccounts by memcmp and dataSize, slices the data and wraps it withContext on request', async () => {
    const program = address(localnet.manifest.programs.wager);
    const discriminator = getBase58Decoder().decode(PAYTABLE_DISCRIMINATOR);
    const paytables = await rpc
      .getProgramAccounts(program, { encoding: 'base64', filters: [{ memcmp: { offset: 0n, bytes: discriminator as never, encoding: 'base58' } }] })
      .send();
    const names = paytables.map(({ account }) => decodePaytableName(getPaytableDecoder().decode(getBase64Encoder().encode(account.data[0])).name));
    expect(names.sort()).toEqual(['coin-flip', 'dice', 'wheel']);
    expect(new Set(paytables.map((p) => p.pubkey))).toEqual(new Set(localnet.manifest.paytables.map((p) => p.address)));

    const all = await rpc.getProgramAccounts(program, { encoding: 'base64' }).send();
    expect(all.length).toBeGreaterThan(paytables.length);
    const sized = await rpc.getProgramAccounts(program, { encoding: 'base64', filters: [{ dataSize: 312n }] }).send();
    expect(new Set(sized.map((a) => a.pubkey))).toEqual(new Set(all.filter((a) => a.account.space === 312n).map((a) => a.pubkey)));
    expect(sized.length).toBeGreaterThanOrEqual(3);
    const none = await rpc
      .getProgramAccounts(program, { encoding: 'base64', filters: [{ dataSize: 313n }, { memcmp: { offset: 0n, bytes: discriminator as never, encoding: 'base58' } }] })
      .send();
    expect(none).toEqual([]);

    const sliced = await rpc
      .getProgramAccounts(program, {
        encoding: 'base64',
        dataSlice: { offset: 0, length: 8 },
        filters: [{ memcmp: { offset: 0n, bytes: discriminator as never, encoding: 'base58' } }],
      })
      .send();
    for (const { account } of sliced) {
      expect(getBase64Encoder().encode(account.data[0])).toEqual(PAYTABLE_DISCRIMINATOR);
      expect(account.space).toBe(312n);
    }

    const wrapped = await rpc
      .getProgramAccounts(program, { encoding: 'base64', withContext: true, filters: [{ memcmp: { offset: 0n, bytes: discriminator as never, encoding: 'base58' } }] })
      .send();
    expect(wrapped.context.slot).toBe(await rpc.getSlot().send());
    expect(wrapped.value.map((a) => a.pubkey).sort()).toEqual(paytables.map((a) => a.pubkey).sort());
  });

  it("shows the dev app key's test USDC with getTokenAccountBalance and getTokenAccountsByOwner", async () => {
    const owner = (await generateKeyPairSigner()).address;
    const appUsdc = await usdcAccountOf(localnet.manifest, app.address);
    const balance = (await rpc.getTokenAccountBalance(appUsdc).send()).value;
    expect(balance.decimals).toBe(6);
    expect(BigInt(balance.amount)).toBeLessThanOrEqual(DEV_APP_USDC * 1_000_000n);
    expect(balance.uiAmountString).toBe((Number(balance.amount) / 1e6).toString());

    const mint = address(localnet.manifest.usdcMint);
    const byMint = (await rpc.getTokenAccountsByOwner(app.address, { mint }, { encoding: 'base64' }).send()).value;
    expect(byMint.map((a) => a.pubkey)).toEqual([appUsdc]);
    const token = getTokenDecoder().decode(getBase64Encoder().encode(byMint[0]!.account.data[0]));
    expect(token).toMatchObject({ mint, owner: app.address, amount: BigInt(balance.amount) });
    const byProgram = (await rpc.getTokenAccountsByOwner(app.address, { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: 'base64' }).send()).value;
    expect(byProgram.map((a) => a.pubkey)).toContain(appUsdc);
    expect((await rpc.getTokenAccountsByOwner(app.address, { programId: TOKEN_2022 }, { encoding: 'base64' }).send()).value).toEqual([]);
    expect((await rpc.getTokenAccountsByOwner(owner, { mint }, { encoding: 'base64' }).send()).value).toEqual([]);
  });

  it('prices rent exemption like mainnet: 890 880 lamports for 0 bytes, 2 039 280 for a token account', async () => {
    expect(await rpc.getMinimumBalanceForRentExemption(0n).send()).toBe(890_880n);
    expect(await rpc.getMinimumBalanceForRentExemption(165n).send()).toBe(2_039_280n);
  });
});

describe('fees', () => {
  it('quotes 5 000 lamports per signature with getFeeForMessage, and null for an expired blockhash', async () => {
    const payer = await generateKeyPairSigner();
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const message = (blockhash: Blockhash) =>
      getBase64Decoder().decode(
        getCompiledTransactionMessageEncoder().encode(
          compileTransactionMessage(
            pipe(
              createTransactionMessage({ version: 0 }),
              (m) => setTransactionMessageFeePayer(payer.address, m),
              (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight: lifetime.lastValidBlockHeight }, m),
              (m) => appendTransactionMessageInstructions([getTransferSolInstruction({ source: payer, destination: app.address, amount: 1n })], m),
            ),
          ),
        ),
      ) as TransactionMessageBytesBase64;
    expect((await rpc.getFeeForMessage(message(lifetime.blockhash)).send()).value).toBe(5_000n);
    const unknown = getBase58Decoder().decode(new Uint8Array(32).fill(9)) as Blockhash;
    expect((await rpc.getFeeForMessage(message(unknown)).send()).value).toBeNull();
  });

  it('lists recent slots oldest first, with zero prioritization fees when nothing paid a compute-unit price', async () => {
    const slot = await rpc.getSlot().send();
    const fees = await rpc.getRecentPrioritizationFees().send();
    expect(fees.length).toBeGreaterThan(0);
    expect(fees.length).toBeLessThanOrEqual(150);
    expect(fees.at(-1)).toEqual({ slot, prioritizationFee: 0n });
    for (const fee of fees) expect(fee.prioritizationFee).toBe(0n);
  });
});

describe('sending and simulating', () => {
  it('refuses a failing transaction at preflight with -32002, its error and its logs, and charges nothing', async () => {
    const { payer, wire } = await overdraft();
    const error = await rpcError(sendWire(rpc, wire));
    expect(isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(true);
    const context = (error as { context: { logs: string[]; unitsConsumed: bigint } }).context;
    expect(context.logs).toContain('Transfer: insufficient lamports 999995000, need 2000000000');
    expect(context.unitsConsumed).toBeGreaterThan(0n);
    const cause = (error as Error).cause;
    expect(isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)).toBe(true);
    expect((cause as { context: { index: number; code: number } }).context).toMatchObject({ index: 0, code: 1 });
    expect((await rpc.getBalance(payer.address).send()).value).toBe(SOL);
  });

  it('lands the same failing transaction with skipPreflight: the fee is paid and its status shows the error', async () => {
    const { payer, wire, signature } = await overdraft();
    expect(await sendWire(rpc, wire, true)).toBe(signature);
    expect((await rpc.getBalance(payer.address).send()).value).toBe(SOL - 5_000n);
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    expect(status).toMatchObject({ err: { InstructionError: [0n, { Custom: 1n }] }, confirmationStatus: 'finalized' });
  });

  it('refuses a bad signature when sending (-32003) and when simulating with sigVerify; without sigVerify it simulates', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const { wire } = await signTransfer(rpc, payer, app.address, 1_000n);
    const bad = corruptSignature(wire);
    const sent = await rpcError(sendWire(rpc, bad));
    expect(isSolanaError(sent, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE)).toBe(true);
    const simulated = await rpcError(rpc.simulateTransaction(bad, { encoding: 'base64', sigVerify: true }).send());
    expect(isSolanaError(simulated, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE)).toBe(true);
    const { value } = await rpc.simulateTransaction(bad, { encoding: 'base64' }).send();
    expect(value.err).toBeNull();
    expect((await rpc.getBalance(payer.address).send()).value).toBe(SOL);
  });

  it('simulates with an unknown blockhash only when asked to replace it, and returns the replacement', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const unknown = { blockhash: getBase58Decoder().decode(new Uint8Array(32).fill(5)) as Blockhash, lastValidBlockHeight: 0n };
    const { wire } = await signTransfer(rpc, payer, app.address, 1_000n, unknown);
    expect((await rpc.simulateTransaction(wire, { encoding: 'base64' }).send()).value.err).toBe('BlockhashNotFound');
    const { value } = await rpc.simulateTransaction(wire, { encoding: 'base64', replaceRecentBlockhash: true }).send();
    expect(value.err).toBeNull();
    const { value: latest } = await rpc.getLatestBlockhash().send();
    expect(value.replacementBlockhash).toEqual(latest);
  });

  it('reports logs, units consumed, post-simulation accounts and return data from simulateTransaction, changing nothing', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const { wire } = await signTransfer(rpc, payer, recipient, 5_000_000n);
    const { value } = await rpc
      .simulateTransaction(wire, { encoding: 'base64', sigVerify: true, accounts: { addresses: [recipient, payer.address], encoding: 'base64' } })
      .send();
    expect(value.err).toBeNull();
    expect(value.logs).toEqual(['Program 11111111111111111111111111111111 invoke [1]', 'Program 11111111111111111111111111111111 success']);
    expect(value.unitsConsumed).toBe(150n);
    // The accounts as the transaction would leave them.
    expect(value.accounts?.[0]?.lamports).toBe(5_000_000n);
    expect(value.accounts?.[1]?.lamports).toBe(SOL - 5_000_000n - 5_000n);
    expect(value.returnData).toBeNull();
    expect((await rpc.getBalance(recipient).send()).value).toBe(0n);

    // The token program's GetAccountDataSize returns a u64 through return data.
    const mint = address(localnet.manifest.usdcMint);
    const sizing = await signInstructions(rpc, payer, [getGetAccountDataSizeInstruction({ mint })]);
    const { value: sized } = await rpc.simulateTransaction(sizing.wire, { encoding: 'base64' }).send();
    expect(sized.err).toBeNull();
    expect(sized.returnData?.programId).toBe(TOKEN_PROGRAM_ADDRESS);
    expect(getU64Decoder().decode(getBase64Encoder().encode(sized.returnData!.data[0]))).toBe(165n);
    expect(sized.logs?.some((line) => line.startsWith(`Program return: ${TOKEN_PROGRAM_ADDRESS} `))).toBe(true);
  });
});

describe('history', () => {
  it('answers getSignatureStatuses finalized for a landed transaction and null for an unknown signature', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const { wire, signature } = await signTransfer(rpc, payer, app.address, 1_000n);
    await sendWire(rpc, wire);
    const slot = await rpc.getSlot().send();
    const unknown = getBase58Decoder().decode(new Uint8Array(64).fill(1)) as Signature;
    const { value } = await rpc.getSignatureStatuses([signature, unknown]).send();
    expect(value[0]).toEqual({ slot, confirmations: null, err: null, confirmationStatus: 'finalized', status: { Ok: null } });
    expect(value[1]).toBeNull();
  });

  it('pages getSignaturesForAddress newest first with limit, before and until', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const sent: Signature[] = [];
    for (let i = 0; i < 4; i++) {
      const { wire } = await signTransfer(rpc, payer, app.address, 1_000n + BigInt(i));
      sent.push(await sendWire(rpc, wire));
      await advance(1);
    }
    const all = await rpc.getSignaturesForAddress(payer.address).send();
    // Four transfers, then the airdrop that funded the payer.
    expect(all.map((s) => s.signature).slice(0, 4)).toEqual([...sent].reverse());
    expect(all).toHaveLength(5);
    expect(all[0]).toMatchObject({ err: null, memo: null, confirmationStatus: 'finalized' });
    expect(all[0]!.slot).toBeGreaterThan(all[1]!.slot);
    expect(typeof all[0]!.blockTime).toBe('bigint');

    const page = await rpc.getSignaturesForAddress(payer.address, { limit: 2 }).send();
    expect(page.map((s) => s.signature)).toEqual([sent[3], sent[2]]);
    const next = await rpc.getSignaturesForAddress(payer.address, { limit: 2, before: sent[2] }).send();
    expect(next.map((s) => s.signature)).toEqual([sent[1], sent[0]]);
    const until = await rpc.getSignaturesForAddress(payer.address, { until: sent[1] }).send();
    expect(until.map((s) => s.signature)).toEqual([sent[3], sent[2]]);
  });

  it('returns a landed transaction from getTransaction in json and base64, with fee, balances, logs and compute units', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const { wire, signature } = await signTransfer(rpc, payer, recipient, 1_000_000n);
    await sendWire(rpc, wire);

    const json = (await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send())!;
    expect(json.version).toBe(0);
    expect(json.transaction.signatures).toEqual([signature]);
    expect(json.transaction.message.accountKeys).toEqual([payer.address, recipient, '11111111111111111111111111111111']);
    expect(json.transaction.message.header).toEqual({ numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 });
    expect(json.transaction.message.instructions).toHaveLength(1);
    expect(json.meta).toMatchObject({
      err: null,
      fee: 5_000n,
      preBalances: [SOL, 0n, 1n],
      postBalances: [SOL - 1_000_000n - 5_000n, 1_000_000n, 1n],
      logMessages: ['Program 11111111111111111111111111111111 invoke [1]', 'Program 11111111111111111111111111111111 success'],
      computeUnitsConsumed: 150n,
    });
    // Its cost covers at least the execution and its signature (720) and two write locks (300 each).
    expect(json.meta!.costUnits).toBeGreaterThanOrEqual(150n + 720n + 600n);

    const base64 = (await rpc.getTransaction(signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 }).send())!;
    expect(base64.transaction).toEqual([wire, 'base64']);
    expect(base64.meta?.fee).toBe(5_000n);

    const failed = await overdraft();
    await sendWire(rpc, failed.wire, true);
    const failure = (await rpc.getTransaction(failed.signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send())!;
    expect(failure.meta).toMatchObject({ err: { InstructionError: [0n, { Custom: 1n }] }, fee: 5_000n });
    expect(failure.meta?.logMessages).toContain('Transfer: insufficient lamports 999995000, need 2000000000');
    expect(failure.meta!.preBalances[0]! - failure.meta!.postBalances[0]!).toBe(5_000n);

    expect(await rpc.getTransaction(getBase58Decoder().decode(new Uint8Array(64).fill(2)) as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send()).toBeNull();
  });

  it('credits requestAirdrop at once and records it as finalized', async () => {
    const recipient = (await generateKeyPairSigner()).address;
    const signature = await rpc.requestAirdrop(recipient, lamports(42n * SOL)).send();
    expect((await rpc.getBalance(recipient).send()).value).toBe(42n * SOL);
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    expect(status).toMatchObject({ err: null, confirmationStatus: 'finalized' });

    // A real transaction, as a test validator's faucet sends: a legacy System transfer paid by the faucet.
    const json = await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    expect(json!.version).toBe('legacy');
    const keys = json!.transaction.message.accountKeys;
    expect(keys).toEqual([expect.any(String), recipient, '11111111111111111111111111111111']);
    expect(json!.transaction.signatures).toEqual([signature]);
    expect(json!.meta).toMatchObject({ err: null, fee: 5_000n });
    expect(json!.meta!.postBalances[1]! - json!.meta!.preBalances[1]!).toBe(42n * SOL);
    expect(json!.meta!.preBalances[0]! - json!.meta!.postBalances[0]!).toBe(42n * SOL + 5_000n);
    const wire = await rpc.getTransaction(signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 }).send();
    const decoded = getTransactionDecoder().decode(getBase64Encoder().encode(wire!.transaction[0]));
    expect(getBase58Decoder().decode(Object.values(decoded.signatures)[0]!)).toBe(signature);
  });

  it("confirms a real transfer with kit's sendAndConfirmTransactionFactory", async () => {
    const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions: subscriptions });
    const payer = await fundedSigner(rpc, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const { signed, signature } = await signTransfer(rpc, payer, recipient, 1_234_567n);
    await sendAndConfirm(signed as Parameters<typeof sendAndConfirm>[0], { commitment: 'confirmed' });
    expect((await rpc.getBalance(recipient).send()).value).toBe(1_234_567n);
    expect((await rpc.getSignatureStatuses([signature]).send()).value[0]?.confirmationStatus).toBe('finalized');
  });
});

describe('subscriptions', () => {
  it('notifies every produced slot with its parent and root', async () => {
    const abort = new AbortController();
    const slots = await subscriptions.slotNotifications().subscribe({ abortSignal: abort.signal });
    const first = (await rpc.getSlot().send()) + 1n;
    const received = take(slots, 3);
    await advance(3);
    expect(await received).toEqual([0n, 1n, 2n].map((i) => ({ slot: first + i, parent: first + i - 1n, root: first + i })));
    abort.abort();
  });

  it('notifies an account change with the new balance', async () => {
    const abort = new AbortController();
    const recipient = (await generateKeyPairSigner()).address;
    const notifications = await subscriptions.accountNotifications(recipient, { encoding: 'base64' }).subscribe({ abortSignal: abort.signal });
    const payer = await fundedSigner(rpc, 1n);
    const { wire } = await signTransfer(rpc, payer, recipient, 2_500_000n);
    const received = take(notifications, 1);
    await sendWire(rpc, wire);
    const [notification] = await received;
    expect(notification!.value).toMatchObject({ lamports: 2_500_000n, owner: '11111111111111111111111111111111', data: ['', 'base64'] });
    expect(notification!.context.slot).toBe(await rpc.getSlot().send());
    abort.abort();
  });

  it('sees a wager open through a program subscription filtered on the Wager discriminator', async () => {
    const abort = new AbortController();
    const program = address(localnet.manifest.programs.wager);
    const notifications = await subscriptions
      .programNotifications(program, {
        encoding: 'base64',
        filters: [{ memcmp: { offset: 0n, bytes: getBase58Decoder().decode(WAGER_DISCRIMINATOR) as never, encoding: 'base58' } }],
      })
      .subscribe({ abortSignal: abort.signal });
    const received = take(notifications, 1);
    const { wager, nonce } = await openWagerOverRpc(rpc, localnet.manifest, app, { stake: 1_500_000n });
    const [notification] = await received;
    expect(notification!.value.pubkey).toBe(wager);
    const record = getWagerDecoder().decode(getBase64Encoder().encode(notification!.value.account.data[0]));
    expect(record).toMatchObject({ nonce, stake: 1_500_000n, integratorAuthority: app.address });
    abort.abort();
  });

  it('delivers only the logs of transactions that mention the subscribed address', async () => {
    const abort = new AbortController();
    const watched = (await generateKeyPairSigner()).address;
    const notifications = await subscriptions.logsNotifications({ mentions: [watched] }).subscribe({ abortSignal: abort.signal });
    const received = take(notifications, 1);
    const payer = await fundedSigner(rpc, 1n);
    const other = await signTransfer(rpc, payer, app.address, 1_000n);
    await sendWire(rpc, other.wire);
    const mine = await signTransfer(rpc, payer, watched, 2_000_000n);
    await sendWire(rpc, mine.wire);
    const [notification] = await received;
    expect(notification!.value).toEqual({
      signature: mine.signature,
      err: null,
      logs: ['Program 11111111111111111111111111111111 invoke [1]', 'Program 11111111111111111111111111111111 success'],
    });
    abort.abort();
  });

  it('notifies a signature once it lands, with its error when it failed', async () => {
    const payer = await fundedSigner(rpc, 1n);
    const good = await signTransfer(rpc, payer, app.address, 1_000n);
    const goodAbort = new AbortController();
    const goodNotifications = await subscriptions.signatureNotifications(good.signature).subscribe({ abortSignal: goodAbort.signal });
    const goodReceived = take(goodNotifications, 1);
    await sendWire(rpc, good.wire);
    expect((await goodReceived)[0]!.value).toEqual({ err: null });
    goodAbort.abort();

    const bad = await overdraft();
    const badAbort = new AbortController();
    const badNotifications = await subscriptions.signatureNotifications(bad.signature).subscribe({ abortSignal: badAbort.signal });
    const badReceived = take(badNotifications, 1);
    await sendWire(rpc, bad.wire, true);
    expect((await badReceived)[0]!.value).toEqual({ err: { InstructionError: [0n, { Custom: 1n }] } });
    badAbort.abort();
  });

  it('stops notifying once the subscriber aborts', async () => {
    const abort = new AbortController();
    const slots = await subscriptions.slotNotifications().subscribe({ abortSignal: abort.signal });
    const iterator = slots[Symbol.asyncIterator]();
    const first = iterator.next();
    await advance(1);
    expect((await first).done).toBe(false);
    abort.abort();
    const afterAbort = iterator.next();
    await advance(2);
    expect(await afterAbort).toEqual({ done: true, value: undefined });
  });

  it('honours slotUnsubscribe on the wire: no slot arrives after the unsubscribe is acknowledged', async () => {
    const socket = new WebSocket(localnet.wsUrl);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const messages: { id?: number; result?: unknown; method?: string }[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as (typeof messages)[number]));
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' }));
    const subscription = await eventually(async () => messages.find((m) => m.id === 1)?.result as number | undefined, 2_000, 'subscribe');
    await advance(1);
    await eventually(async () => (messages.some((m) => m.method === 'slotNotification') ? true : undefined), 2_000, 'first slot');
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'slotUnsubscribe', params: [subscription] }));
    expect(await eventually(async () => messages.find((m) => m.id === 2)?.result as boolean | undefined, 2_000, 'unsubscribe')).toBe(true);
    const count = messages.filter((m) => m.method === 'slotNotification').length;
    await advance(3);
    // A ping round-trip: anything the server sent for those slots has arrived by the time the pong does.
    await new Promise<void>((resolve) => socket.once('pong', () => resolve()).ping());
    expect(messages.filter((m) => m.method === 'slotNotification')).toHaveLength(count);
    socket.close();
  });
});
