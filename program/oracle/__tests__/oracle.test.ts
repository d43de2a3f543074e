import { getAddressEncoder, getBase64Encoder, generateKeyPairSigner, lamports, type Address, type Instruction } from '@solana/kit';
import { beforeEach, describe, expect, it } from 'vitest';
import { findProgramDataAddress } from '../../../src-main/chain/upgradeable-loader';
import {
  ED25519_PROGRAM_ADDRESS,
  findRandomnessRequestPda,
  getEd25519VerifyInstruction,
  getFulfillInstructionAsync,
  getFulfillRandomnessInstructions,
  getInitNetworkInstructionAsync,
  getNetworkStateDecoder,
  getFulfillEventDecoder,
  getFulfillV2Instruction,
  getRequestEventDecoder,
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
  precompileErrorOf,
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

/** The events the transaction logged (`Program data:` lines), decoded from base64. */
const eventsOf = (logs: readonly string[]): Uint8Array[] =>
  logs.filter((line) => line.startsWith('Program data: ')).map((line) => new Uint8Array(getBase64Encoder().encode(line.slice('Program data: '.length))));

/**
 * An Ed25519 precompile instruction verifying several signatures, all data inside the instruction:
 * [count, pad] [count x 7 u16 offsets] then per signature [public key 32][signature 64][message].
 */
function ed25519MultiInstruction(entries: readonly { publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array }[]): Instruction {
  const headerSize = 2 + 14 * entries.length;
  const size = entries.reduce((total, e) => total + 96 + e.message.length, headerSize);
  const data = new Uint8Array(size);
  const view = new DataView(data.buffer);
  data[0] = entries.length;
  let at = headerSize;
  entries.forEach((entry, i) => {
    const offsets = [at + 32, 0xffff, at, 0xffff, at + 96, entry.message.length, 0xffff];
    offsets.forEach((value, k) => view.setUint16(2 + 14 * i + 2 * k, value, true));
    data.set(entry.publicKey, at);
    data.set(entry.signature, at + 32);
    data.set(entry.message, at + 96);
    at += 96 + entry.message.length;
  });
  return { programAddress: ED25519_PROGRAM_ADDRESS, accounts: [], data };
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
  it('creates a pending request for the seed, charges the fee to the treasury and emits ORAO\'s Request event', async () => {
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
    expect(Array.from(bytes.slice(0, 8))).toEqual(Array.from(anchorDiscriminator('event', 'Request')));
    expect(getRequestEventDecoder().decode(bytes)).toMatchObject({ seed, client: chain.payer.address, paidWithSpl: false });
  });

  it('refuses an all-zero seed', async () => {
    expect(errorNameOf(await request(new Uint8Array(32)))).toBe('zeroSeed');
  });

  it('refuses a seed already requested, pending or fulfilled', async () => {
    const seed = randomSeed();
    expect((await request(seed)).ok).toBe(true);
    expect(errorNameOf(await request(seed))).toBe('seedAlreadyInUse');
    const fulfil = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: await requestAccountOf(seed), seed });
    expect((await chain.runner.send(chain.payer, fulfil)).ok).toBe(true);
    expect(errorNameOf(await request(seed))).toBe('seedAlreadyInUse');
  });

  it('refuses a payer who cannot cover the fee and the request rent, and charges nothing', async () => {
    const poor = await generateKeyPairSigner();
    chain.runner.svm.airdrop(poor.address, lamports(1_000_000n)); // rent-exempt, but less than fee + 137-byte rent
    const treasuryBefore = balanceOf(chain, chain.treasury);
    expect(errorNameOf(await request(randomSeed(), poor))).toBe('insufficientFunds');
    expect(balanceOf(chain, poor.address)).toBe(1_000_000n);
    expect(balanceOf(chain, chain.treasury)).toBe(treasuryBefore);
  });

  it('refuses a payer the fee and rent would leave with 0 < lamports < its rent-exempt minimum (named), charging nothing', async () => {
    // Without the check the runtime fails the transaction with an unnamed InsufficientFundsForRent.
    const requestRent = chain.runner.svm.minimumBalanceForRentExemption(137n);
    const payerMinimum = chain.runner.svm.minimumBalanceForRentExemption(0n);
    for (const remainder of [1n, payerMinimum - 1n]) {
      const payer = await generateKeyPairSigner();
      const funds = REQUEST_FEE + requestRent + remainder;
      chain.runner.svm.airdrop(payer.address, lamports(funds));
      const treasuryBefore = balanceOf(chain, chain.treasury);
      expect(errorNameOf(await request(randomSeed(), payer)), `remainder ${remainder}`).toBe('insufficientFunds');
      expect(balanceOf(chain, payer.address)).toBe(funds);
      expect(balanceOf(chain, chain.treasury)).toBe(treasuryBefore);
    }
  });

  it('accepts a payer left with exactly nothing or exactly its rent-exempt minimum', async () => {
    const requestRent = chain.runner.svm.minimumBalanceForRentExemption(137n);
    const payerMinimum = chain.runner.svm.minimumBalanceForRentExemption(0n);
    for (const remainder of [0n, payerMinimum]) {
      const payer = await generateKeyPairSigner();
      chain.runner.svm.airdrop(payer.address, lamports(REQUEST_FEE + requestRent + remainder));
      const outcome = await request(randomSeed(), payer);
      expect(outcome.ok, `remainder ${remainder}: ${outcome.failure?.message}`).toBe(true);
      expect(balanceOf(chain, payer.address)).toBe(remainder);
    }
  });

  it('refuses a treasury other than the configured one', async () => {
    const ix = await getRequestV2InstructionAsync(
      { payer: chain.payer, treasury: chain.payer.address, seed: randomSeed() },
      { programAddress: chain.programAddress },
    );
    expect(errorNameOf(await chain.runner.send(chain.payer, [ix]))).toBe('unknownTreasuryGiven');
  });

  it('refuses a request account that is not the PDA of the seed', async () => {
    const ix = await getRequestV2InstructionAsync(
      { payer: chain.payer, treasury: chain.treasury, seed: randomSeed(), request: await requestAccountOf(randomSeed()) },
      { programAddress: chain.programAddress },
    );
    expect(errorNameOf(await chain.runner.send(chain.payer, [ix]))).toBe('invalidRequestAccount');
  });
});

describe('local VRF oracle: a treasury that does not exist yet', () => {
  // The local init_network takes the treasury as data, so it cannot see the account; the first request's
  // fee creates it, and request_v2 refuses, by name, a fee that could not make it rent-exempt.
  it('refuses a request whose fee would leave the treasury below rent exemption, charging nothing', async () => {
    chain = await createOracleTestChain({ fundTreasury: false }); // fee 10 000 < the 0-byte minimum
    expect(chain.runner.svm.getAccount(chain.treasury).exists).toBe(false);
    const payerBefore = balanceOf(chain, chain.payer.address);
    const outcome = await request(randomSeed());
    expect(errorNameOf(outcome)).toBe('treasuryNotRentExempt');
    expect(balanceOf(chain, chain.payer.address)).toBe(payerBefore - 5_000n); // the transaction fee only
    expect(chain.runner.svm.getAccount(chain.treasury).exists).toBe(false);
  });

  it('creates the treasury with the first fee when the fee reaches the rent-exempt minimum', async () => {
    const fee = chain.runner.svm.minimumBalanceForRentExemption(0n);
    chain = await createOracleTestChain({ fundTreasury: false, requestFee: fee });
    const outcome = await request(randomSeed());
    expect(outcome.ok, outcome.failure?.message).toBe(true);
    expect(balanceOf(chain, chain.treasury)).toBe(fee);
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

    // ORAO's Fulfill { seed, randomness } event, with Anchor's discriminator.
    const fulfilledDiscriminator = Array.from(anchorDiscriminator('event', 'Fulfill'));
    const event = eventsOf(outcome.logs).find((bytes) => Array.from(bytes.slice(0, 8)).join() === fulfilledDiscriminator.join());
    expect(event?.length).toBe(8 + 32 + 64);
    const decoded = getFulfillEventDecoder().decode(event!);
    expect(decoded.seed).toEqual(seed);
    expect(decoded.randomness).toEqual(randomness);

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
    expect(errorNameOf(await chain.runner.send(chain.payer, instructions))).toBe('unauthorizedFulfillmentAuthority');
    expect(readRequest(requestAddress).request.__kind).toBe('Pending');
  });

  it('fails the whole transaction on a bad signature (the Ed25519 precompile refuses it)', async () => {
    const randomness = await signRandomness(chain.fulfiller, seed);
    randomness[0]! ^= 0x01;
    const instructions = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed, randomness });
    const outcome = await chain.runner.send(chain.payer, instructions);
    expect(outcome.ok).toBe(false);
    expect(precompileErrorOf(outcome)).toEqual({ instructionIndex: 0, name: 'InvalidSignature' });
    expect(readRequest(requestAddress).request.__kind).toBe('Pending');
  });

  it('refuses a fulfil without the Ed25519 precompile instruction', async () => {
    const fulfill = await getFulfillInstructionAsync(
      { authority: chain.fulfiller, request: requestAddress, randomness: await signRandomness(chain.fulfiller, seed) },
      { programAddress: chain.programAddress },
    );
    expect(errorNameOf(await chain.runner.send(chain.payer, [fulfill]))).toBe('missingEd25519SigVerifyInstruction');
  });

  it('refuses a precompile instruction verifying two signatures, even when one is the right one', async () => {
    const randomness = await signRandomness(chain.fulfiller, seed);
    const right = { publicKey: new Uint8Array(getAddressEncoder().encode(chain.fulfiller.address)), message: seed, signature: randomness };
    const stranger = await generateKeyPairSigner();
    const otherMessage = randomSeed();
    const other = {
      publicKey: new Uint8Array(getAddressEncoder().encode(stranger.address)),
      message: otherMessage,
      signature: await signRandomness(stranger, otherMessage),
    };
    const [, fulfill] = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed, randomness });
    for (const entries of [[right, other], [other, right], [right, right]]) {
      const outcome = await chain.runner.send(chain.payer, [ed25519MultiInstruction(entries), fulfill!]);
      // The precompile accepted both signatures (the failure is at the oracle's instruction, index 1) ...
      expect(outcome.failure?.instructionIndex).toBe(1);
      // ... and the oracle reads only the single-signature form.
      expect(errorNameOf(outcome)).toBe('missingEd25519SigVerifyInstruction');
    }
    expect(readRequest(requestAddress).request.__kind).toBe('Pending');
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
    expect(errorNameOf(await chain.runner.send(chain.payer, [verifyOther, fulfill!]))).toBe('missingEd25519SigVerifyInstruction');
  });

  it('refuses randomness that differs from the signature the precompile verified', async () => {
    const [verify] = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed });
    const fulfill = await getFulfillInstructionAsync(
      { authority: chain.fulfiller, request: requestAddress, randomness: new Uint8Array(64).fill(7) },
      { programAddress: chain.programAddress },
    );
    expect(errorNameOf(await chain.runner.send(chain.payer, [verify!, fulfill]))).toBe('randomnessVerificationFailed');
  });

  it('refuses an account posing as the Instructions sysvar', async () => {
    const [verify] = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed });
    const fulfill = await getFulfillInstructionAsync(
      { authority: chain.fulfiller, request: requestAddress, randomness: await signRandomness(chain.fulfiller, seed), instructions: chain.treasury },
      { programAddress: chain.programAddress },
    );
    expect(errorNameOf(await chain.runner.send(chain.payer, [verify!, fulfill]))).toBe('invalidInstructionsSysvar');
  });

  it("accepts ORAO's fulfill_v2: no arguments, the randomness is the precompile's signature over the seed by a fulfilment authority", async () => {
    const [verify] = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed });
    const fulfillV2 = (client: Address = chain.payer.address) =>
      getFulfillV2Instruction({ payer: chain.payer, networkState: chain.networkState, request: requestAddress, client }, { programAddress: chain.programAddress });
    // Without the precompile, with a stranger's signature over the seed, with an authority's over another message, or with another client.
    expect(errorNameOf(await chain.runner.send(chain.payer, [fulfillV2()]))).toBe('missingEd25519SigVerifyInstruction');
    const stranger = await generateKeyPairSigner();
    const strangers = getEd25519VerifyInstruction({ publicKey: new Uint8Array(getAddressEncoder().encode(stranger.address)), message: seed, signature: await signRandomness(stranger, seed) });
    expect(errorNameOf(await chain.runner.send(chain.payer, [strangers, fulfillV2()]))).toBe('unauthorizedFulfillmentAuthority');
    const otherMessage = randomSeed();
    const elsewhere = getEd25519VerifyInstruction({ publicKey: new Uint8Array(getAddressEncoder().encode(chain.fulfiller.address)), message: otherMessage, signature: await signRandomness(chain.fulfiller, otherMessage) });
    expect(errorNameOf(await chain.runner.send(chain.payer, [elsewhere, fulfillV2()]))).toBe('invalidFulfillMessage');
    expect(errorNameOf(await chain.runner.send(chain.payer, [verify!, fulfillV2(stranger.address)]))).toBe('invalidClient');
    expect(readRequest(requestAddress).request.__kind).toBe('Pending');

    const outcome = await chain.runner.send(chain.payer, [verify!, fulfillV2()]);
    expect(outcome.ok, outcome.failure?.message).toBe(true);
    const fulfilled = readRequest(requestAddress).request;
    expect(fulfilled.__kind === 'Fulfilled' && Array.from(fulfilled.randomness)).toEqual(Array.from(await signRandomness(chain.fulfiller, seed)));
    expect(errorNameOf(await chain.runner.send(chain.payer, [verify!, fulfillV2()]))).toBe('alreadyFulfilled');
    // A stranger's fulfilment of the fulfilled request: ORAO's UnauthorizedFulfillmentAuthority (6005), as ORAO answers, not alreadyFulfilled.
    const refused = await chain.runner.send(chain.payer, [strangers, fulfillV2()]);
    expect(errorNameOf(refused)).toBe('unauthorizedFulfillmentAuthority');
    expect(refused.failure?.customCode).toBe(6005);
  });

  it('refuses to fulfil a request twice', async () => {
    const instructions = await getFulfillRandomnessInstructions({ authority: chain.fulfiller, request: requestAddress, seed });
    expect((await chain.runner.send(chain.payer, instructions)).ok).toBe(true);
    expect(errorNameOf(await chain.runner.send(chain.payer, instructions))).toBe('alreadyFulfilled');
  });
});
