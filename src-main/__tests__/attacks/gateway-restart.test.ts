/**
 * Losing a paid wager without a trace (issue 33, item 3). The gateway used to broadcast the payment and
 * wait for its confirmation before it wrote anything: a restart in that window, or a confirmation never
 * seen, left the USDC taken, no row, no wager, no refund, and the caller told "no wager was opened".
 * Now a pending row (the signed payment, its signature, the order) is written before the broadcast:
 * - `wager-keeper gateway` SIGKILLed right after it broadcast a payment (its fault switch) opens that wager
 *   when started again on the same file;
 * - a payment whose confirmation is not seen answers 202 with its signature and wager, and GET
 *   /wager/ADDRESS follows it to `opened` (it landed) or `dropped` (it never did: no USDC moved).
 * One localnet for the file.
 */
import { generateKeyPairSigner, type Address, type KeyPairSigner } from '@solana/kit';
import { wrapFetchWithPayment } from '@x402/fetch';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenPublicApi, type PublicApiServer } from '../../api/public-api';
import { startGateway, type Gateway } from '../../gateway/gateway';
import { paymentsIn, startGatewayProcess } from '../../gateway/__tests__/gateway-process';
import { localnetX402Client } from '../../gateway/localnet-payer';
import { giveUsdc, keeperTestbed, usdcAccountOf, waitFor } from '../../keeper/__tests__/keeper-test-helpers';
import { getWagerDecoder } from '../../protocol/wager';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';

const bed = keeperTestbed({ prefix: 'attack-gateway-restart-' });
const USDC = 1_000_000n;
/** The gateway's fault switch (docs/gateway.md), read by the in-process gateway at each payment. */
const faultSwitch = {
  set: (fault: string) => (process.env.WAGER_KEEPER_GATEWAY_FAULT = fault),
  clear: () => void Reflect.deleteProperty(process.env, 'WAGER_KEEPER_GATEWAY_FAULT'),
};

const usdcOf = async (owner: Address) => BigInt((await bed.rpc.getTokenAccountBalance(await usdcAccountOf(bed.parts.mint, owner), { commitment: 'confirmed' }).send()).value.amount);
const wagerStake = async (wager: Address) => {
  const { value } = await bed.rpc.getAccountInfo(wager, { encoding: 'base64', commitment: 'confirmed' }).send();
  return value ? getWagerDecoder().decode(Buffer.from(value.data[0], 'base64')).stake : null;
};

async function fundedPayer(): Promise<{ signer: KeyPairSigner; pay: typeof fetch }> {
  const signer = await generateKeyPairSigner();
  await giveUsdc(bed.rpc, bed.parts, signer.address, 10n * USDC);
  const client = localnetX402Client({ signer, rpcUrl: bed.localnet.rpcUrl, network: bed.localnet.manifest.network, usdcMint: bed.localnet.manifest.usdcMint });
  return { signer, pay: wrapFetchWithPayment(fetch, client) };
}

const order = (amount: string, beneficiary: Address) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paytable: 'coin-flip', amount, beneficiary }) });

describe('the gateway killed right after it broadcast a payment', () => {
  it('opens that wager when started again on the same file', async () => {
    const key = await generateKeypairWithBytes();
    const keyFile = bed.dir.path('restart-key.json');
    await writeFile(keyFile, JSON.stringify(Array.from(key.secretKey)));
    bed.localnet.chain.airdrop(key.signer.address, 10_000_000_000n);
    await giveUsdc(bed.rpc, bed.parts, key.signer.address, 100n * USDC);
    const db = bed.dir.path('restart.db');

    const crashing = await startGatewayProcess(bed.localnet.rpcUrl, keyFile, db, { WAGER_KEEPER_GATEWAY_FAULT: 'crash-after-broadcast' });
    const { signer: payer, pay } = await fundedPayer();
    const exited = once(crashing.child, 'exit');
    const answer = await pay(`${crashing.ready.gateway}/wager`, order('2.00', payer.address)).catch((error: Error) => error);
    expect(answer).toBeInstanceOf(Error); // the connection died with the process
    expect(await exited).toEqual([null, 'SIGKILL']);

    // Broadcast and landed (the USDC moved), recorded pending before the broadcast; no wager yet.
    const [pending] = paymentsIn(db);
    expect(pending).toMatchObject({ state: 'pending', payer: payer.address, amount: '2000000', settlement: expect.any(String) });
    expect(await usdcOf(payer.address)).toBe(8n * USDC);
    expect(await wagerStake(pending!.wager as Address)).toBeNull();

    // Started again: the pending payment is resolved by its signature's status before the ready line.
    const restarted = await startGatewayProcess(bed.localnet.rpcUrl, keyFile, db);
    try {
      expect(paymentsIn(db)).toEqual([expect.objectContaining({ state: 'opened', wager: pending!.wager, settlement: pending!.settlement })]);
      expect(await wagerStake(pending!.wager as Address)).toBe(2n * USDC);
      expect(await usdcOf(payer.address)).toBe(8n * USDC); // paid once
      const shown = (await (await fetch(`${restarted.ready.gateway}/wager/${pending!.wager}`)).json()) as { payment: { state: string } };
      expect(shown.payment.state).toBe('opened');
    } finally {
      restarted.child.kill('SIGTERM');
      await once(restarted.child, 'exit');
    }
  });
});

describe('a payment whose confirmation is not seen', () => {
  let gateway: Gateway;
  let server: PublicApiServer;

  beforeAll(async () => {
    const key = await generateKeyPairSigner();
    bed.localnet.chain.airdrop(key.address, 10_000_000_000n);
    await giveUsdc(bed.rpc, bed.parts, key.address, 100n * USDC);
    gateway = await startGateway({
      rpcUrl: bed.localnet.rpcUrl,
      wsUrl: bed.localnet.wsUrl,
      signer: key,
      dbPath: bed.dir.path('pending.db'),
      deployment: bed.localnet.manifest,
      paytables: ['coin-flip'],
      limits: { minStake: 100_000n, maxStake: 100n * USDC, fee: 0n },
      keeper: { submit: async () => undefined, lookup: async () => null },
      recoveryIntervalMs: 100,
      paymentConfirmMs: 500, // a lost broadcast waits for its confirmation this long (twice), not 2 x 15 s
    });
    server = await listenPublicApi(gateway.app, { port: 0 });
  }, 60_000);
  afterAll(async () => {
    faultSwitch.clear();
    await server?.close();
    await gateway?.stop();
  });

  /** Pays with the fault switch on (for this request only); returns the 202's body. */
  async function paidUnconfirmed(fault: string, amount: string, payer: Awaited<ReturnType<typeof fundedPayer>>) {
    faultSwitch.set(fault);
    let response: Response;
    try {
      response = await payer.pay(`${server.url}/wager`, order(amount, payer.signer.address));
    } finally {
      faultSwitch.clear();
    }
    const body = (await response.json()) as { wager: string; settlement: string; state: string; message: string; error?: string };
    expect(response.status).toBe(202);
    expect(body).toMatchObject({ wager: expect.any(String), settlement: expect.any(String), state: 'pending' });
    expect(body.message).toMatch(/opens once it lands/);
    expect(JSON.stringify(body)).not.toMatch(/no wager was opened/);
    return body;
  }

  const stateOf = async (wager: string) => ((await (await fetch(`${server.url}/wager/${wager}`)).json()) as { payment: { state: string; error: string | null } }).payment;

  it('answers 202 with its signature and wager; it landed, so GET /wager/ADDRESS goes pending → opened', async () => {
    const payer = await fundedPayer();
    const { wager } = await paidUnconfirmed('unconfirmed-payment', '1.00', payer);
    // The resolver (every 100 ms here) reads the signature's status: landed, so the wager is opened.
    await waitFor(async () => ((await stateOf(wager)).state === 'opened' ? true : undefined), 15_000, 'the pending payment resolved to opened');
    expect(await wagerStake(wager as Address)).toBe(USDC);
    expect(await usdcOf(payer.signer.address)).toBe(9n * USDC);
  });

  it('answers 202; it never landed, so once its blockhash expired GET /wager/ADDRESS says dropped and no USDC moved', async () => {
    const payer = await fundedPayer();
    const { wager } = await paidUnconfirmed('lost-broadcast', '1.00', payer);
    expect((await stateOf(wager)).state).toBe('pending');
    bed.localnet.chain.advanceSlots(200); // past the payment's blockhash
    await waitFor(async () => ((await stateOf(wager)).state === 'dropped' ? true : undefined), 15_000, 'the pending payment resolved to dropped');
    expect((await stateOf(wager)).error).toMatch(/never landed .*no USDC moved/);
    expect(await usdcOf(payer.signer.address)).toBe(10n * USDC);
    expect(await wagerStake(wager as Address)).toBeNull();
  });
});
