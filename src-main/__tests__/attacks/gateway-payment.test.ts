/**
 * Draining the gateway's SOL through its payments (issue 33, item 2). The gateway is the fee payer of every
 * x402 payment, so a caller chooses what the gateway pays: a payment asking 1,400,000 compute units at
 * 5,000,000 µlamports each (0.007 SOL for a 0.10 USDC wager, the library's own price cap), or one that
 * carries an instruction the library lets through unread (a Lighthouse assertion that can fail after
 * preflight). Both must be refused with 402 naming why, before anything is broadcast: the gateway's SOL
 * is unchanged. And POST /wager is rate limited per address and per payer (429 JSON with Retry-After).
 * One localnet and one in-process gateway for the file; the payments are real, signed by a real payer.
 */
import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getTransferCheckedInstruction } from '@solana-program/token';
import { x402Client } from '@x402/core/client';
import type { Network, SchemeNetworkClient } from '@x402/core/types';
import { wrapFetchWithPayment } from '@x402/fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenPublicApi, type PublicApiServer } from '../../api/public-api';
import { startGateway, type Gateway } from '../../gateway/gateway';
import { giveUsdc, keeperTestbed, usdcAccountOf } from '../../keeper/__tests__/keeper-test-helpers';

const bed = keeperTestbed({ prefix: 'attack-gateway-payment-' });
const USDC = 1_000_000n;
const LIGHTHOUSE = address('L2TExMFKdjpN9kozasaurPirfHy9P8sbXoAN1qA3S95');

let gateway: Gateway;
let server: PublicApiServer;
let gatewayKey: KeyPairSigner;

beforeAll(async () => {
  gatewayKey = await generateKeyPairSigner();
  bed.localnet.chain.airdrop(gatewayKey.address, 10_000_000_000n);
  await giveUsdc(bed.rpc, bed.parts, gatewayKey.address, 100n * USDC);
  gateway = await startGateway({
    rpcUrl: bed.localnet.rpcUrl,
    wsUrl: bed.localnet.wsUrl,
    signer: gatewayKey,
    dbPath: bed.dir.path('gateway.db'),
    deployment: bed.localnet.manifest,
    paytables: ['coin-flip'],
    limits: { minStake: 100_000n, maxStake: 100n * USDC, fee: 0n },
    keeper: { submit: async () => undefined, lookup: async () => null },
    // Each test is its own client address (X-Forwarded-For from the loopback "proxy"): 4 requests at once
    // per address, 2 paid requests at once per payer.
    trustProxy: 1,
    rateLimits: { perAddress: { perMinute: 1, burst: 4 }, perPayer: { perMinute: 1, burst: 2 } },
  });
  server = await listenPublicApi(gateway.app, { port: 0 });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await gateway?.stop();
});

const lamports = async (owner: Address) => (await bed.rpc.getBalance(owner, { commitment: 'confirmed' }).send()).value;
const usdcOf = async (owner: Address) => BigInt((await bed.rpc.getTokenAccountBalance(await usdcAccountOf(bed.parts.mint, owner), { commitment: 'confirmed' }).send()).value.amount);

/**
 * A caller paying with a transaction it builds itself: the transfer the 402 asks for, with the compute
 * budget and extra instructions it chooses, the gateway as fee payer (as x402 requires), signed by the payer.
 */
function hostileClient(payer: KeyPairSigner, build: { units: number; microLamports: bigint; extra?: Instruction[] }): typeof fetch {
  const scheme: SchemeNetworkClient = {
    scheme: 'exact',
    async createPaymentPayload(x402Version, requirements) {
      const feePayer = address(requirements.extra!.feePayer as string);
      const transfer = getTransferCheckedInstruction({
        source: await usdcAccountOf(bed.parts.mint, payer.address),
        mint: address(requirements.asset),
        destination: await usdcAccountOf(bed.parts.mint, address(requirements.payTo)),
        authority: payer,
        amount: BigInt(requirements.amount),
        decimals: 6,
      });
      const { value: lifetime } = await bed.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayer(feePayer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
        (m) =>
          appendTransactionMessageInstructions(
            [getSetComputeUnitLimitInstruction({ units: build.units }), getSetComputeUnitPriceInstruction({ microLamports: build.microLamports }), transfer, ...(build.extra ?? [])],
            m,
          ),
      );
      const signed = await partiallySignTransactionMessageWithSigners(message);
      return { x402Version, payload: { transaction: getBase64EncodedWireTransaction(signed) } };
    },
  };
  return wrapFetchWithPayment(fetch, new x402Client().register(bed.localnet.manifest.network as Network, scheme).setSpendControls(false));
}

let clients = 0;
/** A client address of its own for each caller (the gateway trusts one proxy hop: this test). */
const newClient = () => `203.0.113.${++clients}`;

const order = (beneficiary: Address, client: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
  body: JSON.stringify({ paytable: 'coin-flip', amount: '0.10', beneficiary }),
});

async function payer() {
  const signer = await generateKeyPairSigner();
  await giveUsdc(bed.rpc, bed.parts, signer.address, 10n * USDC);
  return signer;
}

/** Pays with `pay`; expects 402 with an error matching `why`, and no lamport of the gateway's nor USDC of the payer's moved. */
async function expectRefusedFree(pay: typeof fetch, from: KeyPairSigner, why: RegExp) {
  const solBefore = await lamports(gatewayKey.address);
  const usdcBefore = await usdcOf(from.address);
  const response = await pay(`${server.url}/wager`, order(from.address, newClient()));
  const body = (await response.json()) as { error: string };
  expect(response.status).toBe(402);
  expect(body.error).toMatch(why);
  expect(body.error).toMatch(/nothing was sent and no USDC moved/);
  expect(await lamports(gatewayKey.address)).toBe(solBefore);
  expect(await usdcOf(from.address)).toBe(usdcBefore);
}

describe("a payment that would make the gateway pay is refused before it is broadcast", () => {
  it('1,400,000 compute units at 5,000,000 µlamports/CU: 402 naming the compute-unit cap; the gateway SOL unchanged', async () => {
    const from = await payer();
    await expectRefusedFree(hostileClient(from, { units: 1_400_000, microLamports: 5_000_000n }), from, /more compute units than the gateway pays for: .*at most 40,000 compute units at 50,000 µlamports/);
  });

  it('a price above 50,000 µlamports/CU with few units: 402 naming the price cap', async () => {
    const from = await payer();
    await expectRefusedFree(hostileClient(from, { units: 20_000, microLamports: 5_000_000n }), from, /compute-unit price is above what the gateway pays/);
  });

  it('an extra instruction the library lets through (a Lighthouse assertion): 402 naming it; the gateway SOL unchanged', async () => {
    const from = await payer();
    const assertion: Instruction = { programAddress: LIGHTHOUSE, accounts: [], data: new Uint8Array([1, 2, 3]) };
    await expectRefusedFree(
      hostileClient(from, { units: 20_000, microLamports: 1n, extra: [assertion] }),
      from,
      new RegExp(`an instruction the gateway does not accept \\(instruction 4 calls ${LIGHTHOUSE} \\(Lighthouse\\)\\)`),
    );
  });
});

describe('POST /wager is rate limited', () => {
  it('per payer: its third paid request within the minute, from another address each time, answers 429 JSON with Retry-After', async () => {
    const from = await payer();
    const pay = hostileClient(from, { units: 1_400_000, microLamports: 5_000_000n });
    // Each call is a 402 then the paid retry; the two first paid retries take the payer's two tokens.
    for (const expected of [402, 402, 429]) {
      const answer = await pay(`${server.url}/wager`, order(from.address, newClient()));
      expect(answer.status).toBe(expected);
      if (expected !== 429) continue;
      expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(((await answer.json()) as { error: string }).error).toMatch(new RegExp(`^too many wagers paid by ${from.address}: try again in \\d+ s`));
    }
  });

  it('per address: past its burst, answers 429 JSON with Retry-After', async () => {
    const client = newClient();
    let answer: Response | undefined;
    for (let i = 0; i < 10 && answer?.status !== 429; i++) answer = await fetch(`${server.url}/wager`, order(gatewayKey.address, client));
    expect(answer!.status).toBe(429);
    expect(answer!.headers.get('content-type')).toMatch(/application\/json/);
    expect(answer!.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(((await answer!.json()) as { error: string }).error).toMatch(/^too many wager requests from your address: try again in \d+ s/);
  });
});
