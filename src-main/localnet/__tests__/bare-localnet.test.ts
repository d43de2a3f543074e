/**
 * A bare localnet (`startLocalnet({ bare: true })`) seen over JSON-RPC, as a client of a fresh devnet sees
 * it: the SPL programs, ORAO VRF's program id serving the oracle (upgradeable, network configured, requests
 * fulfilled and verifiable against the manifest's fulfilment authority, also through ORAO's own SDK with
 * its default program id), airdrops, and none of our programs, mint or dev keys. The localnet's admin
 * methods work as on the full localnet.
 */
import { AnchorProvider, Wallet } from '@coral-xyz/anchor';
import { Orao, PROGRAM_ADDRESS as ORAO_SDK_PROGRAM_ADDRESS } from '@orao-network/solana-vrf';
import {
  address,
  createSolanaRpc,
  generateKeyPairSigner,
  getAddressEncoder,
  getBase64Encoder,
  getProgramDerivedAddress,
  getUtf8Encoder,
  lamports,
  type Address,
} from '@solana/kit';
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { Connection, Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BPF_LOADER_UPGRADEABLE_ADDRESS, findProgramDataAddress } from '../../chain/upgradeable-loader';
import {
  ORACLE_PROGRAM_ADDRESS,
  ORAO_VRF_PROGRAM_ADDRESS,
  getNetworkStateDecoder,
  getRandomnessV2Decoder,
  getRequestV2InstructionAsync,
  verifyRandomness,
} from '../../protocol/oracle';
import { WAGER_PROGRAM_ADDRESS } from '../../protocol/wager';
import { readProgramBytes } from '../../protocol/program-artifacts';
import { decodeProgramData } from '../genesis-program';
import { advanceLocalSlots, fetchLocalnetManifest, localOracleStatus, resumeLocalOracle, stallLocalOracle } from '../localnet-admin-client';
import { startLocalnet, type BareLocalnet } from '../localnet';
import { eventually, fundedSigner, sendWire, signInstructions, type LocalRpc } from './localnet-test-helpers';

const TOKEN_2022_PROGRAM_ADDRESS = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
const MEMO_PROGRAM_ADDRESS = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const NATIVE_MINT = address('So11111111111111111111111111111111111111112');

let localnet: BareLocalnet;
let rpc: LocalRpc;

beforeAll(async () => {
  // Manual slots: each test moves the clock itself (localnet_advanceSlots), so nothing waits on time.
  localnet = await startLocalnet({ rpcPort: 0, bare: true, manualSlots: true });
  rpc = createSolanaRpc(localnet.rpcUrl);
});
afterAll(async () => {
  await localnet?.stop();
});

const accountOf = async (at: Address) => (await rpc.getAccountInfo(at, { encoding: 'base64' }).send()).value;
const dataOf = (account: NonNullable<Awaited<ReturnType<typeof accountOf>>>) => getBase64Encoder().encode(account.data[0]);

/** Sends ORAO's request_v2 for a fresh seed to the oracle at ORAO's address; returns the seed and request account. */
async function requestRandomness(payer: Awaited<ReturnType<typeof fundedSigner>>) {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const instruction = await getRequestV2InstructionAsync({ payer, treasury: address(localnet.manifest.oracle.treasury), seed }, { programAddress: ORAO_VRF_PROGRAM_ADDRESS });
  const [request] = await getProgramDerivedAddress({
    programAddress: ORAO_VRF_PROGRAM_ADDRESS,
    seeds: [getUtf8Encoder().encode('orao-vrf-randomness-request'), seed],
  });
  const { wire } = await signInstructions(rpc, payer, [instruction]);
  const signature = await sendWire(rpc, wire);
  return { seed, request, signature };
}

async function requestState(request: Address) {
  const account = await accountOf(request);
  return account ? getRandomnessV2Decoder().decode(dataOf(account)).request : null;
}

describe('a bare localnet, like a fresh devnet', () => {
  it("serves the oracle at ORAO VRF's program id, upgradeable like ORAO's: executable, owned by the upgradeable loader, with its ProgramData", async () => {
    const program = await accountOf(ORAO_VRF_PROGRAM_ADDRESS);
    expect(program).toMatchObject({ executable: true, owner: BPF_LOADER_UPGRADEABLE_ADDRESS });
    const programData = await findProgramDataAddress(ORAO_VRF_PROGRAM_ADDRESS);
    // UpgradeableLoaderState::Program { programdata_address }
    expect(Array.from(dataOf(program!))).toEqual([2, 0, 0, 0, ...getAddressEncoder().encode(programData)]);
    const data = await accountOf(programData);
    expect(data).toMatchObject({ executable: false, owner: BPF_LOADER_UPGRADEABLE_ADDRESS });
    const header = decodeProgramData(dataOf(data!));
    expect(header.upgradeAuthority).not.toBeNull();
    expect(Buffer.from(header.programBytes).equals(Buffer.from(await readProgramBytes('oracle')))).toBe(true);
    expect(localnet.manifest.programs).toEqual({ oracle: ORAO_VRF_PROGRAM_ADDRESS });
    expect(ORAO_SDK_PROGRAM_ADDRESS).toBe(ORAO_VRF_PROGRAM_ADDRESS);
  });

  it("has ORAO's network state at its PDA, with the fee, treasury and fulfilment authority the manifest names", async () => {
    const { oracle } = localnet.manifest;
    const [networkState] = await getProgramDerivedAddress({ programAddress: ORAO_VRF_PROGRAM_ADDRESS, seeds: [getUtf8Encoder().encode('orao-vrf-network-configuration')] });
    expect(oracle.networkState).toBe(networkState);
    const account = await accountOf(networkState);
    expect(account?.owner).toBe(ORAO_VRF_PROGRAM_ADDRESS);
    const state = getNetworkStateDecoder().decode(dataOf(account!));
    expect(state).toMatchObject({ requestFee: BigInt(oracle.requestFee), treasury: oracle.treasury, fulfillmentAuthorities: [oracle.fulfilmentAuthority] });
    expect(oracle.requestFee).toBeGreaterThan(0);
    const treasury = await rpc.getBalance(address(oracle.treasury)).send();
    expect(treasury.value).toBeGreaterThanOrEqual(await rpc.getMinimumBalanceForRentExemption(0n).send());
  });

  it('has the SPL programs and native mints of a public cluster, and none of ours: no wager program, no local oracle id, no mint, no dev keys', async () => {
    for (const program of [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, ASSOCIATED_TOKEN_PROGRAM_ADDRESS, MEMO_PROGRAM_ADDRESS]) {
      expect((await accountOf(program))?.executable, program).toBe(true);
    }
    expect((await accountOf(NATIVE_MINT))?.owner).toBe(TOKEN_PROGRAM_ADDRESS);
    expect(await accountOf(WAGER_PROGRAM_ADDRESS)).toBeNull();
    expect(await accountOf(ORACLE_PROGRAM_ADDRESS)).toBeNull();
    // Only the native mint belongs to SPL Token: no test USDC mint, no token accounts of funded keys.
    const tokenAccounts = await rpc.getProgramAccounts(TOKEN_PROGRAM_ADDRESS, { encoding: 'base64' }).send();
    expect(tokenAccounts.map((entry) => entry.pubkey)).toEqual([NATIVE_MINT]);
    expect(Object.keys(localnet.manifest).sort()).toEqual(['bare', 'deployment', 'genesisHash', 'network', 'oracle', 'programs', 'rpcUrl', 'slotMs', 'wsUrl']);
    expect(localnet.manifest).toMatchObject({ bare: true, deployment: null });
  });

  it('answers localnet_manifest with the same manifest', async () => {
    expect(await fetchLocalnetManifest(localnet.rpcUrl)).toEqual(localnet.manifest);
  });

  it('credits a requestAirdrop, as on devnet', async () => {
    const wallet = (await generateKeyPairSigner()).address;
    const signature = await rpc.requestAirdrop(wallet, lamports(2n * 1_000_000_000n)).send();
    expect((await rpc.getSignatureStatuses([signature]).send()).value[0]?.err).toBeNull();
    expect((await rpc.getBalance(wallet).send()).value).toBe(2_000_000_000n);
  });

  it("fulfils a request_v2 sent to ORAO's address; the randomness verifies against the manifest's fulfilment authority, and the fee reaches the treasury", async () => {
    const payer = await fundedSigner(rpc);
    const treasury = address(localnet.manifest.oracle.treasury);
    const before = (await rpc.getBalance(treasury).send()).value;
    const { seed, request } = await requestRandomness(payer);
    expect((await requestState(request))?.__kind).toBe('Pending');
    expect((await rpc.getBalance(treasury).send()).value - before).toBe(BigInt(localnet.manifest.oracle.requestFee));

    await advanceLocalSlots(localnet.rpcUrl, localnet.manifest.oracle.delaySlots);
    const fulfilled = await eventually(async () => {
      const state = await requestState(request);
      return state?.__kind === 'Fulfilled' ? state : undefined;
    }, 10_000, 'the fulfilment');
    expect(Array.from(fulfilled.seed)).toEqual(Array.from(seed));
    expect(await verifyRandomness(address(localnet.manifest.oracle.fulfilmentAuthority), seed, fulfilled.randomness)).toBe(true);
  });

  it('stalls, reports and resumes its oracle through the admin methods (localnet_stallOracle, _oracleStatus, _resumeOracle, _advanceSlots)', async () => {
    const payer = await fundedSigner(rpc);
    expect(await stallLocalOracle(localnet.rpcUrl)).toBe(true);
    try {
      const { request } = await requestRandomness(payer);
      const slot = await rpc.getSlot().send();
      expect(BigInt(await advanceLocalSlots(localnet.rpcUrl, 5))).toBe(slot + 5n);
      expect(await localOracleStatus(localnet.rpcUrl)).toEqual({ stalled: true, pending: 1 });
      expect((await requestState(request))?.__kind).toBe('Pending');

      expect(await resumeLocalOracle(localnet.rpcUrl)).toBe(true);
      await advanceLocalSlots(localnet.rpcUrl, 1);
      await eventually(async () => ((await requestState(request))?.__kind === 'Fulfilled' ? true : undefined), 10_000, 'the fulfilment after resume');
      expect(await localOracleStatus(localnet.rpcUrl)).toEqual({ stalled: false, pending: 0 });
    } finally {
      await resumeLocalOracle(localnet.rpcUrl);
    }
  });

  it("serves ORAO's own SDK with its default program id: a request by its builder is fulfilled", async () => {
    const connection = new Connection(localnet.rpcUrl, { commitment: 'confirmed', wsEndpoint: localnet.wsUrl });
    const payer = Keypair.generate();
    await connection.confirmTransaction({ signature: await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL), ...(await connection.getLatestBlockhash()) });
    const vrf = new Orao(new AnchorProvider(connection, new Wallet(payer), { commitment: 'confirmed' }));
    expect((await vrf.getNetworkState()).config.treasury.toBase58()).toBe(localnet.manifest.oracle.treasury);
    const [seed] = await (await vrf.request()).withComputeUnitPrice(0n).rpc();
    await advanceLocalSlots(localnet.rpcUrl, localnet.manifest.oracle.delaySlots);
    // Fulfilled first, then read by the SDK: its subscription could open after the change and miss it.
    const [request] = await getProgramDerivedAddress({ programAddress: ORAO_VRF_PROGRAM_ADDRESS, seeds: [getUtf8Encoder().encode('orao-vrf-randomness-request'), seed] });
    await eventually(async () => ((await requestState(request))?.__kind === 'Fulfilled' ? true : undefined), 10_000, 'the fulfilment');
    const { randomness } = await vrf.waitFulfilled(seed);
    expect(await verifyRandomness(address(localnet.manifest.oracle.fulfilmentAuthority), seed, randomness)).toBe(true);
  });
});
