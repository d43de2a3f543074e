/**
 * The keeper's sender as send-path.ts configures it (issue 19: about 2 RPC calls per wager), against the
 * localnet's real RPC and WebSocket: transactions share one blockhash, and a crank with a fixed
 * compute-unit limit is checked by its send's preflight instead of a simulation, with nothing lost: a
 * refusal still names the program's error with its logs and costs no fee, a limit found too small still
 * lands (measured by a simulation then), the same instructions sent twice are two transactions, and a
 * landed transaction comes back with its logs (the settlement's outcome is read from them).
 */
import { generateKeyPairSigner, lamports, type KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignatureConfirmer } from '../../chain/signature-confirmer';
import { createTransactionSender, TransactionFailedError, type TransactionSender } from '../../chain/transaction-sender';
import { createSubscribedConfirmer } from '../../chain/subscribed-confirmer';
import { BLOCKHASH_MAX_AGE_MS } from '../send-path';
import { keeperTestbed } from './keeper-test-helpers';

const bed = keeperTestbed({ prefix: 'keeper-send-economies-' });

let payer: KeyPairSigner;
let sender: TransactionSender;
let stopConfirmer: () => void;
/** JSON-RPC methods the sender called, counted by wrapping the RPC's send. */
const calls: string[] = [];

beforeAll(async () => {
  payer = await generateKeyPairSigner();
  bed.localnet.chain.airdrop(payer.address, 1_000_000_000n);
  const rpc = new Proxy(bed.rpc, {
    get(target, method: string) {
      const call = (target as unknown as Record<string, (...args: unknown[]) => unknown>)[method]!;
      return (...args: unknown[]) => {
        calls.push(method);
        return call.apply(target, args);
      };
    },
  });
  const confirmer = createSubscribedConfirmer(bed.parts.connection.subscriptions, payer.address, createSignatureConfirmer(bed.rpc));
  await confirmer.ready;
  stopConfirmer = () => confirmer.stop();
  sender = createTransactionSender({ rpc, confirmer, payer, blockhashMaxAgeMs: BLOCKHASH_MAX_AGE_MS, resendBackoff: true });
});
afterAll(() => stopConfirmer());

const balance = async (who: string) => (await bed.rpc.getBalance(who as KeyPairSigner['address'], { commitment: 'confirmed' }).send()).value;
const transfer = (to: KeyPairSigner['address'], amount: bigint) => getTransferSolInstruction({ source: payer, destination: to, amount: lamports(amount) });

describe("the keeper's sender", () => {
  it('sends the same instructions twice as two transactions, on one blockhash, without a simulation; each lands with its logs', async () => {
    const to = (await generateKeyPairSigner()).address;
    calls.length = 0;
    const first = await sender.send([transfer(to, 1_000_000n)], { unitLimit: 1_000 });
    const second = await sender.send([transfer(to, 1_000_000n)], { unitLimit: 1_000 });
    expect(second.signature).not.toBe(first.signature);
    expect(await balance(to)).toBe(2_000_000n);
    expect(first.logs).toEqual(expect.arrayContaining([expect.stringMatching(/^Program 11111111111111111111111111111111 success$/)]));
    expect(first.feeLamports).toBe(5_000n);
    expect(calls).not.toContain('simulateTransaction');
    expect(calls).not.toContain('getTransaction');
    expect(calls.filter((m) => m === 'sendTransaction')).toHaveLength(2);
    expect(calls.filter((m) => m === 'getLatestBlockhash').length).toBeLessThanOrEqual(2);
  });

  it("reports a program's refusal at preflight as before (its error code and logs) and pays nothing for it", async () => {
    const to = (await generateKeyPairSigner()).address;
    const before = await balance(payer.address);
    const refusal = await sender.send([transfer(to, 10_000_000_000n)], { unitLimit: 1_000 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TransactionFailedError);
    expect(refusal).toMatchObject({ stage: 'simulation', customCode: 1, failingProgram: '11111111111111111111111111111111' });
    expect((refusal as TransactionFailedError).logs).toEqual(expect.arrayContaining([expect.stringMatching(/insufficient lamports/)]));
    expect(await balance(payer.address)).toBe(before);
  });

  it('still lands a transaction whose fixed compute-unit limit is too small: simulated then, sent with the measured units', async () => {
    const to = (await generateKeyPairSigner()).address;
    calls.length = 0;
    const sent = await sender.send([transfer(to, 1_000_000n)], { unitLimit: 10 });
    expect(await balance(to)).toBe(1_000_000n);
    expect(calls).toContain('simulateTransaction');
    expect(sent.unitsConsumed).toBeGreaterThan(0n);
  });
});
