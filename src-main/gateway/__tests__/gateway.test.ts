/**
 * The x402 gateway against the in-process localnet and a real keeper, paid the way a caller would pay:
 * @x402/fetch's `wrapFetchWithPayment` with a kit signer. Every payment is a real USDC transfer settled
 * on the localnet; every wager a real open_wager the keeper then settles.
 */
import { address, generateKeyPairSigner, getBase64Encoder, type Address, type KeyPairSigner } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  TOKEN_PROGRAM_ADDRESS,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  getTokenDecoder,
} from '@solana-program/token';
import { x402Client } from '@x402/core/client';
import type { Network, PaymentRequirements, SchemeNetworkClient } from '@x402/core/types';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { wrapFetchWithPayment } from '@x402/fetch';
import { request as httpRequest } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listenPublicApi, type PublicApiServer } from '../../api/public-api';
import { giveUsdc, keeperTestbed, sendInstructions, usdcAccountOf, waitFor } from '../../keeper/__tests__/keeper-test-helpers';
import type { Keeper } from '../../keeper/keeper';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import { getSetPausedInstructionAsync } from '../../protocol/wager';
import { inProcessKeeper, startGateway, type Gateway } from '../gateway';
import { localnetExactScheme, localnetX402Client } from '../localnet-payer';

const bed = keeperTestbed({ prefix: 'gateway-test-' });
const USDC = 1_000_000n;

let keeper: Keeper;
let gatewayKey: KeyPairSigner;
const running: { gateway: Gateway; server: PublicApiServer }[] = [];

async function usdcBalance(account: Address): Promise<bigint> {
  const { value } = await bed.rpc.getAccountInfo(account, { encoding: 'base64', commitment: 'confirmed' }).send();
  return value ? getTokenDecoder().decode(getBase64Encoder().encode(value.data[0])).amount : 0n;
}

const fundUsdc = (owner: Address, amount: bigint) => giveUsdc(bed.rpc, bed.parts, owner, amount);

async function runGateway(options: { dbName?: string; fee?: bigint; wsUrl?: string } = {}): Promise<{ gateway: Gateway; url: string }> {
  const gateway = await startGateway({
    rpcUrl: bed.localnet.rpcUrl,
    wsUrl: options.wsUrl ?? bed.localnet.wsUrl,
    signer: gatewayKey,
    dbPath: bed.dir.path(options.dbName ?? 'gateway.db'),
    deployment: bed.localnet.manifest,
    paytables: ['coin-flip', 'wheel'],
    limits: { minStake: 10_000n, maxStake: 5_000n * USDC, fee: options.fee ?? 0n },
    keeper: inProcessKeeper(keeper),
  });
  const server = await listenPublicApi(gateway.app, { port: 0 });
  running.push({ gateway, server });
  return { gateway, url: server.url };
}

/** A caller with test USDC (and no SOL: the gateway pays the payment's fee) and its paying fetch. */
async function caller(usdc = 100n * USDC) {
  const signer = await generateKeyPairSigner();
  await fundUsdc(signer.address, usdc);
  const client = localnetX402Client({ signer, rpcUrl: bed.localnet.rpcUrl, network: bed.localnet.manifest.network, usdcMint: bed.localnet.manifest.usdcMint });
  const sent: Headers[] = [];
  const recording: typeof fetch = async (input, init) => {
    // Duck-typed: the library builds its Request with the global class, which `instanceof` may not see as this realm's.
    const headers = new Headers(typeof input === 'object' && 'headers' in input ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
    sent.push(headers);
    return fetch(input, init);
  };
  return { signer, usdc: await usdcAccountOf(bed.parts.mint, signer.address), pay: wrapFetchWithPayment(recording, client), sent };
}

const order = (body: Record<string, unknown>) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

let keepers = 0;
beforeEach(async () => {
  // The testbed stops its keepers after each test: each test gets its own.
  ({ keeper } = await bed.keeper(`gateway-keeper-${++keepers}`));
});

beforeAll(async () => {
  gatewayKey = await generateKeyPairSigner();
  bed.localnet.chain.airdrop(gatewayKey.address, 10_000_000_000n);
  await fundUsdc(gatewayKey.address, 2_000n * USDC);
}, 60_000);

afterEach(async () => {
  for (const { gateway, server } of running.splice(0)) {
    await server.close();
    await gateway.stop();
  }
});

describe('the x402 gateway', () => {
  it('answers 402 with x402 v2 PAYMENT-REQUIRED naming the stake in test USDC to the gateway, settled upfront', async () => {
    const { url } = await runGateway({ fee: 50_000n });
    const beneficiary = await generateKeyPairSigner();
    const response = await fetch(`${url}/wager`, order({ paytable: 'coin-flip', amount: '1.00', beneficiary: beneficiary.address }));
    expect(response.status).toBe(402);
    expect(((await response.json()) as { error: string }).error).toMatch(/^payment required: 1\.05 USDC/);
    const required = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
    expect(required.x402Version).toBe(2);
    expect(required.resource).toMatchObject({ url: `${url}/wager` });
    expect(required.accepts).toEqual([
      expect.objectContaining({
        scheme: 'exact',
        network: bed.localnet.manifest.network,
        amount: '1050000',
        asset: bed.localnet.manifest.usdcMint,
        payTo: gatewayKey.address,
        extra: expect.objectContaining({ feePayer: gatewayKey.address, paymentFlow: 'upfront' }),
      }),
    ]);
  });

  it('takes one paid request: 201 { wager } with PAYMENT-RESPONSE; the keeper settles it and the beneficiary gets the payout', async () => {
    const { url } = await runGateway();
    const payer = await caller();
    const beneficiary = await generateKeyPairSigner();
    const gatewayUsdc = await usdcAccountOf(bed.parts.mint, gatewayKey.address);
    const before = { payer: await usdcBalance(payer.usdc), gateway: await usdcBalance(gatewayUsdc) };

    const response = await payer.pay(`${url}/wager`, order({ paytable: 'coin-flip', amount: '2.50', beneficiary: beneficiary.address }));
    expect(response.status).toBe(201);
    const { wager } = (await response.json()) as { wager: string };
    const settlement = decodePaymentResponseHeader(response.headers.get('payment-response')!);
    expect(settlement).toMatchObject({ success: true, payer: payer.signer.address, network: bed.localnet.manifest.network });
    expect(await usdcBalance(payer.usdc)).toBe(before.payer - 2_500_000n);

    const record = await waitFor(async () => {
      const r = await keeper.lookupWager(address(wager));
      return r.state === 'settled' ? r : undefined;
    }, 30_000, 'the settlement');
    const payout = BigInt((record as { payout: string }).payout);
    expect(await usdcBalance(await usdcAccountOf(bed.parts.mint, beneficiary.address))).toBe(payout);
    // The gateway got the payment and staked the same amount: its USDC is unchanged.
    expect(await usdcBalance(gatewayUsdc)).toBe(before.gateway);

    const stored = (await (await fetch(`${url}/wager/${wager}`)).json()) as { payment: Record<string, unknown>; keeper: Record<string, unknown> };
    expect(stored.payment).toMatchObject({ settlement: settlement.transaction, payer: payer.signer.address, amount: '2.50', state: 'opened', paytable: 'coin-flip' });
    expect(stored.keeper).toMatchObject({ state: 'settled' });
  });

  it('still confirms, by polling, when its WebSocket cannot be reached', async () => {
    // A port that was free a moment ago: nothing answers there.
    const probe = createNetServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { url } = await runGateway({ wsUrl: `ws://127.0.0.1:${port}` });
    const payer = await caller();
    const response = await payer.pay(`${url}/wager`, order({ paytable: 'coin-flip', amount: '1.00', beneficiary: (await generateKeyPairSigner()).address }));
    expect(response.status).toBe(201);
    const { wager } = (await response.json()) as { wager: string };
    expect(((await (await fetch(`${url}/wager/${wager}`)).json()) as { payment: { state: string } }).payment.state).toBe('opened');
  });

  it('refuses before payment, with no money moved: unknown paytable, bad amount, PerWagerCap, a paused config', async () => {
    const { url } = await runGateway();
    const payer = await caller();
    const beneficiary = (await generateKeyPairSigner()).address;
    const before = await usdcBalance(payer.usdc);
    const ask = async (body: Record<string, unknown>) => {
      const response = await payer.pay(`${url}/wager`, order(body));
      const { error, code } = (await response.json()) as { error: string; code?: string };
      return { status: response.status, error, ...(code ? { code } : {}) };
    };
    expect(await ask({ paytable: 'roulette', amount: '1.00', beneficiary })).toEqual({ status: 400, error: expect.stringMatching(/^unknown paytable "roulette": this gateway offers coin-flip, wheel/) });
    expect(await ask({ paytable: 'coin-flip', amount: '1.001', beneficiary })).toEqual({ status: 400, error: expect.stringMatching(/^bad amount "1\.001"/) });
    expect(await ask({ paytable: 'coin-flip', amount: '0.001', beneficiary })).toEqual({ status: 400, error: expect.stringMatching(/^bad amount/) });
    expect(await ask({ paytable: 'coin-flip', amount: '1.00', beneficiary: 'nobody' })).toEqual({ status: 400, error: expect.stringMatching(/^bad beneficiary/) });
    // A mint, an account of another program: not somewhere a payout can go.
    expect(await ask({ paytable: 'coin-flip', amount: '1.00', beneficiary: bed.parts.mint })).toEqual({ status: 400, error: expect.stringMatching(/^bad beneficiary: .* is a token program account but not a token account/) });
    const paytable = bed.localnet.manifest.paytables.find((p) => p.name === 'coin-flip')!.address;
    expect(await ask({ paytable: 'coin-flip', amount: '1.00', beneficiary: paytable })).toEqual({ status: 400, error: expect.stringMatching(/^bad beneficiary: .* is an account of program /) });
    // 1 500 USDC on the wheel could pay 15 000: above 1% of the pool's free liquidity.
    // The stable code for scripts, and the sentence with the next step for people.
    expect(await ask({ paytable: 'wheel', amount: '1500.00', beneficiary })).toEqual({
      status: 409,
      code: 'perWagerCap',
      error: expect.stringMatching(/^open_wager would be refused: perWagerCap; no payment was taken\. The wager's largest payout is more than the pool may risk on one wager now: try a smaller stake/),
    });
    // More than the gateway holds: it says it cannot fund it.
    expect(await ask({ paytable: 'coin-flip', amount: '4000.00', beneficiary })).toEqual({ status: 503, error: expect.stringMatching(/^the gateway cannot fund a wager now/) });

    const guardian = await keypairFromBytes(bed.localnet.manifest.devKeys.guardian.keypair);
    await sendInstructions(bed.rpc, guardian, [await getSetPausedInstructionAsync({ guardian, paused: 1 }, { programAddress: bed.parts.program })]);
    try {
      expect(await ask({ paytable: 'coin-flip', amount: '1.00', beneficiary })).toEqual({ status: 409, code: 'paused', error: expect.stringMatching(/^open_wager would be refused: paused; no payment was taken\. New wagers are paused by the deployment's guardian/) });
    } finally {
      await sendInstructions(bed.rpc, guardian, [await getSetPausedInstructionAsync({ guardian, paused: 0 }, { programAddress: bed.parts.program })]);
    }
    expect(await usdcBalance(payer.usdc)).toBe(before);
  });

  it('never opens a second wager for a replayed proof, in the same process and after a restart', async () => {
    const first = await runGateway({ dbName: 'replay.db' });
    const payer = await caller();
    const body = { paytable: 'coin-flip', amount: '1.00', beneficiary: (await generateKeyPairSigner()).address };
    const paid = await payer.pay(`${first.url}/wager`, order(body));
    expect(paid.status).toBe(201);
    const { wager } = (await paid.json()) as { wager: string };
    const proof = payer.sent.map((headers) => headers.get('payment-signature')).find(Boolean)!;
    const replay = (url: string) => fetch(`${url}/wager`, { ...order(body), headers: { 'content-type': 'application/json', 'payment-signature': proof } });

    const again = await replay(first.url);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: expect.stringMatching(/already used, for wager/), wager });

    await running[0]!.server.close();
    await running[0]!.gateway.stop();
    running.splice(0);
    const restarted = await runGateway({ dbName: 'replay.db' });
    const afterRestart = await replay(restarted.url);
    expect(afterRestart.status).toBe(409);
    expect(await afterRestart.json()).toMatchObject({ wager });
    expect(await usdcBalance(payer.usdc)).toBe(99n * USDC);
  });

  it('answers a body over 16 KiB with 413 and a JSON error, without reading it to its end', async () => {
    const { url } = await runGateway();
    // 2 MB announced, 64 KiB sent, the rest never: the answer comes anyway (the body is not read to its end).
    const { hostname, port } = new URL(url);
    const announced = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest({ host: hostname, port, path: '/wager', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body });
          request.destroy();
        });
      });
      request.on('error', reject);
      request.write(Buffer.alloc(64 * 1024, 0x20));
    });
    expect(announced.status).toBe(413);
    expect(JSON.parse(announced.body)).toEqual({ error: expect.stringMatching(/^body too large: a wager order is at most 16384 bytes/) });

    // Without a Content-Length (chunked), the limit holds while reading.
    const bytes = new TextEncoder().encode(`{"paytable":"coin-flip","amount":"1.00","beneficiary":"${' '.repeat(64 * 1024)}"}`);
    const chunked = await fetch(`${url}/wager`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.slice(i, i + 4096));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual({ error: expect.stringMatching(/^body too large/) });

    // Any route and method: a GET carrying a big body too.
    const get = await new Promise<number>((resolve, reject) => {
      const request = httpRequest({ host: hostname, port, path: '/paytables', method: 'GET', headers: { 'content-length': String(32 * 1024) } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      request.on('error', reject);
      request.write(Buffer.alloc(1024, 0x20));
    });
    expect(get).toBe(413);
  });

  describe('a payment that is not what was asked is refused, and no wager is opened', () => {
    /** A caller whose library is told to pay something else than the 402 asked (what a buggy or hostile client does). */
    async function tamperingCaller(tamper: (requirements: PaymentRequirements) => PaymentRequirements, after?: () => void) {
      const { signer, usdc } = await caller();
      const honest = localnetExactScheme(signer, bed.localnet.rpcUrl);
      const scheme: SchemeNetworkClient = {
        scheme: 'exact',
        async createPaymentPayload(version, requirements) {
          const payload = await honest.createPaymentPayload(version, tamper(requirements));
          after?.();
          return payload;
        },
      };
      const network = bed.localnet.manifest.network as Network;
      const client = new x402Client().register(network, scheme).setSpendControls(false);
      return { signer, usdc, pay: wrapFetchWithPayment(fetch, client) };
    }

    async function expectRefused(payer: Awaited<ReturnType<typeof tamperingCaller>>, url: string, paidFrom: Address = payer.usdc) {
      const before = await usdcBalance(paidFrom);
      const beneficiary = (await generateKeyPairSigner()).address;
      const response = await payer.pay(`${url}/wager`, order({ paytable: 'coin-flip', amount: '1.00', beneficiary }));
      expect(response.status).toBe(402);
      expect(((await response.json()) as { error?: string }).error).toMatch(/^payment refused: .*; nothing was sent and no USDC moved/);
      // x402 v2 says why in a failed PAYMENT-RESPONSE.
      const answer = decodePaymentResponseHeader(response.headers.get('payment-response')!);
      expect(answer).toMatchObject({ success: false, errorReason: expect.any(String) });
      expect(await usdcBalance(paidFrom)).toBe(before);
      expect(await usdcBalance(await usdcAccountOf(bed.parts.mint, beneficiary))).toBe(0n);
    }

    it('underpayment', async () => {
      const { url } = await runGateway();
      await expectRefused(await tamperingCaller((r) => ({ ...r, amount: (BigInt(r.amount) - 1n).toString() })), url);
    });

    it('the wrong asset (a token of another mint)', async () => {
      const { url } = await runGateway();
      const { app } = bed.parts;
      const mint = await generateKeyPairSigner();
      const payer = await tamperingCaller((r) => ({ ...r, asset: mint.address }));
      const otherAccount = await usdcAccountOf(mint.address, payer.signer.address);
      await sendInstructions(bed.rpc, app, [
        getCreateAccountInstruction({ payer: app, newAccount: mint, lamports: 10_000_000n, space: getMintSize(), programAddress: TOKEN_PROGRAM_ADDRESS }),
        getInitializeMint2Instruction({ mint: mint.address, decimals: 6, mintAuthority: app.address }),
        await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: app, mint: mint.address, owner: payer.signer.address }),
        getMintToInstruction({ mint: mint.address, token: otherAccount, mintAuthority: app, amount: 5n * USDC }),
      ]);
      await expectRefused(payer, url, otherAccount);
      expect(await usdcBalance(payer.usdc)).toBe(100n * USDC);
    });

    it('an expired blockhash (the payment signed, then left past its lifetime)', async () => {
      const { url } = await runGateway();
      await expectRefused(await tamperingCaller((r) => r, () => bed.localnet.chain.advanceSlots(200)), url);
    });
  });
});

