/**
 * Attack (issue 33, item 7): draining the keeper's SOL through the test-network faucet. Every claim costs
 * the keeper's key about 0.012 SOL (a 0.01 SOL top-up, the new token account's rent, the fee), and claims
 * from distinct wallets and addresses are allowed up to 500 a day: about 6 SOL, enough to leave a devnet
 * keeper unable to crank until its wagers expire. Through the real POST /v1/faucet (real HTTP, each claim
 * from its own 127.x address) on a real localnet, with the keeper's own transaction sender and a SQLite
 * ledger: the claims of a day never cost more than the SOL budget (0.5 SOL by default), counted from what
 * they really cost on chain, and none is paid while the keeper is under its warning line (0.5 SOL).
 */
import { address, generateKeyPairSigner, lamports, type Address, type KeyPairSigner } from '@solana/kit';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPublicApi, listenPublicApi, type PublicApiServer } from '../../api/public-api';
import { connectToChain, type ChainConnection } from '../../chain/rpc-connection';
import { createSignatureConfirmer } from '../../chain/signature-confirmer';
import { createTransactionSender } from '../../chain/transaction-sender';
import { createFaucet, DEFAULT_FAUCET_SOL_PER_DAY, FAUCET_ERRORS } from '../../faucet/faucet';
import { DEFAULT_KEEPER_FLOOR_LAMPORTS } from '../../faucet/keeper-floor';
import type { KeeperService } from '../../keeper/keeper-service';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { eventually } from '../../localnet/__tests__/localnet-test-helpers';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import { openDatabase, type Database } from '../../store/database';

const SOL = 1_000_000_000n;

let localnet: Localnet;
let rpc: ChainConnection['rpc'];
let mint: Address;
let mintAuthority: KeyPairSigner;
let confirmer: ReturnType<typeof createSignatureConfirmer>;
let dir: string;
let db: Database | undefined;
let server: PublicApiServer | undefined;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0 });
  rpc = connectToChain(localnet.rpcUrl, localnet.wsUrl).rpc;
  mint = address(localnet.manifest.usdcMint);
  mintAuthority = await keypairFromBytes(localnet.manifest.mintAuthority);
  confirmer = createSignatureConfirmer(rpc, 20);
}, 120_000);
afterAll(async () => {
  confirmer?.stop();
  await localnet?.stop();
});
afterEach(async () => {
  await server?.close();
  db?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const idleKeeper: KeeperService = {
  submitWager: async () => ({ kind: 'accountNotFound' }),
  lookupWager: async () => ({ state: 'unknown', updatedAt: new Date(0).toISOString() }),
  health: async () => ({ keeper: 'idle', lamports: '0', lastTick: 0, queue: 0 }),
};

const lamportsOf = async (owner: Address) => (await rpc.getBalance(owner, { commitment: 'confirmed' }).send()).value;

/** A keeper key holding exactly `held` lamports (the faucet pays from it). */
async function keeperHolding(held: bigint): Promise<KeyPairSigner> {
  const keeper = await generateKeyPairSigner();
  await rpc.requestAirdrop(keeper.address, lamports(held)).send();
  await eventually(async () => ((await lamportsOf(keeper.address)) === held ? true : undefined), 10_000, 'the keeper funded');
  return keeper;
}

/** The /v1 API with the faucet paid by `payer`, its defaults (budget, floor) untouched. */
async function startApi(payer: KeyPairSigner): Promise<number> {
  dir = await mkdtemp(join(tmpdir(), 'faucet-drain-'));
  db = openDatabase(join(dir, 'keeper.sqlite'));
  const sender = createTransactionSender({ rpc, confirmer, payer, resendIntervalMs: 500 });
  const faucet = createFaucet({
    rpc,
    mint,
    mintAuthority,
    payer,
    db,
    // As the keeper does: the fee each claim really paid.
    sendTransaction: async (instructions) => {
      const { signature, feeLamports } = await sender.send(instructions);
      return { signature, feeLamports };
    },
  });
  const app = createPublicApi({
    keeper: idleKeeper,
    faucet,
    allowedOrigins: [],
    // Every claim reaches the faucet's own rules.
    rateLimit: { faucetClaim: { perMinute: 60_000, burst: 1_000 } },
  });
  server = await listenPublicApi(app, { port: 0 });
  return server.port;
}

interface ClaimAnswer {
  status: number;
  body: { signature?: string; sol?: string; error?: string; retryAt?: number };
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

/** What the ledger says the claims cost, summed. */
const ledgerCost = () => BigInt((db!.prepare('SELECT COALESCE(SUM(cost_lamports), 0) AS lamports FROM faucet_claims').get() as { lamports: number }).lamports);

describe('draining the keeper through the faucet', () => {
  it('60 claims from 60 addresses: the day costs the keeper at most its 0.5 SOL budget, the rest 503 until midnight UTC', async () => {
    const keeper = await keeperHolding(5n * SOL);
    const port = await startApi(keeper);
    const owners = await wallets(60);
    const answers = await Promise.all(owners.map((owner, i) => claim(port, owner, `127.40.0.${i + 1}`)));
    const spent = 5n * SOL - (await lamportsOf(keeper.address));

    const granted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(spent).toBeLessThanOrEqual(DEFAULT_FAUCET_SOL_PER_DAY);
    // Counted from what the claims really cost: the ledger's sum is the keeper's SOL that left, to the lamport.
    expect(ledgerCost()).toBe(spent);
    // The budget allows about 40 claims of 0.012 SOL, no fewer than its estimate leaves room for.
    expect(granted.length).toBeGreaterThanOrEqual(38);
    const midnight = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
    for (const answer of refused) expect(answer).toEqual({ status: 503, body: { error: FAUCET_ERRORS.budget, retryAt: midnight } });
    expect(refused.length).toBeGreaterThan(0);
  }, 120_000);

  it('a keeper near its warning line: claims stop before it goes under 0.5 SOL, with a 503 saying why', async () => {
    // 0.55 SOL: about four claims above the 0.5 SOL warning line.
    const keeper = await keeperHolding(DEFAULT_KEEPER_FLOOR_LAMPORTS + SOL / 20n);
    const port = await startApi(keeper);
    const owners = await wallets(12);
    const answers: ClaimAnswer[] = [];
    // One after another, as a patient drainer would (each from its own address).
    for (const [i, owner] of owners.entries()) answers.push(await claim(port, owner, `127.41.0.${i + 1}`));
    expect(await lamportsOf(keeper.address)).toBeGreaterThanOrEqual(DEFAULT_KEEPER_FLOOR_LAMPORTS);
    const granted = answers.filter((answer) => answer.status === 200).length;
    expect(granted).toBeGreaterThan(0);
    const before = Date.now();
    for (const answer of answers.slice(granted)) {
      expect(answer).toMatchObject({ status: 503, body: { error: "the keeper's SOL is below its warning line; the faucet pauses so the keeper can crank: try again later" } });
      expect(answer.body.retryAt).toBeGreaterThan(before);
    }
    expect(granted).toBeLessThan(owners.length);
  }, 120_000);
});
