/**
 * sol/instructions_sysvar.h + sol/ed25519.h on the real runtime: programs/ed25519.c reads the
 * transaction's instructions from the Instructions sysvar and reports whether an Ed25519 precompile
 * instruction verified the (key, message, signature) it was given.
 */
import {
  AccountRole,
  address,
  generateKeyPairSigner,
  getAddressEncoder,
  lamports,
  signBytes,
} from '@solana/kit';
import type { AccountMeta, Instruction, KeyPairSigner } from '@solana/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ED25519_PROGRAM_ADDRESS,
  getEd25519VerifyInstruction,
} from '../../../src-main/protocol/oracle/ed25519-instruction.ts';
import { buildSdkTestProgram, loadSdkTestProgram } from './helpers/sdk-program.ts';
import type { SdkTestChain } from './helpers/sdk-program.ts';

/** SolEd25519Match. */
const NO_MATCH = 0;
const MATCH = 1;
const OTHER_SIGNATURE = 2;

const INSTRUCTIONS_SYSVAR = address('Sysvar1nstructions1111111111111111111111111');
const SYSVAR_ACCOUNTS: AccountMeta[] = [{ address: INSTRUCTIONS_SYSVAR, role: AccountRole.READONLY }];

/** programs/ed25519.c reads key, signature and message at these offsets (the first 16 bytes are ignored). */
const KEY_AT = 16;
const SIGNATURE_AT = KEY_AT + 32;
const MESSAGE_AT = SIGNATURE_AT + 64;
/** A precompile offsets field naming this instruction's own data. */
const THIS_INSTRUCTION = 0xffff;

let chain: SdkTestChain;
let signer: KeyPairSigner;
let publicKey: Uint8Array;
const message = new TextEncoder().encode('wager 42: outcome 7 of 36');
let signature: Uint8Array;

beforeAll(async () => {
  chain = await loadSdkTestProgram(await buildSdkTestProgram('ed25519.c'));
  signer = await generateKeyPairSigner();
  publicKey = Uint8Array.from(getAddressEncoder().encode(signer.address));
  signature = Uint8Array.from(await signBytes(signer.keyPair.privateKey, message));
});

interface Triple {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

/** [16 bytes] key signature message: the program's data, and the tail of a crafted precompile's. */
function layout(triple: Triple, header = new Uint8Array(KEY_AT)): Uint8Array {
  const data = new Uint8Array(MESSAGE_AT + triple.message.length);
  data.set(header, 0);
  data.set(triple.publicKey, KEY_AT);
  data.set(triple.signature, SIGNATURE_AT);
  data.set(triple.message, MESSAGE_AT);
  return data;
}

/** The SolEd25519Match the program returns for `triple`, with `before` ahead of it in the transaction. */
async function findVerification(triple: Triple, before: readonly Instruction[]): Promise<number> {
  const returned = await chain.returnData(layout(triple), SYSVAR_ACCOUNTS, before);
  expect(returned).toHaveLength(1);
  return returned[0]!;
}

/**
 * A one-signature precompile instruction laid out like the program's data, so the same offsets read
 * the same bytes in either instruction; `indices` says which instruction each offset refers to.
 */
function craftedPrecompile(
  triple: Triple,
  indices: { signature: number; publicKey: number; message: number },
): Instruction {
  const header = new Uint8Array(KEY_AT);
  const view = new DataView(header.buffer);
  header[0] = 1; // one signature
  const offsets = [
    SIGNATURE_AT,
    indices.signature,
    KEY_AT,
    indices.publicKey,
    MESSAGE_AT,
    triple.message.length,
    indices.message,
  ];
  offsets.forEach((value, i) => view.setUint16(2 + 2 * i, value, true));
  return { programAddress: ED25519_PROGRAM_ADDRESS, accounts: [], data: layout(triple, header) };
}

describe('sol_find_ed25519_verification, run in LiteSVM', () => {
  it('finds the precompile instruction that verified this key, message and signature', async () => {
    const triple = { publicKey, message, signature };
    expect(await findVerification(triple, [getEd25519VerifyInstruction(triple)])).toBe(MATCH);
  });

  it('tells apart a different signature over the same key and message', async () => {
    const verified = { publicKey, message, signature };
    const other = Uint8Array.from(signature);
    other[63]! ^= 0x01;
    const result = await findVerification({ ...verified, signature: other }, [
      getEd25519VerifyInstruction(verified),
    ]);
    expect(result).toBe(OTHER_SIGNATURE);
  });

  it('finds nothing without a precompile instruction', async () => {
    expect(await findVerification({ publicKey, message, signature }, [])).toBe(NO_MATCH);
  });

  it('finds nothing when the precompile verified another message or another key', async () => {
    const otherMessage = new TextEncoder().encode('wager 42: outcome 8 of 36');
    const otherVerified = {
      publicKey,
      message: otherMessage,
      signature: Uint8Array.from(await signBytes(signer.keyPair.privateKey, otherMessage)),
    };
    const triple = { publicKey, message, signature };
    expect(await findVerification(triple, [getEd25519VerifyInstruction(otherVerified)])).toBe(NO_MATCH);

    const stranger = await generateKeyPairSigner();
    const strangerVerified = {
      publicKey: Uint8Array.from(getAddressEncoder().encode(stranger.address)),
      message,
      signature: Uint8Array.from(await signBytes(stranger.keyPair.privateKey, message)),
    };
    expect(await findVerification(triple, [getEd25519VerifyInstruction(strangerVerified)])).toBe(NO_MATCH);
    // Among several, the one that matches wins.
    const several = [getEd25519VerifyInstruction(strangerVerified), getEd25519VerifyInstruction(triple)];
    expect(await findVerification(triple, several)).toBe(MATCH);
  });

  it('ignores a precompile instruction whose offsets point into another instruction', async () => {
    const triple = { publicKey, message, signature };
    const own = { signature: THIS_INSTRUCTION, publicKey: THIS_INSTRUCTION, message: THIS_INSTRUCTION };
    // The crafted layout is right: with every offset in its own data, the program accepts it.
    expect(await findVerification(triple, [craftedPrecompile(triple, own)])).toBe(MATCH);

    // Instruction 1 is the test program, whose data holds the same bytes at the same offsets: the
    // precompile verifies them there, and the transaction succeeds, yet the program must not trust it.
    for (const field of ['signature', 'publicKey', 'message'] as const) {
      const elsewhere = craftedPrecompile(triple, { ...own, [field]: 1 });
      expect(await findVerification(triple, [elsewhere]), `${field} in instruction 1`).toBe(NO_MATCH);
    }
    const allElsewhere = craftedPrecompile(triple, { signature: 1, publicKey: 1, message: 1 });
    expect(await findVerification(triple, [allElsewhere])).toBe(NO_MATCH);

    // The precompile really reads instruction 1: a bad signature there fails the whole transaction.
    const forged = Uint8Array.from(signature);
    forged[0]! ^= 0x80;
    const outcome = await chain.call(layout({ ...triple, signature: forged }), SYSVAR_ACCOUNTS, [
      craftedPrecompile(triple, { ...own, signature: 1 }),
    ]);
    expect(outcome.ok).toBe(false);
    expect(outcome.failure?.instructionIndex).toBe(0);
  });

  it('refuses an account posing as the Instructions sysvar', async () => {
    const triple = { publicKey, message, signature };
    const { address: impostor } = await generateKeyPairSigner();
    // Shaped like the sysvar of a one-instruction transaction holding the precompile instruction.
    const precompile = getEd25519VerifyInstruction(triple).data!;
    const data = new Uint8Array(2 + 2 + 2 + 32 + 2 + precompile.length + 2);
    const view = new DataView(data.buffer);
    view.setUint16(0, 1, true);
    view.setUint16(2, 4, true);
    view.setUint16(4, 0, true); // no accounts
    data.set(getAddressEncoder().encode(ED25519_PROGRAM_ADDRESS), 6);
    view.setUint16(38, precompile.length, true);
    data.set(precompile, 40);
    chain.runner.svm.setAccount({
      address: impostor,
      data,
      executable: false,
      lamports: lamports(chain.runner.svm.minimumBalanceForRentExemption(BigInt(data.length))),
      programAddress: chain.program,
      space: BigInt(data.length),
    });
    const outcome = await chain.call(layout(triple), [{ address: impostor, role: AccountRole.READONLY }]);
    expect(outcome.ok).toBe(false);
    expect(outcome.failure?.name).toBe('InvalidArgument');
  });
});
