import { getBase64Encoder, generateKeyPairSigner, lamports, type Address } from '@solana/kit';
import { beforeEach, describe, expect, it } from 'vitest';
import { findProgramDataAddress } from '../../../src-main/chain/upgradeable-loader';
import {
  findRandomnessRequestPda,
  getEd25519VerifyInstruction,
  getFulfillInstructionAsync,
  getFulfillRandomnessInstructions,
  getInitNetworkInstructionAsync,
  getNetworkStateDecoder,
  getRandomnessV2Decoder,
  getRequestV2InstructionAsync,
  signRandomness,
  verifyRandomness,
} from '../../../src-main/protocol/oracle';
import { anchorDiscriminator } from '../../idl/oracle-idl';
import {
  REQUEST_FEE,
  balanceOf,
  createOracleTestChain,
  errorNameOf,
  randomSeed,
  type OracleTestChain,
} from './oracle-test-chain';

let chain: OracleTestChain;
beforeEach(async () => {
  chain = await createOracleTestChain();
});

const requestAccountOf = async (seed: Uint8Array): Promise<Address> =>
  (await findRandomnessRequestPda({ seed }, { programAddress: chain.programAddress }))[0];

async function request(seed: Uint8Array, payer = chain.payer) {
  const ix = await getRequestV2InstructionAsync({ payer, treasury: chain.treasury, seed }, { programAddress: chain.programAddress });
  return chain.runner.send(chain.payer, [ix]);
}

function readRequest(address: Address) {
  const account = chain.runner.svm.getAccount(address);
  if (!account.exists) throw new Error(`no account at ${address}`);
  return { owner: account.programAddress, size: account.data.length, ...getRandomnessV2Decoder().decode(account.data) };
}

describe('local VRF oracle: configuration', () => {
  it('is deployed through the upgradeable loader and publishes the network configuration', () => {
    const account = chain.runner.svm.getAccount(chain.networkState);
    expect(account.exists && account.programAddress).toBe(chain.programAddress);
    const state = getNetworkStateDecoder().decode(account.exists ? account.data : new Uint8Array());
    expect(state.authority).toBe(chain.payer.address);
    expect(state.treasury).toBe(chain.treasury);
    expect(state.requestFee).toBe(REQUEST_FEE);
    expect(state.fulfillmentAuthorities).toEqual([chain.fulfiller.address]);
    expect(state.numReceived).toBe(0n);
  });

  it('refuses a second configuration, and a configuration not signed by the upgrade authority', async () => {
    const stranger = await generateKeyPairSigner();
    chain.runner.svm.airdrop(stranger.address, lamports(10_000_000_000n));
    const init = (payer: typeof stranger) =>
      findProgramDataAddress(chain.programAddress).then((programData) =>
        getInitNetworkInstructionAsync(
          { payer, programData, requestFee: 1n, authority: payer.address, treasury: payer.address, fulfillmentAuthorities: [payer.address] },
          { programAddress: chain.programAddress },
        ),
      );
    expect(errorNameOf(await chain.runner.send(stranger, [await init(stranger)]))).toBe('notUpgradeAuthority');
    expect(errorNameOf(await chain.runner.send(chain.payer, [await init(chain.payer)]))).toBe('networkAlreadyInitialized');
  });
});

describe('local VRF oracle: request_v2', () => {
  it('creates a pending request for the seed, charges the fee to the treasury and emits RandomnessRequested', async () => {
    const seed = randomSeed();
    const treasuryBefore = balanceOf(chain, chain.treasury);
    const outcome = await request(seed);
    expect(outcome.ok, outcome.failure?.message).toBe(true);

    const requestAccount = readRequest(await requestAccountOf(seed));
    expect(requestAccount.owner).toBe(chain.programAddress);
    expect(requestAccount.size).toBe(137);
    expect(requestAccount.request).toEqual({ __kind: 'Pending', client: chain.payer.address, seed, responses: [] });
    expect(balanceOf(chain, chain.treasury) - treasuryBefore).toBe(REQUEST_FEE);

    const state = chain.runner.svm.getAccount(chain.networkState);
    expect(state.exists && getNetworkStateDecoder().decode(state.data).numReceived).toBe(1n);

    const event = outcome.logs.find((line) => line.startsWith('Program data: '));
    const bytes = getBase64Encoder().encode(event?.slice('Program data: '.length) ?? '');
    expect(Array.from(bytes.slice(0, 8))).toEqual(Array.from(anchorDiscriminator('event', 'RandomnessRequested')));
    expect(Array.from(bytes.slice(8, 40))).toEqual(Array.from(seed));
  });

  it('refuses an all-zero seed', async () => {
    expect(errorNameOf(await request(new Uint8Array(32)))).toBe('zeroSeed');
  });

  it('refuses a seed already requested, pending or fulfilled', async () => {
    const seed = randomSeed();
    expect((await request(seed)).ok).toBe(true);
    expect(errorNameOf(await request(seed))).toBe('seedInUse');
    const fulfil = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: await requestAccountOf(seed), seed });
    expect((await chain.runner.send(chain.payer, fulfil)).ok).toBe(true);
    expect(errorNameOf(await request(seed))).toBe('seedInUse');
  });

  it('refuses a payer who cannot cover the fee and the request rent, and charges nothing', async () => {
    const poor = await generateKeyPairSigner();
    chain.runner.svm.airdrop(poor.address, lamports(1_000_000n)); // rent-exempt, but less than fee + 137-byte rent
    const treasuryBefore = balanceOf(chain, chain.treasury);
    expect(errorNameOf(await request(randomSeed(), poor))).toBe('insufficientFunds');
    expect(balanceOf(chain, poor.address)).toBe(1_000_000n);
    expect(balanceOf(chain, chain.treasury)).toBe(treasuryBefore);
  });

  it('refuses a treasury other than the configured one', async () => {
    const ix = await getRequestV2InstructionAsync(
      { payer: chain.payer, treasury: chain.payer.address, seed: randomSeed() },
      { programAddress: chain.programAddress },
    );
    expect(errorNameOf(await chain.runner.send(chain.payer, [ix]))).toBe('invalidTreasury');
  });

  it('refuses a request account that is not the PDA of the seed', async () => {
    const ix = await getRequestV2InstructionAsync(
      { payer: chain.payer, treasury: chain.treasury, seed: randomSeed(), request: await requestAccountOf(randomSeed()) },
      { programAddress: chain.programAddress },
    );
    expect(errorNameOf(await chain.runner.send(chain.payer, [ix]))).toBe('invalidRequestAccount');
  });
});

describe('local VRF oracle: fulfil', () => {
  let seed: Uint8Array;
  let requestAddress: Address;
  beforeEach(async () => {
    seed = randomSeed();
    expect((await request(seed)).ok).toBe(true);
    requestAddress = await requestAccountOf(seed);
  });

  it("stores the authority's signature over the seed as randomness, verifiable offline", async () => {
    const instructions = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed });
    const outcome = await chain.runner.send(chain.payer, instructions);
    expect(outcome.ok, outcome.failure?.message).toBe(true);

    const fulfilled = readRequest(requestAddress).request;
    expect(fulfilled.__kind).toBe('Fulfilled');
    const randomness = fulfilled.__kind === 'Fulfilled' ? fulfilled.randomness : new Uint8Array();
    expect(randomness).toEqual(await signRandomness(chain.fulfiller, seed));
    expect(await verifyRandomness(chain.fulfiller.address, seed, randomness)).toBe(true);

    // Offline verification fails for another authority, another seed, or altered randomness.
    const other = await generateKeyPairSigner();
    expect(await verifyRandomness(other.address, seed, randomness)).toBe(false);
    expect(await verifyRandomness(chain.fulfiller.address, randomSeed(), randomness)).toBe(false);
    const altered = randomness.slice();
    altered[10]! ^= 1;
    expect(await verifyRandomness(chain.fulfiller.address, seed, altered)).toBe(false);
  });

  it('refuses a signer that is not a fulfilment authority, even with a valid signature', async () => {
    const impostor = await generateKeyPairSigner();
    const instructions = await getFulfillRandomnessInstructions({ authority: impostor, request: requestAddress, seed });
    expect(errorNameOf(await chain.runner.send(chain.payer, instructions))).toBe('unauthorizedFulfiller');
    expect(readRequest(requestAddress).request.__kind).toBe('Pending');
  });

  it('fails the whole transaction on a bad signature (the Ed25519 precompile refuses it)', async () => {
    const randomness = await signRandomness(chain.fulfiller, seed);
    randomness[0]! ^= 0x01;
    const instructions = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed, randomness });
    const outcome = await chain.runner.send(chain.payer, instructions);
    expect(outcome.ok).toBe(false);
    expect(outcome.failure).toMatchObject({ instructionIndex: 0, customCode: 2 }); // precompile InvalidSignature
    expect(readRequest(requestAddress).request.__kind).toBe('Pending');
  });

  it('refuses a fulfil without the Ed25519 precompile instruction', async () => {
    const fulfill = await getFulfillInstructionAsync(
      { authority: chain.fulfiller, request: requestAddress, randomness: await signRandomness(chain.fulfiller, seed) },
      { programAddress: chain.programAddress },
    );
    expect(errorNameOf(await chain.runner.send(chain.payer, [fulfill]))).toBe('missingSignatureVerification');
  });

  it('refuses a precompile instruction that verified a signature over another seed', async () => {
    const otherSeed = randomSeed();
    const signature = await signRandomness(chain.fulfiller, otherSeed);
    const [, fulfill] = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed, randomness: signature });
    const verifyOther = getEd25519VerifyInstruction({
      publicKey: new Uint8Array(await crypto.subtle.exportKey('raw', chain.fulfiller.keyPair.publicKey)),
      message: otherSeed,
      signature,
    });
    expect(errorNameOf(await chain.runner.send(chain.payer, [verifyOther, fulfill!]))).toBe('missingSignatureVerification');
  });

  it('refuses randomness that differs from the signature the precompile verified', async () => {
    const [verify] = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed });
    const fulfill = await getFulfillInstructionAsync(
      { authority: chain.fulfiller, request: requestAddress, randomness: new Uint8Array(64).fill(7) },
      { programAddress: chain.programAddress },
    );
    expect(errorNameOf(await chain.runner.send(chain.payer, [verify!, fulfill]))).toBe('randomnessMismatch');
  });

  it('refuses an account posing as the Instructions sysvar', async () => {
    const [verify] = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed });
    const fulfill = await getFulfillInstructionAsync(
      { authority: chain.fulfiller, request: requestAddress, randomness: await signRandomness(chain.fulfiller, seed), instructions: chain.treasury },
      { programAddress: chain.programAddress },
    );
    expect(errorNameOf(await chain.runner.send(chain.payer, [verify!, fulfill]))).toBe('invalidInstructionsSysvar');
  });

  it('refuses to fulfil a request twice', async () => {
    const instructions = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed });
    expect((await chain.runner.send(chain.payer, instructions)).ok).toBe(true);
    expect(errorNameOf(await chain.runner.send(chain.payer, instructions))).toBe('alreadyFulfilled');
  });
});
