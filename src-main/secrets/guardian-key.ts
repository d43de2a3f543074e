/**
 * Where the console keeps a deployment's guardian key off a localnet: the OS keychain, like the keeper
 * key (service "wager-keeper", account "guardian"), imported from a Solana CLI keypair file. Never
 * generated here: the guardian is the key the deployment's config names, so only that key is useful.
 * The secret leaves this module only as a signer; only its address is shown.
 */
import type { KeyPairSigner } from '@solana/kit';
import { readKeeperKeyAddress, readKeychainSigner, storeKeeperKey } from './keeper-key';

export const GUARDIAN_KEYCHAIN_ACCOUNT = 'guardian';

/** The guardian key in the keychain, or null when none was imported (throws KeychainUnavailableError). */
export function readGuardianKey(account = GUARDIAN_KEYCHAIN_ACCOUNT): Promise<KeyPairSigner | null> {
  return readKeychainSigner(account);
}

/** Stores a guardian keypair (64 bytes) in the keychain, replacing any previous one. */
export function storeGuardianKey(secretKey: Uint8Array, account = GUARDIAN_KEYCHAIN_ACCOUNT): void {
  storeKeeperKey(secretKey, account);
}

/** The address of the guardian key in the keychain, or null when none is stored. */
export function readGuardianKeyAddress(account = GUARDIAN_KEYCHAIN_ACCOUNT): Promise<string | null> {
  return readKeeperKeyAddress(account);
}
