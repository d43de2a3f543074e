/**
 * The Ed25519 signature-verify precompile instruction for one signature, with every offset pointing
 * inside the instruction itself (the only form the oracle accepts). Hand-written: kit has no builder
 * for the precompile.
 */
import { address, type Instruction } from '@solana/kit';

export const ED25519_PROGRAM_ADDRESS = address('Ed25519SigVerify111111111111111111111111111');

/** u16::MAX: "the data is in this instruction". */
const THIS_INSTRUCTION = 0xffff;
const HEADER_SIZE = 2;
const OFFSETS_SIZE = 14;

export interface Ed25519VerifyInput {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

/** Layout: [count=1, pad] [7 x u16 offsets] [public key 32] [signature 64] [message]. */
export function getEd25519VerifyInstruction({ publicKey, message, signature }: Ed25519VerifyInput): Instruction {
  if (publicKey.length !== 32) throw new Error(`ed25519 public key must be 32 bytes, got ${publicKey.length}`);
  if (signature.length !== 64) throw new Error(`ed25519 signature must be 64 bytes, got ${signature.length}`);
  const publicKeyOffset = HEADER_SIZE + OFFSETS_SIZE;
  const signatureOffset = publicKeyOffset + 32;
  const messageOffset = signatureOffset + 64;
  const data = new Uint8Array(messageOffset + message.length);
  const view = new DataView(data.buffer);
  data[0] = 1;
  const offsets = [signatureOffset, THIS_INSTRUCTION, publicKeyOffset, THIS_INSTRUCTION, messageOffset, message.length, THIS_INSTRUCTION];
  offsets.forEach((value, i) => view.setUint16(HEADER_SIZE + 2 * i, value, true));
  data.set(publicKey, publicKeyOffset);
  data.set(signature, signatureOffset);
  data.set(message, messageOffset);
  return { programAddress: ED25519_PROGRAM_ADDRESS, accounts: [], data };
}
