/**
 * --send-rpc (issue 27) on the real localnet: each transaction goes to the read endpoint and to every
 * send endpoint. A send endpoint that refuses connections does not fail the send; one that takes the
 * transaction while the read endpoint refuses connections lands it.
 */
import { address, createSolanaRpc, type KeyPairSigner } from '@solana/kit';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { fundedSigner, signTransfer, type LocalRpc } from '../../localnet/__tests__/localnet-test-helpers';
import { connectToChain } from '../rpc-connection';

let localnet: Localnet;
let direct: LocalRpc;
let payer: KeyPairSigner;
/** A loopback port nothing listens on: connections to it are refused, as a provider's outage looks. */
let refusedUrl: string;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, manualSlots: true });
  direct = createSolanaRpc(localnet.rpcUrl);
  payer = await fundedSigner(direct);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  refusedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterAll(async () => localnet?.stop());

const recipient = address('Recipient1111111111111111111111111111111111');
const balance = async () => (await direct.getBalance(recipient, { commitment: 'processed' }).send()).value;

/** Sends `lamports` to the recipient (an amount of its own: the same transfer twice would be the same transaction). */
async function sendThrough(reads: string, sends: string[], lamports: bigint) {
  const connection = connectToChain({ reads: [{ rpcUrl: reads, wsUrl: localnet.wsUrl }], sends });
  const { wire } = await signTransfer(direct, payer, recipient, lamports);
  const signature = await connection.rpc.sendTransaction(wire, { encoding: 'base64' }).send();
  return { signature, connection };
}

const until = async <T>(what: string, read: () => T | undefined, ms = 10_000): Promise<T> => {
  for (
    const deadline = Date.now() + ms;
    Date.now() < deadline;
    await new Promise((resolve) => setTimeout(resolve, 50))
  ) {
    const value = read();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('sending through --send-rpc endpoints', () => {
  it('a send endpoint that refuses connections does not fail the send: the read endpoint lands it', async () => {
    const before = await balance();
    const { signature, connection } = await sendThrough(localnet.rpcUrl, [refusedUrl], 1_000_000n);
    const [status] = (await direct.getSignatureStatuses([signature]).send()).value;
    expect(status?.err).toBeNull();
    expect(await balance()).toBe(before + 1_000_000n);
    // The send endpoint's failure is noted (Settings → RPC shows it), not passed on.
    const sendEndpoint = await until('the send endpoint set aside', () =>
      connection.endpoints().find((e) => e.role === 'send' && e.state === 'set-aside'),
    );
    expect(sendEndpoint).toMatchObject({ label: refusedUrl, reason: 'connection refused' });
    connection.close();
  });

  it('a send endpoint that takes the transaction while the read endpoint refuses connections lands it', async () => {
    const before = await balance();
    const { signature, connection } = await sendThrough(refusedUrl, [localnet.rpcUrl], 1_000_001n);
    const endpoints = connection.endpoints();
    connection.close();
    const [status] = (await direct.getSignatureStatuses([signature]).send()).value;
    expect(status?.err).toBeNull();
    expect(await balance()).toBe(before + 1_000_001n);
    expect(endpoints.find((e) => e.role === 'read')).toMatchObject({
      state: 'set-aside',
      reason: 'connection refused',
    });
    expect(endpoints.find((e) => e.role === 'send')).toMatchObject({ state: 'healthy', errorRate: 0 });
  });
});
