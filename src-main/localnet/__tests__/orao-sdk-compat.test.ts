/**
 * The local oracle through ORAO's own SDK (@orao-network/solana-vrf 0.8, with the IDL it ships), given our
 * oracle's program id, used as ORAO's users and fulfillers use it: the network state, a request with its
 * builder, the fulfilment awaited, ORAO's events through its listener, ORAO's error names for a zero and a
 * reused seed, and a fulfilment sent by ORAO's own FulfillBuilder (fulfill_v2).
 */
import { AnchorProvider, ProgramError, Wallet, parseIdlErrors } from '@coral-xyz/anchor';
import { FulfillBuilder, Orao } from '@orao-network/solana-vrf';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js';
import { createPrivateKey, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnet, type Localnet } from '../localnet';
import { verifyRandomness } from '../../protocol/oracle';

let localnet: Localnet;
let connection: Connection;
let vrf: Orao;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, slotMs: 100 });
  connection = new Connection(localnet.rpcUrl, { commitment: 'confirmed', wsEndpoint: localnet.wsUrl });
  const payer = Keypair.generate();
  await connection.confirmTransaction({ signature: await connection.requestAirdrop(payer.publicKey, 10 * LAMPORTS_PER_SOL), ...(await connection.getLatestBlockhash()) });
  const provider = new AnchorProvider(connection, new Wallet(payer), { commitment: 'confirmed' });
  vrf = new Orao(provider, new PublicKey(localnet.manifest.programs.oracle));
});
afterAll(async () => {
  localnet.fulfiller.resume();
  await localnet.stop();
});

/** An ed25519 signature with the localnet's fulfilment authority (its 64-byte secret key: seed ‖ public key). */
function signAsFulfiller(message: Uint8Array): Uint8Array {
  const seed = Buffer.from(localnet.genesis.keys.fulfiller.secretKey.subarray(0, 32));
  const key = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
  return new Uint8Array(sign(null, message, key));
}

describe("ORAO's SDK against the local oracle", () => {
  it('reads the network state', async () => {
    const state = await vrf.getNetworkState();
    expect(state.config.fulfillmentAuthorities.map((key) => key.toBase58())).toEqual([localnet.genesis.keys.fulfiller.signer.address]);
    expect(state.config.treasury.toBase58()).toBe(localnet.manifest.oracle.treasury);
  });

  it('requests randomness with its builder, sees it fulfilled, and hears both events through its listener', async () => {
    const requests: { seed: number[]; client: PublicKey }[] = [];
    const fulfils: { seed: number[]; randomness: number[] }[] = [];
    const listeners = [
      vrf.addEventListener('request', (event: { seed: number[]; client: PublicKey }) => requests.push(event)),
      vrf.addEventListener('fulfill', (event: { seed: number[]; randomness: number[] }) => fulfils.push(event)),
    ];
    try {
      const [seed] = await (await vrf.request()).withComputeUnitPrice(0n).rpc();
      const fulfilled = await vrf.waitFulfilled(seed);
      const randomness = fulfilled.randomness;
      expect(await verifyRandomness(localnet.genesis.keys.fulfiller.signer.address, seed, randomness)).toBe(true);
      await expect.poll(() => fulfils.length, { timeout: 10_000 }).toBe(1);
      expect(Array.from(requests[0]!.seed)).toEqual(Array.from(seed));
      expect(requests[0]!.client.toBase58()).toBe(vrf.provider.publicKey!.toBase58());
      expect(Array.from(fulfils[0]!.randomness)).toEqual(Array.from(randomness));
    } finally {
      for (const id of await Promise.all(listeners)) await vrf.removeEventListener(id);
    }
  });

  it("names a zero seed and a reused seed with ORAO's error names", async () => {
    // Anchor names a custom error from the message and ORAO's IDL (its whole-error parse gives up when the
    // logs repeat "custom program error", on any cluster): as ORAO's users read a refusal.
    const refusal = async (seed: Uint8Array, client = vrf) => {
      const error = (await (await client.request(seed)).withComputeUnitPrice(0n).rpc().then(() => null, (e: unknown) => e)) as { transactionMessage: string } | null;
      const named = ProgramError.parse({ toString: () => error!.transactionMessage }, parseIdlErrors(vrf.idl));
      return named && { code: named.code, msg: named.msg };
    };
    expect(await refusal(new Uint8Array(32))).toEqual({ code: 6000, msg: 'Randomness seed cannot be zero' });
    const [seed] = await (await vrf.request()).withComputeUnitPrice(0n).rpc();
    // Another client reuses the seed (the same client's identical transaction would be a duplicate instead).
    const other = Keypair.generate();
    await connection.confirmTransaction({ signature: await connection.requestAirdrop(other.publicKey, LAMPORTS_PER_SOL), ...(await connection.getLatestBlockhash()) });
    const otherClient = new Orao(new AnchorProvider(connection, new Wallet(other), { commitment: 'confirmed' }), vrf.programId);
    expect(await refusal(seed, otherClient)).toEqual({ code: 6001, msg: 'Another account is using the provided seed, so randomness can be predicted' });
    expect(vrf.idl.errors!.filter((e) => e.code === 6000 || e.code === 6001).map((e) => e.name)).toEqual(['zeroSeed', 'seedAlreadyInUse']); // ORAO's ZeroSeed and SeedAlreadyInUse, as Anchor names them
  });

  it("is fulfilled by ORAO's own FulfillBuilder (fulfill_v2 with the Ed25519 precompile)", async () => {
    localnet.fulfiller.stall();
    try {
      const [seed] = await (await vrf.request()).withComputeUnitPrice(0n).rpc();
      expect((await vrf.getRandomness(seed)).getFulfilledRandomness()).toBeFalsy();
      const signature = signAsFulfiller(seed);
      await new FulfillBuilder(vrf, seed).withComputeUnitPrice(0n).rpc(new PublicKey(localnet.genesis.keys.fulfiller.signer.address), signature);
      const account = await vrf.getRandomness(seed);
      expect(Array.from(account.getFulfilledRandomness()!)).toEqual(Array.from(signature));
    } finally {
      localnet.fulfiller.resume();
    }
  });
});
