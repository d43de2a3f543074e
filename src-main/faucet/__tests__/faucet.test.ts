/**
 * The faucet against a real localnet (startLocalnet: LiteSVM chain + JSON-RPC), a real SQLite file in a
 * temp dir, and kit's transaction sender. Only the clock is injected, to step through the 5-minute, daily
 * and UTC-day limits.
 */
import {
  address,
  generateKeyPairSigner,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPublicApi, listenPublicApi, type PublicApiServer } from '../../api/public-api';
import type { KeeperService } from '../../keeper/keeper-service';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import { openDatabase, type Database } from '../../store/database';
import { createFaucetLedger } from '../../store/faucet-ledger';
import { createFaucet, type FaucetOptions } from '../faucet';
import type { FaucetClaimResult } from '../faucet-service';
import { connectToChain, type ChainConnection } from '../../chain/rpc-connection';
import { createSignatureConfirmer } from '../../chain/signature-confirmer';
import { createTransactionSender } from '../../chain/transaction-sender';
import type { SendInstructions } from '../faucet';

const USDC_1000 = '1000000000';
/** The claim result's `sol` is decimal SOL (spec 2.4); the ledger keeps lamports. */
const SOL_0_01 = '0.01';
const SOL_0_01_LAMPORTS = '10000000';
const FIVE_MINUTES = 5 * 60_000;
const NOON = Date.UTC(2030, 0, 1, 12);
const NEXT_MIDNIGHT = Date.UTC(2030, 0, 2);

let localnet: Localnet;
let rpc: ChainConnection['rpc'];
let mintAuthority: KeyPairSigner;
let payer: KeyPairSigner;
let mint: Address;
let send: SendInstructions;
/** Sends with `feePayer` paying, through the keeper's transaction sender. */
let sendPaidBy: (feePayer: KeyPairSigner) => SendInstructions;

let dir: string;
let db: Database;
let clock: number;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0 });
  rpc = connectToChain(localnet.rpcUrl, localnet.wsUrl).rpc;
  mintAuthority = await keypairFromBytes(localnet.manifest.mintAuthority);
  payer = await keypairFromBytes(localnet.manifest.devKeys.keeper.keypair);
  mint = address(localnet.manifest.usdcMint);
  const confirmer = createSignatureConfirmer(rpc, 20);
  sendPaidBy = (feePayer) => async (instructions) =>
    (await createTransactionSender({ rpc, confirmer, payer: feePayer, resendIntervalMs: 500 }).send(instructions)).signature;
  send = sendPaidBy(payer);
});

afterAll(async () => {
  await localnet?.stop();
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faucet-test-'));
  db = openDatabase(join(dir, 'keeper.sqlite'));
  clock = NOON;
});

afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const faucetWith = (overrides: Partial<FaucetOptions> = {}) =>
  createFaucet({
    rpc,
    mint,
    mintAuthority,
    payer,
    db,
    now: () => clock,
    sendTransaction: send,
    ...overrides,
  });

/** The ledger as another reader of the same file sees it. */
const ledgerRows = () => createFaucetLedger(db, { perDay: 0, claimIntervalMs: 0, solIntervalMs: 0 }).claims();

/**
 * Moves the chain to a new blockhash. The injected clock jumps minutes in microseconds; on a real clock
 * the 5-minute wallet rule outlives a blockhash, so two claims of one wallet never build the identical
 * transaction. Here the test must make that so.
 */
const nextBlockhash = () => localnet.chain.advanceSlots(1);

const newWallet = async () => (await generateKeyPairSigner()).address;

async function usdcOf(owner: Address): Promise<string | null> {
  const [ata] = await findAssociatedTokenPda({ mint, owner, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const account = await rpc.getAccountInfo(ata, { encoding: 'base64' }).send();
  if (!account.value) return null;
  return (await rpc.getTokenAccountBalance(ata).send()).value.amount;
}

const lamportsOf = async (owner: Address) => (await rpc.getBalance(owner).send()).value;

async function airdrop(owner: Address, lamports: bigint) {
  await send([getTransferSolInstruction({ source: payer, destination: owner, amount: lamports })]);
}

function expectSuccess(
  result: FaucetClaimResult,
): asserts result is Extract<FaucetClaimResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected a successful claim, got ${result.status} ${result.error}`);
}

describe('faucet claims on a real localnet', () => {
  it('mints exactly 1 000 test USDC to a new wallet (creating its token account) and sends it 0.01 SOL', async () => {
    const faucet = faucetWith();
    const owner = await newWallet();
    expect(await usdcOf(owner)).toBeNull();
    expect(await lamportsOf(owner)).toBe(0n);

    const result = await faucet.claim(owner, '198.51.100.1');
    expectSuccess(result);
    expect(result).toEqual({ ok: true, signature: expect.any(String), usdc: USDC_1000, sol: SOL_0_01 });
    expect(await usdcOf(owner)).toBe(USDC_1000);
    expect(await lamportsOf(owner)).toBe(10_000_000n);

    const statuses = await rpc.getSignatureStatuses([result.signature as never]).send();
    expect(statuses.value[0]?.err).toBeNull();
    expect(ledgerRows()).toEqual([
      {
        id: expect.any(Number),
        atMs: NOON,
        owner,
        ip: '198.51.100.1',
        usdc: USDC_1000,
        sol: SOL_0_01_LAMPORTS,
        signature: result.signature,
      },
    ]);
  });

  it('sends no SOL to a wallet that already holds 0.005 SOL', async () => {
    const faucet = faucetWith();
    const owner = await newWallet();
    await airdrop(owner, 5_000_000n);

    const result = await faucet.claim(owner, '198.51.100.2');
    expectSuccess(result);
    expect(result.sol).toBe('0');
    expect(await lamportsOf(owner)).toBe(5_000_000n);
    expect(await usdcOf(owner)).toBe(USDC_1000);
  });

  it('refuses a second claim of the same wallet within 5 minutes (429, retryAt = first claim + 5 min), then allows it', async () => {
    const faucet = faucetWith();
    const owner = await newWallet();
    expectSuccess(await faucet.claim(owner, '198.51.100.3'));

    clock = NOON + 60_000;
    expect(await faucet.claim(owner, '198.51.100.4')).toEqual({
      ok: false,
      status: 429,
      error: 'this wallet already claimed in the last 5 minutes',
      retryAt: NOON + FIVE_MINUTES,
    });
    clock = NOON + FIVE_MINUTES - 1;
    expect((await faucet.claim(owner, '198.51.100.4')).ok).toBe(false);
    expect(await usdcOf(owner)).toBe(USDC_1000);

    clock = NOON + FIVE_MINUTES;
    nextBlockhash();
    const again = await faucet.claim(owner, '198.51.100.4');
    expectSuccess(again);
    expect(await usdcOf(owner)).toBe('2000000000');
    // Its token account existed already: creation is idempotent, and it still has SOL, so none was sent.
    expect(again.sol).toBe('0');
  });

  it('refuses another wallet from the same IP address within 5 minutes, and allows it after', async () => {
    const faucet = faucetWith();
    const [first, second] = [await newWallet(), await newWallet()];
    expectSuccess(await faucet.claim(first, '198.51.100.5'));

    clock = NOON + 30_000;
    expect(await faucet.claim(second, '198.51.100.5')).toEqual({
      ok: false,
      status: 429,
      error: 'this IP address already claimed in the last 5 minutes',
      retryAt: NOON + FIVE_MINUTES,
    });
    expect(await usdcOf(second)).toBeNull();
    // The same wallet from elsewhere is fine.
    expectSuccess(await faucet.claim(second, '198.51.100.6'));

    clock = NOON + FIVE_MINUTES;
    expectSuccess(await faucet.claim(await newWallet(), '198.51.100.5'));
  });

  it('tops up SOL at most once a day per wallet, even when the wallet spent it', async () => {
    const faucet = faucetWith();
    const ownerSigner = await generateKeyPairSigner();
    const owner = ownerSigner.address;
    const first = await faucet.claim(owner, '198.51.100.7');
    expectSuccess(first);
    expect(first.sol).toBe(SOL_0_01);

    // The wallet spends all its SOL (fee 5 000 lamports).
    await sendPaidBy(ownerSigner)(
      [
        getTransferSolInstruction({
          source: ownerSigner,
          destination: payer.address,
          amount: 10_000_000n - 5_000n,
        }),
      ],
    );
    expect(await lamportsOf(owner)).toBe(0n);

    clock = NOON + FIVE_MINUTES;
    nextBlockhash();
    const second = await faucet.claim(owner, '198.51.100.7');
    expectSuccess(second);
    expect(second.sol).toBe('0');
    expect(await lamportsOf(owner)).toBe(0n);
    expect(await usdcOf(owner)).toBe('2000000000');

    clock = NOON + 24 * 60 * 60_000 - 1;
    nextBlockhash();
    const third = await faucet.claim(owner, '198.51.100.7');
    expectSuccess(third);
    expect(third.sol).toBe('0');

    clock = NOON + 24 * 60 * 60_000 + FIVE_MINUTES;
    nextBlockhash();
    const nextDay = await faucet.claim(owner, '198.51.100.7');
    expectSuccess(nextDay);
    expect(nextDay.sol).toBe(SOL_0_01);
    expect(await lamportsOf(owner)).toBe(10_000_000n);
  });

  it('counts down remainingToday and refuses with 503 once the daily limit is used up, until 00:00 UTC', async () => {
    const faucet = faucetWith({ perDay: 3 });
    expect(faucet.status()).toEqual({ usdc: USDC_1000, perDay: 3, remainingToday: 3 });
    for (const remaining of [2, 1, 0]) {
      expectSuccess(await faucet.claim(await newWallet(), `198.51.100.${10 + remaining}`));
      expect(faucet.status().remainingToday).toBe(remaining);
    }
    const late = await newWallet();
    clock = NOON + 60 * 60_000;
    expect(await faucet.claim(late, '198.51.100.20')).toEqual({
      ok: false,
      status: 503,
      error: "the faucet's daily limit is used up",
      retryAt: NEXT_MIDNIGHT,
    });
    expect(await usdcOf(late)).toBeNull();
    expect(ledgerRows()).toHaveLength(3);

    clock = NEXT_MIDNIGHT;
    expect(faucet.status().remainingToday).toBe(3);
    expectSuccess(await faucet.claim(late, '198.51.100.20'));
    expect(faucet.status().remainingToday).toBe(2);
  });

  it('when several limits refuse, retryAt is when all of them allow a claim', async () => {
    const faucet = faucetWith({ perDay: 1 });
    clock = NEXT_MIDNIGHT - 60_000;
    const owner = await newWallet();
    expectSuccess(await faucet.claim(owner, '198.51.100.30'));
    // Daily limit lifts at midnight (1 min away), the wallet's limit 4 min later.
    expect(await faucet.claim(owner, '198.51.100.31')).toMatchObject({
      status: 429,
      retryAt: NEXT_MIDNIGHT - 60_000 + FIVE_MINUTES,
    });
    expect(await faucet.claim(await newWallet(), '198.51.100.31')).toMatchObject({
      status: 503,
      retryAt: NEXT_MIDNIGHT,
    });
  });

  it('lets exactly 5 of 20 simultaneous claims through when 5 remain today; the rest are refused', async () => {
    const faucet = faucetWith({ perDay: 5 });
    const owners = await Promise.all(Array.from({ length: 20 }, () => newWallet()));
    const results = await Promise.all(owners.map((owner, i) => faucet.claim(owner, `203.0.113.${i}`)));

    const granted = results.filter((r) => r.ok);
    const refused = results.filter((r) => !r.ok);
    expect(granted).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const r of refused)
      expect(r).toEqual({
        ok: false,
        status: 503,
        error: "the faucet's daily limit is used up",
        retryAt: NEXT_MIDNIGHT,
      });

    const rows = ledgerRows();
    expect(rows).toHaveLength(5);
    expect(rows.every((row) => row.signature !== null)).toBe(true);
    const balances = await Promise.all(owners.map(usdcOf));
    expect(balances.filter((b) => b === USDC_1000)).toHaveLength(5);
    expect(balances.filter((b) => b === null)).toHaveLength(15);
    expect(faucet.status().remainingToday).toBe(0);
  });

  it('grants exactly one of 8 simultaneous claims of one wallet from 8 IP addresses; the rest are refused for the wallet', async () => {
    const faucet = faucetWith();
    const owner = await newWallet();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => faucet.claim(owner, `203.0.113.${100 + i}`)));

    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((r) => !r.ok))
      expect(r).toEqual({
        ok: false,
        status: 429,
        error: 'this wallet already claimed in the last 5 minutes',
        retryAt: NOON + FIVE_MINUTES,
      });
    // One transaction went out: the wallet holds one grant and one SOL top-up.
    expect(await usdcOf(owner)).toBe(USDC_1000);
    expect(await lamportsOf(owner)).toBe(10_000_000n);
    expect(ledgerRows()).toHaveLength(1);
  });

  it('grants exactly one of 8 simultaneous claims from one IP address for 8 wallets; the rest are refused for the IP', async () => {
    const faucet = faucetWith();
    const owners = await Promise.all(Array.from({ length: 8 }, () => newWallet()));
    const results = await Promise.all(owners.map((owner) => faucet.claim(owner, '203.0.113.200')));

    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((r) => !r.ok))
      expect(r).toEqual({
        ok: false,
        status: 429,
        error: 'this IP address already claimed in the last 5 minutes',
        retryAt: NOON + FIVE_MINUTES,
      });
    const balances = await Promise.all(owners.map(usdcOf));
    expect(balances.filter((b) => b === USDC_1000)).toHaveLength(1);
    expect(balances.filter((b) => b === null)).toHaveLength(7);
    expect(ledgerRows()).toHaveLength(1);
  });

  it('answers 502 "faucet transaction failed" when the transaction fails, and the user keeps their slot', async () => {
    const reported: string[] = [];
    const wrongAuthority = await generateKeyPairSigner();
    const broken = faucetWith({
      perDay: 2,
      mintAuthority: wrongAuthority,
      onError: (message) => reported.push(message),
    });
    const owner = await newWallet();

    expect(await broken.claim(owner, '198.51.100.40')).toEqual({
      ok: false,
      status: 502,
      error: 'faucet transaction failed',
      retryAt: NOON,
    });
    expect(reported).toEqual([`claim for ${owner} failed`]);
    expect(ledgerRows()).toEqual([]);
    expect(broken.status().remainingToday).toBe(2);
    expect(await usdcOf(owner)).toBeNull();
    expect(await lamportsOf(owner)).toBe(0n);

    // Same wallet, same IP, same minute: allowed at once by a working faucet on the same ledger.
    const working = faucetWith({ perDay: 2 });
    expectSuccess(await working.claim(owner, '198.51.100.40'));
    expect(await usdcOf(owner)).toBe(USDC_1000);
    expect(working.status().remainingToday).toBe(1);
  });
});

describe('faucet routes of the public API (test network)', () => {
  /** The faucet routes never reach the keeper; these answers only satisfy the interface. */
  const idleKeeper: KeeperService = {
    submitWager: async () => ({ kind: 'accountNotFound' }),
    lookupWager: async () => ({ state: 'unknown', updatedAt: new Date(0).toISOString() }),
    health: async () => ({ keeper: payer.address, lamports: '0', lastTick: 0, queue: 0 }),
  };
  let server: PublicApiServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const startApi = async (perDay: number, rateLimit?: Parameters<typeof createPublicApi>[0]['rateLimit']) => {
    // trustProxy: each test request names its client in X-Forwarded-For, as a proxy in front would.
    const app = createPublicApi({
      keeper: idleKeeper,
      faucet: faucetWith({ perDay }),
      allowedOrigins: [],
      trustProxy: true,
      now: () => clock,
      rateLimit,
    });
    server = await listenPublicApi(app, { port: 0 });
    return server.url;
  };
  const claim = (url: string, body: unknown, ip: string) =>
    fetch(`${url}/v1/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('GET /v1/faucet reports the grant, the daily limit and what is left today', async () => {
    const url = await startApi(7);
    const response = await fetch(`${url}/v1/faucet`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ usdc: USDC_1000, perDay: 7, remainingToday: 7 });
  });

  it('POST /v1/faucet answers 200 with the signature and amounts, then 429 with retryAt and Retry-After for the same IP', async () => {
    const url = await startApi(7);
    const owner = await newWallet();
    const granted = await claim(url, { owner }, '192.0.2.1');
    expect(granted.status).toBe(200);
    const body = (await granted.json()) as { signature: string };
    expect(body).toEqual({ signature: expect.any(String), usdc: USDC_1000, sol: SOL_0_01 });
    expect(ledgerRows()[0]?.signature).toBe(body.signature);
    expect(await usdcOf(owner)).toBe(USDC_1000);

    clock = NOON + 1_000;
    const refused = await claim(url, { owner: await newWallet() }, '192.0.2.1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('299');
    expect(await refused.json()).toEqual({
      error: 'this IP address already claimed in the last 5 minutes',
      retryAt: NOON + FIVE_MINUTES,
    });
    expect((await (await fetch(`${url}/v1/faucet`)).json()) as object).toMatchObject({ remainingToday: 6 });
  });

  it('POST /v1/faucet answers 503 with retryAt = next 00:00 UTC once the daily limit is used up', async () => {
    const url = await startApi(1);
    expect((await claim(url, { owner: await newWallet() }, '192.0.2.2')).status).toBe(200);
    const refused = await claim(url, { owner: await newWallet() }, '192.0.2.3');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe(String((NEXT_MIDNIGHT - NOON) / 1000));
    expect(await refused.json()).toEqual({
      error: "the faucet's daily limit is used up",
      retryAt: NEXT_MIDNIGHT,
    });
  });

  it("POST /v1/faucet over the API's request rate answers 429 \"rate limited\" with retryAt and Retry-After, like every faucet refusal", async () => {
    const url = await startApi(7, { faucetClaim: { perMinute: 1, burst: 1 } });
    expect((await claim(url, 'not json', '192.0.2.9')).status).toBe(400);
    const limited = await claim(url, { owner: await newWallet() }, '192.0.2.9');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(await limited.json()).toEqual({ error: 'rate limited', retryAt: NOON + 60_000 });
    expect(ledgerRows()).toEqual([]);
  });

  it('POST /v1/faucet answers 400 for a missing or bad owner or a non-JSON body, without using a claim', async () => {
    const url = await startApi(7);
    const cases: [unknown, string][] = [
      [{}, 'missing owner'],
      [{ owner: null }, 'missing owner'],
      [{ owner: 'not-a-wallet' }, 'not a base58 address'],
      [{ owner: 7 }, 'not a base58 address'],
      ['{"owner":', 'body must be JSON'],
    ];
    for (const [body, error] of cases) {
      const response = await claim(url, body, '192.0.2.4');
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error });
    }
    expect(ledgerRows()).toEqual([]);
    expect((await claim(url, { owner: await newWallet() }, '192.0.2.4')).status).toBe(200);
  });
});
