/**
 * 200 claims at once through the real POST /v1/faucet (real HTTP on 127.0.0.1, a real localnet, the
 * keeper's transaction sender, a SQLite ledger file), each from its own client address: the API sees
 * real socket addresses in 127.0.0.0/8, no X-Forwarded-For. The API's request-rate limiter is raised so
 * every claim reaches the faucet's own rules (the 5-minute wallet and IP rules, the daily limit), which
 * are what is under test; its default stays on elsewhere.
 *
 * What a user would notice is checked: each answer's status, `error` and `retryAt`, the USDC and SOL that
 * arrived on chain, and that the ledger (read from the file by a second reader) sums to exactly what the
 * chain holds.
 */
import { address, generateKeyPairSigner, type Address, type KeyPairSigner } from '@solana/kit';
import { fetchMint, findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPublicApi, listenPublicApi, type PublicApiServer } from '../../api/public-api';
import { connectToChain, type ChainConnection } from '../../chain/rpc-connection';
import { createSignatureConfirmer } from '../../chain/signature-confirmer';
import { createTransactionSender } from '../../chain/transaction-sender';
import type { KeeperService } from '../../keeper/keeper-service';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import { openDatabase, type Database } from '../../store/database';
import { createFaucet, DEFAULT_GRANT_USDC, DEFAULT_SOL_TOP_UP, FAUCET_ERRORS } from '../faucet';

const CLAIMS = 200;
const FIVE_MINUTES = 5 * 60_000;

let localnet: Localnet;
let rpc: ChainConnection['rpc'];
let mint: Address;
let mintAuthority: KeyPairSigner;
let payer: KeyPairSigner;
let confirmer: ReturnType<typeof createSignatureConfirmer>;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0 });
  rpc = connectToChain(localnet.rpcUrl, localnet.wsUrl).rpc;
  mint = address(localnet.manifest.usdcMint);
  mintAuthority = await keypairFromBytes(localnet.manifest.mintAuthority);
  payer = await keypairFromBytes(localnet.manifest.devKeys.keeper.keypair);
  confirmer = createSignatureConfirmer(rpc, 20);
}, 120_000);

afterAll(async () => {
  confirmer?.stop();
  await localnet?.stop();
});

/** The faucet routes never reach the keeper; these answers only satisfy the interface. */
const idleKeeper: KeeperService = {
  submitWager: async () => ({ kind: 'accountNotFound' }),
  lookupWager: async () => ({ state: 'unknown', updatedAt: new Date(0).toISOString() }),
  health: async () => ({ keeper: 'idle', lamports: '0', lastTick: 0, queue: 0 }),
};

let dir: string;
let db: Database;
let server: PublicApiServer;

/** A fresh ledger file and the /v1 API over it, with a faucet allowing `perDay` claims. */
async function startApi(perDay: number): Promise<{ port: number; dbPath: string }> {
  dir = await mkdtemp(join(tmpdir(), 'faucet-concurrency-'));
  const dbPath = join(dir, 'keeper.sqlite');
  db = openDatabase(dbPath);
  const sender = createTransactionSender({ rpc, confirmer, payer, resendIntervalMs: 500 });
  const faucet = createFaucet({
    rpc,
    mint,
    mintAuthority,
    payer,
    db,
    perDay,
    // The daily SOL budget is attacks/faucet-drain.test.ts's; here it must not be what refuses.
    solPerDayLamports: 100_000_000_000n,
    sendTransaction: async (instructions) => (await sender.send(instructions)).signature,
  });
  const app = createPublicApi({
    keeper: idleKeeper,
    faucet,
    allowedOrigins: [],
    // Every claim reaches the faucet's own rules.
    rateLimit: { faucetClaim: { perMinute: 60_000, burst: 1_000 } },
  });
  server = await listenPublicApi(app, { port: 0 });
  return { port: server.port, dbPath };
}

afterEach(async () => {
  await server?.close();
  db?.close();
  await rm(dir, { recursive: true, force: true });
});

interface ClaimAnswer {
  status: number;
  body: { signature?: string; usdc?: string; sol?: string; error?: string; retryAt?: number };
}

/** POST /v1/faucet {owner} from the client address `from`, on a connection of its own. */
function claim(port: number, owner: Address, from: string): Promise<ClaimAnswer> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ owner });
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/v1/faucet', localAddress: from, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) as ClaimAnswer['body'] }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const wallets = (n: number) => Promise.all(Array.from({ length: n }, async () => (await generateKeyPairSigner()).address));

/** Test USDC the wallet holds on chain (0 without a token account), in base units. */
async function usdcOf(owner: Address): Promise<bigint> {
  const [ata] = await findAssociatedTokenPda({ mint, owner, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const account = await rpc.getAccountInfo(ata, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!account.value) return 0n;
  return BigInt((await rpc.getTokenAccountBalance(ata, { commitment: 'confirmed' }).send()).value.amount);
}
const lamportsOf = async (owner: Address) => (await rpc.getBalance(owner, { commitment: 'confirmed' }).send()).value;
/** The mint's supply, from its account (the localnet serves no getTokenSupply). */
const supply = async () => (await fetchMint(rpc, mint, { commitment: 'confirmed' })).data.supply;

/** The ledger as a second reader of the file sees it: per owner, the USDC and lamports it says were sent. */
function ledgerSums(dbPath: string): { rows: number; unsent: number; byOwner: Map<string, { usdc: bigint; sol: bigint; ips: string[] }> } {
  const reader = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const rows = reader.prepare('SELECT owner, ip, usdc, sol, signature FROM faucet_claims').all() as { owner: string; ip: string; usdc: string; sol: string; signature: string | null }[];
    const byOwner = new Map<string, { usdc: bigint; sol: bigint; ips: string[] }>();
    for (const row of rows) {
      const sums = byOwner.get(row.owner) ?? { usdc: 0n, sol: 0n, ips: [] };
      sums.usdc += BigInt(row.usdc);
      sums.sol += BigInt(row.sol);
      sums.ips.push(row.ip);
      byOwner.set(row.owner, sums);
    }
    return { rows: rows.length, unsent: rows.filter((row) => row.signature === null).length, byOwner };
  } finally {
    reader.close();
  }
}

/** Every wallet's USDC and SOL on chain equal the ledger's sums for it; the mint grew by the ledger's total. */
async function expectLedgerMatchesChain(dbPath: string, owners: readonly Address[], supplyBefore: bigint) {
  const ledger = ledgerSums(dbPath);
  expect(ledger.unsent).toBe(0);
  let total = 0n;
  for (const owner of owners) {
    const sums = ledger.byOwner.get(owner) ?? { usdc: 0n, sol: 0n, ips: [] };
    expect({ owner, usdc: await usdcOf(owner), lamports: await lamportsOf(owner) }).toEqual({ owner, usdc: sums.usdc, lamports: sums.sol });
    total += sums.usdc;
  }
  expect((await supply()) - supplyBefore).toBe(total);
  return ledger;
}

describe(`${CLAIMS} concurrent faucet claims through POST /v1/faucet on a real localnet`, () => {
  it('from 200 addresses for 200 wallets with 50 claims left today: exactly 50 granted, 150 refused 503 until midnight UTC, ledger = chain', async () => {
    const { port, dbPath } = await startApi(50);
    const owners = await wallets(CLAIMS);
    const supplyBefore = await supply();
    const answers = await Promise.all(owners.map((owner, i) => claim(port, owner, `127.10.${i >> 8}.${(i & 255) + 1}`)));

    const granted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(granted).toHaveLength(50);
    for (const a of granted) expect(a.body).toEqual({ signature: expect.any(String), usdc: DEFAULT_GRANT_USDC.toString(), sol: '0.01' });
    const midnight = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
    for (const a of refused) expect(a).toEqual({ status: 503, body: { error: FAUCET_ERRORS.daily, retryAt: midnight } });

    const ledger = await expectLedgerMatchesChain(dbPath, owners, supplyBefore);
    expect(ledger.rows).toBe(50);
    expect([...ledger.byOwner.values()].every((sums) => sums.usdc === DEFAULT_GRANT_USDC && sums.sol === DEFAULT_SOL_TOP_UP)).toBe(true);
    expect(await (await fetch(`http://127.0.0.1:${port}/v1/faucet`)).json()).toMatchObject({ perDay: 50, remainingToday: 0 });
  }, 180_000);

  it('from one address for 200 wallets: exactly 1 granted, 199 refused 429 for the IP with retryAt 5 minutes after the grant, ledger = chain', async () => {
    const { port, dbPath } = await startApi(500);
    const owners = await wallets(CLAIMS);
    const supplyBefore = await supply();
    const before = Date.now();
    const answers = await Promise.all(owners.map((owner) => claim(port, owner, '127.20.0.1')));
    const after = Date.now();

    const granted = answers.filter((a) => a.status === 200);
    expect(granted).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(199);
    const retryAts = new Set(refused.map((a) => a.body.retryAt));
    // One grant, so one moment all refusals point to: 5 minutes after it.
    expect(retryAts.size).toBe(1);
    const retryAt = [...retryAts][0]!;
    expect(retryAt).toBeGreaterThanOrEqual(before + FIVE_MINUTES);
    expect(retryAt).toBeLessThanOrEqual(after + FIVE_MINUTES);
    for (const a of refused) expect(a).toEqual({ status: 429, body: { error: FAUCET_ERRORS.ip, retryAt } });

    const ledger = await expectLedgerMatchesChain(dbPath, owners, supplyBefore);
    expect(ledger.rows).toBe(1);
  }, 180_000);

  it('200 claims of 60 wallets from 70 addresses, crossed: each wallet and each address granted at most once, every refusal 429 with retryAt, ledger = chain', async () => {
    const { port, dbPath } = await startApi(500);
    const owners = await wallets(60);
    const supplyBefore = await supply();
    const before = Date.now();
    // Claim i: wallet i mod 60 from address i mod 70, so wallets and addresses meet in many pairs.
    const pairs = Array.from({ length: CLAIMS }, (_, i) => ({ owner: owners[i % 60]!, from: `127.30.0.${(i % 70) + 1}` }));
    const answers = await Promise.all(pairs.map(({ owner, from }) => claim(port, owner, from)));
    const after = Date.now();

    const grantedPairs = pairs.filter((_, i) => answers[i]!.status === 200);
    expect(grantedPairs.length).toBeGreaterThan(0);
    expect(new Set(grantedPairs.map((p) => p.owner)).size).toBe(grantedPairs.length);
    expect(new Set(grantedPairs.map((p) => p.from)).size).toBe(grantedPairs.length);
    answers.forEach((a, i) => {
      if (a.status === 200) return;
      expect(a.status).toBe(429);
      expect([FAUCET_ERRORS.wallet, FAUCET_ERRORS.ip]).toContain(a.body.error);
      expect(a.body.retryAt).toBeGreaterThanOrEqual(before + FIVE_MINUTES);
      expect(a.body.retryAt).toBeLessThanOrEqual(after + FIVE_MINUTES);
      // Refused for a reason that holds: that wallet or that address was granted.
      const { owner, from } = pairs[i]!;
      expect(grantedPairs.some((p) => (a.body.error === FAUCET_ERRORS.wallet ? p.owner === owner : p.from === from))).toBe(true);
    });

    const ledger = await expectLedgerMatchesChain(dbPath, owners, supplyBefore);
    expect(ledger.rows).toBe(grantedPairs.length);
    // The ledger records the address each grant came from, as the API saw it.
    for (const { owner, from } of grantedPairs) expect(ledger.byOwner.get(owner)?.ips).toEqual([from]);
  }, 180_000);
});
