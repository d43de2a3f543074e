/**
 * Ed25519 verification of every signature of a transaction over its message bytes, as a validator's
 * sigverify stage does (LiteSVM's own check is switched off so simulations can skip it). Synchronous
 * (node:crypto) so that execution stays in arrival order.
 */
import { getAddressEncoder, type Address, type Transaction } from '@solana/kit';
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

// DER prefix of an Ed25519 SubjectPublicKeyInfo: node:crypto takes public keys as KeyObjects.
const ED25519_SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

// Building a KeyObject costs about as much as a verification; signers repeat, so keep the recent ones.
const KEY_CACHE_LIMIT = 10_000;
const keyCache = new Map<string, KeyObject>();

function publicKeyOf(address: Address): KeyObject {
  const cached = keyCache.get(address);
  if (cached) return cached;
  const raw = Uint8Array.from(getAddressEncoder().encode(address));
  const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.delete(keyCache.keys().next().value!);
  keyCache.set(address, key);
  return key;
}

/** True when every required signer signed the message; a missing signature fails. */
export function verifyTransactionSignatures(transaction: Transaction): boolean {
  const message = Uint8Array.from(transaction.messageBytes);
  for (const [address, signature] of Object.entries(transaction.signatures)) {
    if (!signature) return false;
    try {
      if (!verify(null, message, publicKeyOf(address as Address), Uint8Array.from(signature))) return false;
    } catch {
      return false;
    }
  }
  return true;
}
