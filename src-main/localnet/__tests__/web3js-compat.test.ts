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
