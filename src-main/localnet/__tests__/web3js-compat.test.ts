/**
 * The localnet through @solana/web3.js 1.x, a library nobody here wrote, used as its users use it:
 * airdrops confirmed and read back as transactions, epochs from getEpochInfo matching the schedule's own
 * arithmetic, a resent transaction with and without preflight, and a signature subscription.
 */
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction, sendAndConfirmTransaction } from '@solana/web3.js';
import { getBase58Decoder } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnet, type Localnet } from '../localnet';

let localnet: Localnet;
let connection: Connection;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, slotMs: 100 });
  connection = new Connection(localnet.rpcUrl, { commitment: 'confirmed', wsEndpoint: localnet.wsUrl });
});
afterAll(async () => {
  await localnet.stop();
});

async function fundedKeypair(sol = 2) {
  const keypair = Keypair.generate();
  const signature = await connection.requestAirdrop(keypair.publicKey, sol * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
  return { keypair, airdrop: signature };
}

describe('@solana/web3.js 1.x against the localnet', () => {
  it('confirms an airdrop and reads it back with getTransaction (a System transfer from the faucet)', async () => {
    const { keypair, airdrop } = await fundedKeypair(3);
    expect(await connection.getBalance(keypair.publicKey)).toBe(3 * LAMPORTS_PER_SOL);
    const transaction = await connection.getTransaction(airdrop, { maxSupportedTransactionVersion: 0 });
    expect(transaction).not.toBeNull();
    expect(transaction!.meta!.err).toBeNull();
    const keys = transaction!.transaction.message.getAccountKeys().staticAccountKeys.map((key) => key.toBase58());
    expect(keys).toEqual([expect.any(String), keypair.publicKey.toBase58(), SystemProgram.programId.toBase58()]);
  });

  it('tells the epoch the way the epoch schedule computes it', async () => {
    const [info, schedule] = await Promise.all([connection.getEpochInfo(), connection.getEpochSchedule()]);
    expect(info.epoch).toBe(schedule.getEpoch(info.absoluteSlot));
    expect(info.slotIndex).toBe(info.absoluteSlot - schedule.getFirstSlotInEpoch(info.epoch));
    expect(info.slotsInEpoch).toBe(schedule.getSlotsInEpoch(info.epoch));
  });

  it('answers a resent transaction as a validator does: refused with preflight, its signature without', async () => {
    const { keypair } = await fundedKeypair();
    const transaction = new Transaction().add(SystemProgram.transfer({ fromPubkey: keypair.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }));
    const signature = await sendAndConfirmTransaction(connection, transaction, [keypair]);
    const wire = transaction.serialize();
    await expect(connection.sendRawTransaction(wire)).rejects.toThrow(/already been processed/);
    expect(await connection.sendRawTransaction(wire, { skipPreflight: true })).toBe(signature);
    expect(await connection.getBalance(keypair.publicKey)).toBe(2 * LAMPORTS_PER_SOL - 1_000_000 - 5_000);
  });

  it('notifies a signature subscription when the transaction lands', async () => {
    const { keypair } = await fundedKeypair();
    const { blockhash } = await connection.getLatestBlockhash();
    const transaction = new Transaction({ feePayer: keypair.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: keypair.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 5_000_000 }),
    );
    transaction.sign(keypair);
    const notified = new Promise<unknown>((resolve) => connection.onSignature(getBase58Decoder().decode(transaction.signatures[0]!.signature!), (result) => resolve(result.err), 'confirmed'));
    await connection.sendRawTransaction(transaction.serialize());
    expect(await notified).toBeNull();
  });
});

describe('jsonParsed, as web3.js getParsedTransaction reads it', () => {
  it('parses System, Associated Token Account, SPL Token and Memo instructions as Agave does, Compute Budget partially decoded, and the CPIs too', async () => {
    const { createSolanaRpc, address, appendTransactionMessageInstructions, createTransactionMessage, pipe, setTransactionMessageFeePayerSigner, setTransactionMessageLifetimeUsingBlockhash, signTransactionMessageWithSigners, getBase64EncodedWireTransaction, getSignatureFromTransaction, generateKeyPairSigner } = await import('@solana/kit');
    const { getTransferSolInstruction } = await import('@solana-program/system');
    const { getSetComputeUnitLimitInstruction } = await import('@solana-program/compute-budget');
    const { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstructionAsync, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } = await import('@solana-program/token');
    const { keypairFromBytes } = await import('../../secrets/keypair-bytes');
    const rpc = createSolanaRpc(localnet.rpcUrl);
    const app = await keypairFromBytes(localnet.manifest.devKeys.app.keypair);
    const mint = address(localnet.manifest.usdcMint);
    const wallet = (await generateKeyPairSigner()).address;
    const [source] = await findAssociatedTokenPda({ mint, owner: app.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const [destination] = await findAssociatedTokenPda({ mint, owner: wallet, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const memo = { programAddress: address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'), accounts: [], data: new TextEncoder().encode('gm from the localnet') };
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const create = await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: app, mint, owner: wallet });
    const full = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(app, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
        (m) =>
          appendTransactionMessageInstructions(
            [
              getSetComputeUnitLimitInstruction({ units: 200_000 }),
              getTransferSolInstruction({ source: app, destination: wallet, amount: 1_000_000n }),
              create,
              getTransferCheckedInstruction({ source, mint, destination, authority: app, amount: 2_500_000n, decimals: 6 }),
              memo,
            ],
            m,
          ),
      ),
    );
    const wire = getBase64EncodedWireTransaction(full);

    // simulateTransaction with innerInstructions: the ATA program's CPIs, parsed.
    const simulated = (await (await fetch(localnet.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'simulateTransaction', params: [wire, { encoding: 'base64', innerInstructions: true }] }),
    })).json()) as { result: { value: { err: unknown; innerInstructions: { index: number; instructions: { parsed?: { type: string } }[] }[] } } };
    expect(simulated.result.value.err).toBeNull();
    const cpis = simulated.result.value.innerInstructions.find((inner) => inner.index === 2)!.instructions.map((ix) => ix.parsed?.type);
    expect(cpis).toEqual(['getAccountDataSize', 'createAccount', 'initializeImmutableOwner', 'initializeAccount3']);

    await rpc.sendTransaction(wire, { encoding: 'base64' }).send();
    const signature = getSignatureFromTransaction(full);
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(parsed).not.toBeNull();
    const keys = parsed!.transaction.message.accountKeys;
    expect(keys[0]).toMatchObject({ signer: true, writable: true, source: 'transaction' });
    expect(keys[0]!.pubkey.toBase58()).toBe(app.address);
    const instructions = parsed!.transaction.message.instructions as unknown as Record<string, unknown>[];
    // Compute Budget: Agave does not parse it.
    expect(instructions[0]).toMatchObject({ data: expect.any(String), accounts: [] });
    expect(instructions[0]!.programId!.toString()).toBe('ComputeBudget111111111111111111111111111111');
    expect(instructions[1]).toMatchObject({ program: 'system', parsed: { type: 'transfer', info: { source: app.address, destination: wallet, lamports: 1_000_000 } } });
    expect(instructions[2]).toMatchObject({
      program: 'spl-associated-token-account',
      parsed: { type: 'createIdempotent', info: { source: app.address, account: destination, wallet, mint, systemProgram: '11111111111111111111111111111111', tokenProgram: TOKEN_PROGRAM_ADDRESS } },
    });
    expect(instructions[3]).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'transferChecked', info: { source, mint, destination, authority: app.address, tokenAmount: { amount: '2500000', decimals: 6, uiAmount: 2.5, uiAmountString: '2.5' } } },
    });
    expect(instructions[4]).toMatchObject({ program: 'spl-memo', parsed: 'gm from the localnet' });
    const inner = parsed!.meta!.innerInstructions!.find((entry) => entry.index === 2)!.instructions as unknown as { parsed: { type: string; info: Record<string, unknown> } }[];
    expect(inner.map((ix) => ix.parsed.type)).toEqual(['getAccountDataSize', 'createAccount', 'initializeImmutableOwner', 'initializeAccount3']);
    expect(inner[0]!.parsed.info).toEqual({ mint, extensionTypes: ['immutableOwner'] });
    expect(inner[3]!.parsed.info).toEqual({ account: destination, mint, owner: wallet });
  });
});

describe('@solana/spl-token 0.4 against the localnet', () => {
  it('creates a mint and token accounts, mints and transfers, and reads them back (also jsonParsed)', async () => {
    const { createMint, getAccount, getMint, getOrCreateAssociatedTokenAccount, mintTo, transfer } = await import('@solana/spl-token');
    const { keypair: payer } = await fundedKeypair(5);
    const mint = await createMint(connection, payer, payer.publicKey, null, 6);
    const mine = await getOrCreateAssociatedTokenAccount(connection, payer, mint, payer.publicKey);
    const friend = Keypair.generate().publicKey;
    const theirs = await getOrCreateAssociatedTokenAccount(connection, payer, mint, friend);
    await mintTo(connection, payer, mint, mine.address, payer, 10_000_000n);
    const sent = await transfer(connection, payer, mine.address, theirs.address, payer, 2_500_000n);

    expect((await getAccount(connection, theirs.address)).amount).toBe(2_500_000n);
    expect((await getAccount(connection, mine.address)).amount).toBe(7_500_000n);
    expect((await getMint(connection, mint)).supply).toBe(10_000_000n);
    const account = await connection.getParsedAccountInfo(theirs.address);
    expect(account.value!.data).toMatchObject({ program: 'spl-token', parsed: { type: 'account', info: { owner: friend.toBase58(), tokenAmount: { amount: '2500000', uiAmountString: '2.5' } } } });
    const transaction = await connection.getParsedTransaction(sent, { maxSupportedTransactionVersion: 0 });
    expect(transaction!.transaction.message.instructions[0]).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'transfer', info: { source: mine.address.toBase58(), destination: theirs.address.toBase58(), amount: '2500000', authority: payer.publicKey.toBase58() } },
    });
  });
});
