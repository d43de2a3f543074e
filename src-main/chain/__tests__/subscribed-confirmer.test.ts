/**
 * The gateway's confirmations against the localnet's real WebSocket: a transaction of the watched address
 * is confirmed from its notification (also one that landed before anyone asked), with its error and logs
 * when it failed; one the subscription says nothing about is answered by the poller after the silence.
 */
import {
  appendTransactionMessageInstructions,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSignatureConfirmer, type SignatureConfirmer } from '../signature-confirmer';
import { keeperTestbed, sendInstructions } from '../../keeper/__tests__/keeper-test-helpers';
import { createSubscribedConfirmer, type SubscribedConfirmer } from '../subscribed-confirmer';

const bed = keeperTestbed({ prefix: 'gateway-confirmer-' });

let watched: KeyPairSigner;
let confirmer: SubscribedConfirmer;
/** The real poller, counting the signatures it was asked about. */
const polled: Signature[] = [];

beforeAll(async () => {
  watched = await generateKeyPairSigner();
  bed.localnet.chain.airdrop(watched.address, 1_000_000_000n);
  const poller = createSignatureConfirmer(bed.rpc, 50);
  const counting: SignatureConfirmer = { wait: (signature, expired) => (polled.push(signature), poller.wait(signature, expired)), stop: () => poller.stop() };
  confirmer = createSubscribedConfirmer(createSolanaRpcSubscriptions(bed.localnet.wsUrl), watched.address, counting, { silenceMs: 300 });
  await confirmer.ready;
});

afterAll(() => confirmer?.stop());

const never = () => false;

it('confirms a transaction of the watched address from its notification, even one that landed before it was asked', async () => {
  // sendInstructions returns once the transaction landed: the notification came before the wait.
  const signature = await sendInstructions(bed.rpc, watched, [getTransferSolInstruction({ source: watched, destination: (await generateKeyPairSigner()).address, amount: lamports(1_000_000n) })]);
  expect(await confirmer.wait(signature, never)).toMatchObject({ landed: true, err: null, slot: expect.any(BigInt) });
  expect(polled).not.toContain(signature);
});

it('gives a failed transaction its error and logs from the notification', async () => {
  // A transfer of more than the watched key holds lands (skipPreflight) and fails; its fee is still paid.
  const { value: lifetime } = await bed.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const destination = (await generateKeyPairSigner()).address;
  const signed = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(watched, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions([getTransferSolInstruction({ source: watched, destination, amount: lamports(1_000_000_000_000n) })], m),
    ),
  );
  const signature = getSignatureFromTransaction(signed);
  await bed.rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', skipPreflight: true }).send();
  const outcome = await confirmer.wait(signature, never);
  expect(outcome).toMatchObject({ landed: true, err: expect.objectContaining({ InstructionError: expect.any(Array) }), logs: expect.arrayContaining([expect.stringMatching(/insufficient lamports/)]) });
  expect(polled).not.toContain(signature);
});

it('polls a signature the subscription says nothing about, once it stayed silent', async () => {
  // Paid by another key: the watched address is not in it, so no notification comes.
  const other = await generateKeyPairSigner();
  bed.localnet.chain.airdrop(other.address, 1_000_000_000n);
  const signature = await sendInstructions(bed.rpc, other, [getTransferSolInstruction({ source: other, destination: (await generateKeyPairSigner()).address, amount: lamports(1_000_000n) })]);
  expect(await confirmer.wait(signature, never)).toMatchObject({ landed: true, err: null });
  expect(polled).toContain(signature);
});
