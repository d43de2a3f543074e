/**
 * Exactly once across a crash: `wager-keeper gateway` is killed (SIGKILL, by its fault switch) right after
 * a payment settled and was recorded, before the wager is opened. Restarted on the same file, it opens
 * that wager, or, when the wager can no longer be opened (here: the config was paused meanwhile), refunds
 * the payment to its payer; in both cases once, and the record says which.
 */
import { generateKeyPairSigner, type Address } from '@solana/kit';
import { wrapFetchWithPayment } from '@x402/fetch';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { giveUsdc, keeperTestbed, sendInstructions, usdcAccountOf } from '../../keeper/__tests__/keeper-test-helpers';
import { getSetPausedInstructionAsync, getWagerDecoder } from '../../protocol/wager';
import { generateKeypairWithBytes, keypairFromBytes } from '../../secrets/keypair-bytes';
import { localnetX402Client } from '../localnet-payer';
import { paymentsIn, startGatewayProcess as startChild } from './gateway-process';

const bed = keeperTestbed({ prefix: 'gateway-crash-' });
const USDC = 1_000_000n;

const fundUsdc = (owner: Address, amount: bigint) => giveUsdc(bed.rpc, bed.parts, owner, amount);

async function usdcBalance(owner: Address): Promise<bigint> {
  const { value } = await bed.rpc.getTokenAccountBalance(await usdcAccountOf(bed.parts.mint, owner), { commitment: 'confirmed' }).send();
  return BigInt(value.amount);
}

/** `wager-keeper gateway` on the testbed's localnet; resolves with its ready line. */
const startGatewayProcess = (keyFile: string, db: string, env: NodeJS.ProcessEnv = {}) => startChild(bed.localnet.rpcUrl, keyFile, db, env);

async function paidThenKilled(name: string) {
  const key = await generateKeypairWithBytes();
  const keyFile = bed.dir.path(`${name}-key.json`);
  await writeFile(keyFile, JSON.stringify(Array.from(key.secretKey)));
  bed.localnet.chain.airdrop(key.signer.address, 10_000_000_000n);
  await fundUsdc(key.signer.address, 100n * USDC);
  const db = bed.dir.path(`${name}.db`);

  const crashing = await startGatewayProcess(keyFile, db, { WAGER_KEEPER_GATEWAY_FAULT: 'crash-after-payment' });
  const payer = await generateKeyPairSigner();
  await fundUsdc(payer.address, 10n * USDC);
  const pay = wrapFetchWithPayment(fetch, localnetX402Client({ signer: payer, rpcUrl: bed.localnet.rpcUrl, network: bed.localnet.manifest.network, usdcMint: bed.localnet.manifest.usdcMint }));
  const exited = once(crashing.child, 'exit');
  const answer = await pay(`${crashing.ready.gateway}/wager`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paytable: 'coin-flip', amount: '2.00', beneficiary: (await generateKeyPairSigner()).address }),
  }).catch((error: Error) => error);
  expect(answer).toBeInstanceOf(Error); // the connection died with the process
  expect(await exited).toEqual([null, 'SIGKILL']);

  // Paid and recorded, not opened: the money moved, the wager does not exist.
  const [paid] = paymentsIn(db);
  expect(paid).toMatchObject({ state: 'paid', payer: payer.address, amount: '2000000' });
  expect(await usdcBalance(payer.address)).toBe(8n * USDC);
  expect((await bed.rpc.getAccountInfo(paid!.wager as Address, { encoding: 'base64' }).send()).value).toBeNull();
  return { keyFile, db, payer, wager: paid!.wager as Address };
}

describe('the gateway killed between the payment and the wager', () => {
  it('opens that wager once on restart', async () => {
    const { keyFile, db, payer, wager } = await paidThenKilled('reopen');
    const restarted = await startGatewayProcess(keyFile, db);
    try {
      expect(paymentsIn(db)).toEqual([expect.objectContaining({ state: 'opened', wager })]);
      const { value } = await bed.rpc.getAccountInfo(wager, { encoding: 'base64', commitment: 'confirmed' }).send();
      const opened = getWagerDecoder().decode(Buffer.from(value!.data[0], 'base64'));
      expect(opened.stake).toBe(2n * USDC);
      expect(await usdcBalance(payer.address)).toBe(8n * USDC); // paid once, not refunded
      const shown = (await (await fetch(`${restarted.ready.gateway}/wager/${wager}`)).json()) as { payment: { state: string } };
      expect(shown.payment.state).toBe('opened');
    } finally {
      restarted.child.kill('SIGTERM');
      await once(restarted.child, 'exit');
    }
    // A second restart has nothing left to do: still one wager, one payment.
    const again = await startGatewayProcess(keyFile, db);
    again.child.kill('SIGTERM');
    await once(again.child, 'exit');
    expect(paymentsIn(db)).toEqual([expect.objectContaining({ state: 'opened', wager })]);
  });

  it('refunds the payer once when the wager can no longer be opened (the config was paused meanwhile)', async () => {
    const { keyFile, db, payer, wager } = await paidThenKilled('refund');
    const guardian = await keypairFromBytes(bed.localnet.manifest.devKeys.guardian.keypair);
    await sendInstructions(bed.rpc, guardian, [await getSetPausedInstructionAsync({ guardian, paused: 1 }, { programAddress: bed.parts.program })]);
    try {
      const restarted = await startGatewayProcess(keyFile, db);
      restarted.child.kill('SIGTERM');
      await once(restarted.child, 'exit');
    } finally {
      await sendInstructions(bed.rpc, guardian, [await getSetPausedInstructionAsync({ guardian, paused: 0 }, { programAddress: bed.parts.program })]);
    }
    expect(paymentsIn(db)).toEqual([expect.objectContaining({ state: 'refunded', wager, refund_signature: expect.any(String) })]);
    expect(await usdcBalance(payer.address)).toBe(10n * USDC);
    expect((await bed.rpc.getAccountInfo(wager, { encoding: 'base64' }).send()).value).toBeNull();
  });
});
